package org.jhooks;

/**
 * A training hook: five callbacks around a monitored session, all default no-ops.
 *
 * <p>Mirrors TensorFlow's {@code tf.compat.v1.train.SessionRunHook} with camelCase names. The
 * lifecycle, the call order and what each callback sees on a normal end, a stop request, end of
 * input, another error and session recovery are specified in {@code docs/contract.md}; drivers in
 * both languages follow it.
 *
 * <p>Drivers call {@link #beginSession()}; its default calls {@link #begin()} (the seed's name), so
 * a hook may override either one.
 */
public interface Hook {

  /** Called once before the session is created; the graph may still be extended here. */
  default void begin() {}

  /** Called by drivers once before the first session exists. The default calls {@link #begin()}. */
  default void beginSession() {
    begin();
  }

  /**
   * Called after every session creation, including re-creation during recovery.
   *
   * @param session the raw session view; a run through it does not fire hooks
   * @param coord the coordinator of the monitored session; the jhooks drivers never pass null, but
   *     a Python caller may (some TensorFlow code passes none to hooks), and hooks accept it
   */
  default void afterCreateSession(Session session, Coordinator coord) {}

  /**
   * Called before each run of the monitored session, in registration order.
   *
   * @param runContext the caller's original args, the raw session and the stop flag
   * @return what to add to the run (fetches, feeds, options), or {@code null} for nothing
   */
  default SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return null;
  }

  /**
   * Called after each successful run, in registration order (not reversed).
   *
   * @param runValues the results of exactly what {@link #beforeSessionRun} asked for, in the same
   *     structure; {@code null} results when it asked for nothing
   */
  default void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {}

  /**
   * Called once when the monitored session closes normally or on end of input; not called when it
   * closes because of any other error.
   */
  default void end(Session session) {}

  /**
   * Called once when the monitored session fails, before its raw session closes (no-op by default).
   * Every hook that got {@link #afterCreateSession} (in any session of this monitored session, even
   * if its own {@code afterCreateSession} threw) gets it exactly once, in registration order, when
   * a run or a hook callback ({@code afterCreateSession}, {@code beforeSessionRun}, {@code
   * afterSessionRun}, {@code end}) fails with anything but end of input and recovery does not retry
   * it. What this method throws is added to {@code error} as a suppressed exception, and {@code
   * error} still propagates. Twin of Python's {@code Hook.onError}; TensorFlow has no such callback
   * (TF #17951, #36803). A hook that starts a thread in {@code afterCreateSession} can stop it
   * here.
   *
   * @param session the raw session (runs through it fire no hooks), or {@code null} when no session
   *     is open
   * @param error what the monitored session will throw
   */
  default void onError(Session session, Throwable error) {}
}
