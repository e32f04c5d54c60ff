package org.jhooks;

/**
 * A training hook: five callbacks around a monitored session, all default no-ops.
 *
 * <p>Mirrors TensorFlow's {@code tf.compat.v1.train.SessionRunHook} with camelCase names. The
 * lifecycle, the call order and what each callback sees on a normal end, a stop request, end of
 * input, another error and session recovery are specified in {@code docs/contract.md}; drivers in
 * both languages follow it.
 *
 * <p>Drivers call {@link #beginSession()}; its default calls {@link #begin()} (the seed's name),
 * so a hook may override either one.
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
   * @param coord the coordinator of the monitored session; never null
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
}
