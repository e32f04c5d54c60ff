package org.jhooks.bridge;

import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * How {@code jhooks.bridge.JavaHook} calls a Java hook's per-run callbacks from Python: one call
 * that runs the callback and returns the stop state Python must mirror, instead of a call for the
 * callback and more for each flag. Used from one thread per hook (a session's); the args a {@code
 * beforeSessionRun} returned are kept per thread until {@link #takeArgs()}.
 *
 * <p>{@link #overrides} tells which callbacks a hook's class overrides; Python skips the crossing
 * for a per-run callback that is the {@link Hook} default no-op. See docs/bridge.md, "Crossing
 * costs".
 */
public final class JavaHookCalls {
  /** The shared run context's stop flag is set. */
  public static final int CONTEXT_STOP = 1;

  /** The hook's coordinator's stop flag is set. */
  public static final int COORDINATOR_STOP = 2;

  /** {@code beforeSessionRun} returned args; get them with {@link #takeArgs()}. */
  public static final int HAS_ARGS = 4;

  /**
   * With {@link #HAS_ARGS}: the args are one fetch name without feeds or options, the same as the
   * args this hook returned last time, and are not kept for {@link #takeArgs()}: Python reuses the
   * ones it translated then.
   */
  public static final int REPEATED = 8;

  private final Hook hook;
  private final ThreadLocal<SessionRunArgs> args = new ThreadLocal<>();
  private String lastFetch; // the one fetch name of the args last returned, or null
  private volatile Coordinator coordinator;
  private long crossings; // read by tests only; one session thread writes it

  public JavaHookCalls(Hook hook) {
    this.hook = hook;
  }

  /** The hook these calls run. */
  Hook hook() {
    return hook;
  }

  /**
   * How many per-run calls ({@code beforeSessionRun}, {@code afterSessionRun}, {@code flags})
   * crossed.
   */
  public long crossings() {
    return crossings;
  }

  /** The coordinator whose flag {@link #COORDINATOR_STOP} reports (the one the hook was given). */
  public void setCoordinator(Coordinator coordinator) {
    this.coordinator = coordinator;
  }

  /** Asks the hook's coordinator to stop (the Python one it mirrors should stop); none: nothing. */
  void requestCoordinatorStop() {
    Coordinator c = coordinator;
    if (c != null) {
      c.requestStop();
    }
  }

  /** Calls {@code hook.beforeSessionRun(context)}; returns the flags above. */
  public int beforeSessionRun(SessionRunContext context) {
    crossings++;
    SessionRunArgs a = hook.beforeSessionRun(context);
    if (a == null) {
      return stopFlags(context);
    }
    String one =
        a.fetches() instanceof String && a.feeds().isEmpty() && a.options() == null
            ? (String) a.fetches()
            : null;
    if (one != null && one.equals(lastFetch)) {
      return stopFlags(context) | HAS_ARGS | REPEATED;
    }
    lastFetch = one;
    args.set(a);
    return stopFlags(context) | HAS_ARGS;
  }

  /** The args the last {@code beforeSessionRun} on this thread returned; cleared. */
  public SessionRunArgs takeArgs() {
    SessionRunArgs a = args.get();
    args.remove();
    return a;
  }

  /** Calls {@code hook.afterSessionRun(context, values)}; returns the flags above. */
  public int afterSessionRun(SessionRunContext context, SessionRunValues values) {
    crossings++;
    hook.afterSessionRun(context, values);
    return stopFlags(context);
  }

  /** The stop flags without calling the hook ({@code context} may be null). */
  public int flags(SessionRunContext context) {
    crossings++;
    return stopFlags(context);
  }

  /** {@link #flags} for {@link JavaHookGroup}: not a crossing. */
  int stopFlags(SessionRunContext context) {
    Coordinator c = coordinator;
    return (context != null && context.stopRequested() ? CONTEXT_STOP : 0)
        | (c != null && c.shouldStop() ? COORDINATOR_STOP : 0);
  }

  /**
   * The Java view {@code python} of a Python session whose graph is finalized, answering {@link
   * Session#globalStepTensorName()} with {@code globalStepTensorName} without crossing into Python;
   * every other call goes to {@code python}. Python makes it once per session view ({@code
   * jhooks.bridge.hooks.sessions.java_session}).
   */
  public static Session withGlobalStepTensorName(Session python, String globalStepTensorName) {
    return new FixedStepNameSession(python, globalStepTensorName);
  }

  /**
   * Whether {@code hook}'s class overrides {@code callback} ({@code "beforeSessionRun"} or {@code
   * "afterSessionRun"}) rather than inheriting {@link Hook}'s default no-op.
   *
   * @throws IllegalArgumentException another callback name
   */
  public static boolean overrides(Hook hook, String callback) {
    Class<?>[] params;
    switch (callback) {
      case "beforeSessionRun":
        params = new Class<?>[] {SessionRunContext.class};
        break;
      case "afterSessionRun":
        params = new Class<?>[] {SessionRunContext.class, SessionRunValues.class};
        break;
      default:
        throw new IllegalArgumentException(
            "only beforeSessionRun and afterSessionRun are checked, not " + callback);
    }
    try {
      return hook.getClass().getMethod(callback, params).getDeclaringClass() != Hook.class;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("org.jhooks.Hook has no " + callback, e);
    }
  }
}
