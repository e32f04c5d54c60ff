package org.jhooks.hooks;

import org.jhooks.Logs;
import org.jhooks.Session;

/**
 * Warns (WARNING, logger {@code org.jhooks.hooks.GlobalStepWatch}, the text of TF's {@code
 * StepCounterHook}, the first 5 times per hook) when a hook whose schedule depends on the global
 * step sees it not advance between two runs. Twin of {@code jhooks.hooks.GlobalStepWatch}.
 *
 * <p>Every hook with a global-step schedule (step counter, summary saver, checkpoint savers, stop
 * at step, profiler, early stopping) calls {@link #observe} after each run with the step it
 * fetched. The fetched value may be read before or after the run's increment, so a value not above
 * the last fetched one is confirmed with a raw read before warning; a step that went back (a
 * restore or a re-initialization after recovery) restarts the watch. Fetched values are compared
 * with fetched values: once one fetch saw the increment and the next did not, a raw read confirms
 * the advance once, not on every later run. TF warns only from {@code StepCounterHook} ({@code
 * log_first_n} per process); jhooks from each hook. Not thread-safe.
 */
public final class GlobalStepWatch {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.GlobalStepWatch");
  static final int MAX_WARNINGS = 5;

  private boolean observed;
  private long last; // the latest step known at the previous observe (fetched or read)
  private long lastFetched;
  private int warnings;

  /** How many warnings this watch logged. */
  public int warnings() {
    return warnings;
  }

  /**
   * @param session the raw session, for the confirming read
   * @param fetchedStep the global step fetched with the run
   */
  public void observe(Session session, long fetchedStep) {
    long previousFetch = lastFetched;
    lastFetched = fetchedStep;
    if (!observed || fetchedStep > previousFetch) {
      observed = true;
      last = fetchedStep;
      return;
    }
    long step = session.globalStep();
    if (step != last) {
      last = step;
      return;
    }
    if (warnings < MAX_WARNINGS) {
      warnings++;
      LOG.log(
          System.Logger.Level.WARNING,
          "It seems that global step (tf.train.get_global_step) has not been increased. Current"
              + " value (could be stable): "
              + step
              + " vs previous value: "
              + last
              + ". You could increase the global step by passing tf.train.get_global_step() to"
              + " Optimizer.apply_gradients or Optimizer.minimize.");
    }
  }
}
