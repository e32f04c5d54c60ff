package org.jhooks.tf;

import java.util.List;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * Makes the per-run callbacks of a fixed list of consecutive hooks, in order, in one call each: the
 * extension point through which {@link MonitoredSession} drives hooks that live behind a costly
 * boundary (Python hooks: {@code org.jhooks.bridge.PythonHookGroup}) as one unit. Twin of {@code
 * jhooks.tf.hook_batch.HookBatch}.
 *
 * <p>A hook offers a batch by implementing {@link Batchable}; the driver groups two or more
 * consecutive hooks whose {@link Batchable#batchFactory()} is the same factory and calls {@link
 * Factory#batch} once. What the hooks and the caller observe is what the driver's own loop would
 * do: callbacks in order; an exception stops the loop at the hook that raised it ({@link
 * #position()}) and leaves as from that hook; the args a hook returns are checked before the next
 * hook is called.
 */
public interface HookBatch {

  /**
   * Calls {@code beforeSessionRun(context)} on hooks {@code start, start + 1, ...} until one
   * returns args that are not {@linkplain Before#repeated(int) repeated}, or the batch ends.
   *
   * @return that hook's index and args, or the batch size and {@code null}; and which hooks in
   *     between returned again the args they returned last time
   */
  Before beforeSessionRun(SessionRunContext context, int start);

  /**
   * Calls {@code afterSessionRun(context, values[i])} on hooks {@code 0 .. values.length - 1}, in
   * order.
   */
  void afterSessionRun(SessionRunContext context, SessionRunValues[] values);

  /** The index of the hook being called, or of the one whose callback threw. */
  int position();

  /**
   * Forgets the args hooks returned before: called when the driver refused args a hook returned, so
   * no hook's args count as repeated in the next call.
   */
  void forget();

  /**
   * What {@link HookBatch#beforeSessionRun} reached.
   *
   * @param index the hook that returned new args, or the batch size when none did
   * @param args those args, or {@code null}
   * @param repeated bit {@code i} set when hook {@code i} (below {@link #MAX_REPEATED}) returned
   *     the same args as the last args it returned and the driver accepted: they are not returned
   *     again, the driver uses the ones it accepted
   */
  record Before(int index, SessionRunArgs args, long repeated) {
    /** Hooks at or past this index are never reported repeated. */
    public static final int MAX_REPEATED = 64;

    /** Whether hook {@code i} repeated its last args. */
    public boolean repeated(int i) {
      return i < MAX_REPEATED && (repeated >>> i & 1) != 0;
    }
  }

  /** Makes the batch of consecutive hooks that offered this factory. */
  @FunctionalInterface
  interface Factory {
    /** A batch of {@code hooks}, in this order. */
    HookBatch batch(List<Hook> hooks);
  }

  /**
   * A hook whose per-run callbacks a {@link HookBatch} can make together with its neighbours'. Twin
   * of {@code jhooks.tf.hook_batch.Batchable}.
   */
  interface Batchable {
    /**
     * The factory of the batch this hook may join, or {@code null} to be called alone. Consecutive
     * hooks with the same (equal) factory are batched.
     */
    Factory batchFactory();
  }
}
