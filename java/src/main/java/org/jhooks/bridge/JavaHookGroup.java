package org.jhooks.bridge;

import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * The per-run callbacks of consecutive Java hooks in a Python-driven session, one call from Python
 * for the whole group instead of one per hook ({@code jhooks.bridge.hooks.java_hooks},
 * docs/bridge.md "Crossing costs").
 *
 * <p>The hooks are called in order, exactly as separate {@link JavaHookCalls} calls would call
 * them: a hook that does not override a callback is skipped; an exception stops the loop at that
 * hook and propagates unchanged ({@link #position()} then tells which hook threw). {@code
 * beforeSessionRun} returns after the first hook that returned new args, so Python checks and
 * resolves them before the next hook is called (a bad name or a feed conflict then stops the loop
 * where it would have stopped without grouping); Python calls again from the next hook. A hook that
 * returns again the one fetch name (no feeds, no options) it returned last time does not stop the
 * loop: Python uses the args it accepted then.
 *
 * <p>The group makes the run's {@link SessionRunContext} at the run's first call (or is given the
 * one another Java hook of the run made), and every call returns a {@link PackedRun} result. Used
 * from one thread (a session's).
 */
public final class JavaHookGroup {
  private final JavaHookCalls[] calls;
  private final boolean[] before;
  private final boolean[] after;
  private final ThreadLocal<SessionRunArgs> args = new ThreadLocal<>();
  private final String[] lastFetch; // the one fetch name of the args last returned, or null
  private int position = -1;
  private long crossings;
  private SessionRunContext context; // the current run's, made or given at its first call

  /** A group of the hooks of {@code calls}, in this order. */
  public JavaHookGroup(JavaHookCalls[] calls) {
    this.calls = calls.clone();
    before = new boolean[calls.length];
    after = new boolean[calls.length];
    lastFetch = new String[calls.length];
    for (int i = 0; i < calls.length; i++) {
      before[i] = JavaHookCalls.overrides(calls[i].hook(), "beforeSessionRun");
      after[i] = JavaHookCalls.overrides(calls[i].hook(), "afterSessionRun");
    }
  }

  /**
   * Starts a run ({@code from} 0: a new {@link SessionRunContext} over {@code originalArgs} and
   * {@code session}, which every hook of the group gets until the next run starts) or goes on with
   * it ({@code originalArgs} null), then calls {@code beforeSessionRun} on hooks {@code from, from
   * + 1, ...} until one returns new args or the group ends. Args that repeat the one fetch name (no
   * feeds, no options) the hook returned last time are not new (see the class doc); Python calls
   * {@link #forget()} when its check of returned args fails or the graph changes.
   *
   * @param coordinatorStop the Python coordinator should stop: every hook's Java coordinator is
   *     asked to stop first
   * @return a {@link PackedRun} result: the stop flags of the hooks called, {@link
   *     PackedRun#HAS_ARGS} and the index of the hook with new args (take them with {@link
   *     #takeArgs()}) or the group's size, and the hooks that repeated their one-name args
   */
  public long beforeSessionRun(
      SessionRunArgs originalArgs, Session session, int from, boolean coordinatorStop) {
    crossings++;
    if (originalArgs != null) {
      context = new SessionRunContext(originalArgs, session);
    }
    return before(from, coordinatorStop);
  }

  /**
   * {@link #beforeSessionRun(SessionRunArgs, Session, int, boolean)} in a run whose Java context
   * another Java hook of the run made first ({@code context}): the run's Java hooks share one.
   */
  public long beforeSessionRunIn(SessionRunContext context, int from, boolean coordinatorStop) {
    crossings++;
    this.context = context;
    return before(from, coordinatorStop);
  }

  /** The Java context of the current run (made by its first call), or {@code null}. */
  public SessionRunContext context() {
    return context;
  }

  private long before(int from, boolean coordinatorStop) {
    if (coordinatorStop) {
      requestCoordinatorStops();
    }
    long flags = 0;
    long mask = 0;
    for (int i = from; i < calls.length; i++) {
      position = i;
      JavaHookCalls c = calls[i];
      if (!before[i]) {
        flags |= c.stopFlags(null);
        continue;
      }
      SessionRunArgs a = c.hook().beforeSessionRun(context);
      flags |= c.stopFlags(context);
      if (a != null) {
        String one =
            a.fetches() instanceof String && a.feeds().isEmpty() && a.options() == null
                ? (String) a.fetches()
                : null;
        if (one != null && i < PackedRun.MAX_REPEATED && one.equals(lastFetch[i])) {
          mask |= 1L << i;
          continue;
        }
        lastFetch[i] = i < PackedRun.MAX_REPEATED ? one : null;
        args.set(a);
        return PackedRun.of(flags | PackedRun.HAS_ARGS, i, mask);
      }
    }
    return PackedRun.of(flags, calls.length, mask);
  }

  /**
   * Calls {@code afterSessionRun} on hooks {@code 0 .. to - 1} in the current run's context; hook
   * {@code i} gets the values of {@code valueOf[i]}: {@code -1} no results, else the index of its
   * one result in {@code packedValues} ({@link PackedRun} values; may be null when there are none),
   * with {@code options} (the run's, or null) and no metadata. Hooks given the same result share
   * one {@link SessionRunValues}.
   *
   * @return a {@link PackedRun} result: the stop flags of the hooks called
   */
  public long afterSessionRunPacked(
      byte[] packedValues,
      int[] valueOf,
      org.jhooks.RunOptions options,
      int to,
      boolean coordinatorStop) {
    int count = 0;
    for (int i = 0; i < to; i++) {
      count = Math.max(count, valueOf[i] + 1);
    }
    NdArray<?>[] arrays = count == 0 ? new NdArray<?>[0] : PackedRun.arrays(packedValues, count);
    SessionRunValues[] shared = new SessionRunValues[count + 1];
    SessionRunValues[] each = new SessionRunValues[to];
    for (int i = 0; i < to; i++) {
      int v = valueOf[i] + 1;
      if (shared[v] == null) {
        shared[v] = new SessionRunValues(v == 0 ? null : arrays[v - 1], options, null);
      }
      each[i] = shared[v];
    }
    return afterSessionRun(each, to, coordinatorStop);
  }

  /**
   * Calls {@code afterSessionRun(context, each[i])} on hooks {@code 0 .. to - 1} in the current
   * run's context.
   *
   * @return a {@link PackedRun} result: the stop flags of the hooks called
   */
  public long afterSessionRun(SessionRunValues[] each, int to, boolean coordinatorStop) {
    crossings++;
    if (coordinatorStop) {
      requestCoordinatorStops();
    }
    return after(each, to);
  }

  private void requestCoordinatorStops() {
    for (JavaHookCalls c : calls) {
      c.requestCoordinatorStop();
    }
  }

  /** Forgets the args hooks returned: the next {@code beforeSessionRun} returns all anew. */
  public void forget() {
    java.util.Arrays.fill(lastFetch, null);
  }

  /** The args the last {@code beforeSessionRun} on this thread stopped at; cleared. */
  public SessionRunArgs takeArgs() {
    SessionRunArgs a = args.get();
    args.remove();
    return a;
  }

  private long after(SessionRunValues[] each, int to) {
    long flags = 0;
    for (int i = 0; i < to; i++) {
      position = i;
      JavaHookCalls c = calls[i];
      if (!after[i]) {
        flags |= c.stopFlags(null);
        continue;
      }
      c.hook().afterSessionRun(context, each[i]);
      flags |= c.stopFlags(context);
    }
    return flags;
  }

  /**
   * The index of the hook the last per-run call reached (the one that threw, after an exception).
   */
  public int position() {
    return position;
  }

  /** How many per-run calls crossed into this group (for tests). */
  public long crossings() {
    return crossings;
  }
}
