package org.jhooks.tf;

import org.jhooks.SessionRunArgs;

/**
 * What a step function passed to {@link MonitoredSession#runStepFn} sees; twin of TensorFlow's
 * {@code MonitoredSession.StepContext}.
 */
public final class StepContext {
  private final MonitoredSession monitored;

  StepContext(MonitoredSession monitored) {
    this.monitored = monitored;
  }

  /** The raw session view: its runs fire no hooks. */
  public TfSession session() {
    return monitored.session();
  }

  /**
   * One hooked run, as {@link MonitoredSession#run}, but errors (end of input, recoverable ones)
   * leave this method and are handled around the whole step function.
   */
  public Object runWithHooks(SessionRunArgs args) {
    return monitored.runHooked(args);
  }

  /** Asks the monitored session to stop after this step. */
  public void requestStop() {
    monitored.requestStop();
  }
}
