package org.jhooks.bridge;

import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * The per-run callbacks of consecutive Java hooks in a Python-driven session, one call from Python
 * for the whole group instead of one per hook ({@code jhooks.tf.adapter}, docs/bridge.md "Crossing
 * costs").
 *
 * <p>The hooks are called in order, exactly as separate {@link JavaHookCalls} calls would call
 * them: a hook that does not override a callback is skipped; an exception stops the loop at that
 * hook and propagates unchanged ({@link #position()} then tells which hook threw). {@link
 * #beforeSessionRun} also returns after the first hook that returned args, so Python checks and
 * resolves them before the next hook is called (a bad name or a feed conflict then stops the loop
 * where it would have stopped without grouping); Python calls again from the next hook.
 *
 * <p>Results pack the {@link JavaHookCalls} stop flags of every hook called (OR-ed) in the low
 * {@link #INDEX_SHIFT} bits and, from {@code beforeSessionRun}, the index of the hook that returned
 * args (or the group's size when none did) above them. Used from one thread (a session's).
 */
public final class JavaHookGroup {
  /** Bits below this hold the flags; the hook index is shifted by it. */
  public static final int INDEX_SHIFT = 3;

  private final JavaHookCalls[] calls;
  private final boolean[] before;
  private final boolean[] after;
  private final ThreadLocal<SessionRunArgs> args = new ThreadLocal<>();
  private int position = -1;
  private long crossings;

  /** A group of the hooks of {@code calls}, in this order. */
  public JavaHookGroup(JavaHookCalls[] calls) {
    this.calls = calls.clone();
    before = new boolean[calls.length];
    after = new boolean[calls.length];
    for (int i = 0; i < calls.length; i++) {
      before[i] = JavaHookCalls.overrides(calls[i].hook(), "beforeSessionRun");
      after[i] = JavaHookCalls.overrides(calls[i].hook(), "afterSessionRun");
    }
  }

  /**
   * Calls {@code beforeSessionRun(context)} on hooks {@code from, from + 1, ...} until one returns
   * args (take them with {@link #takeArgs()}) or the group ends. {@code context} may be null when
   * none of these hooks overrides {@code beforeSessionRun}.
   *
   * @return OR of the hooks' stop flags, plus {@link JavaHookCalls#HAS_ARGS} and the index of the
   *     hook with args shifted by {@link #INDEX_SHIFT}, or the group's size shifted when none
   */
  public int beforeSessionRun(SessionRunContext context, int from) {
    crossings++;
    int flags = 0;
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
        args.set(a);
        return flags | JavaHookCalls.HAS_ARGS | (i << INDEX_SHIFT);
      }
    }
    return flags | (calls.length << INDEX_SHIFT);
  }

  /** The args the last {@code beforeSessionRun} on this thread stopped at; cleared. */
  public SessionRunArgs takeArgs() {
    SessionRunArgs a = args.get();
    args.remove();
    return a;
  }

  /**
   * Calls {@code afterSessionRun(context, values)} on hooks {@code 0 .. to - 1}; every hook gets
   * {@code shared}. {@code context} may be null when none of them overrides {@code
   * afterSessionRun}.
   *
   * @return OR of the hooks' stop flags
   */
  public int afterSessionRunShared(SessionRunContext context, SessionRunValues shared, int to) {
    crossings++;
    return after(context, shared, null, to);
  }

  /** {@link #afterSessionRunShared} where hook {@code i} gets {@code each[i]}. */
  public int afterSessionRunEach(SessionRunContext context, SessionRunValues[] each, int to) {
    crossings++;
    return after(context, null, each, to);
  }

  private int after(
      SessionRunContext context, SessionRunValues shared, SessionRunValues[] each, int to) {
    int flags = 0;
    for (int i = 0; i < to; i++) {
      position = i;
      JavaHookCalls c = calls[i];
      if (!after[i]) {
        flags |= c.stopFlags(null);
        continue;
      }
      c.hook().afterSessionRun(context, each == null ? shared : each[i]);
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

  /** Whether hook {@code i} overrides {@code beforeSessionRun}. */
  public boolean callsBefore(int i) {
    return before[i];
  }

  /** Whether hook {@code i} overrides {@code afterSessionRun}. */
  public boolean callsAfter(int i) {
    return after[i];
  }

  /** How many per-run calls crossed into this group (for tests). */
  public long crossings() {
    return crossings;
  }
}
