package org.jhooks.bridge;

import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunValues;

/**
 * What the proxy of a Python hook group implements: the per-run callbacks of consecutive Python
 * hooks in one call each ({@link PythonHookGroup}), the twin of what {@link JavaHookGroup} is to
 * Python. The run context is passed as its {@link RunContextIds} id, or not at all when it is the
 * context whose id last crossed on this thread ({@code ...SameContext}), as for {@link
 * PythonHookTarget}.
 */
public interface PythonHookGroupTarget {
  /**
   * Calls {@code beforeSessionRun} on hooks {@code from, from + 1, ...} in the context with this id
   * until one returns new args.
   *
   * @return a {@link PackedRun} result: {@link PackedRun#HAS_ARGS} and the index of the hook with
   *     new args (take them with {@link #takeArgs()}) or the group's size, and which hooks returned
   *     again the one-name args they returned last time
   */
  long beforeSessionRun(long contextId, int from);

  /** {@link #beforeSessionRun(long, int)} in the context whose id last crossed on this thread. */
  long beforeSessionRunSameContext(int from);

  /**
   * {@link #beforeSessionRun(long, int)} from hook 0 in the context whose id is the one that last
   * crossed on this thread plus one (a new run's, the usual case): no argument to convert, and
   * {@code null} when the result is the one the last call of this method returned (or implied).
   *
   * @return {@code null}, or the {@link PackedRun} result as a {@code Long}
   */
  Long beforeSessionRunNext();

  /** The new args of the hook the last {@code beforeSessionRun} stopped at, as Java args. */
  SessionRunArgs takeArgs();

  /**
   * Calls {@code afterSessionRun} on hooks {@code 0 .. values.length - 1}, hook i with values[i].
   */
  void afterSessionRun(long contextId, SessionRunValues[] values);

  /**
   * {@link #afterSessionRun} in the context whose id last crossed on this thread, when every hook's
   * results are none or one small array and there are no options nor metadata: the results packed
   * ({@link PackedRun#values}), so Python reads them without calling back into Java.
   */
  void afterSessionRunPacked(byte[] packedValues);

  /** The index of the hook being called, or of the one that raised. */
  int position();

  /** Forgets the args hooks returned: none counts as repeated in the next call. */
  void forget();
}
