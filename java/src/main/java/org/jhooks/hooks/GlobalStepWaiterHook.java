package org.jhooks.hooks;

import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.Logs;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;

/**
 * Blocks the first {@code beforeSessionRun} until the global step is at least {@code
 * waitUntilStep}. Twin of TensorFlow's {@code tf.compat.v1.train.GlobalStepWaiterHook} (used by
 * non-chief workers so they start once the chief has trained a while) and of {@code
 * jhooks.hooks.GlobalStepWaiterHook}.
 *
 * <p>The global step is re-read with a raw run ({@code Session.globalStep()}) every {@code
 * pollSecs} seconds; INFO {@code "Waiting for global step N before starting training."} once, then
 * {@code "... Current step is S."} whenever the step moved by more than 1000 since the last such
 * line (logger {@code org.jhooks.hooks.GlobalStepWaiterHook}). {@code waitUntilStep <= 0} never
 * waits. Once started it never waits again, also after a recovery (as TF). Deliberate difference:
 * the poll interval is a parameter (TF: fixed 0.5 s). An interrupt while waiting ends the wait with
 * a {@link HookException} (the thread's interrupt flag set again).
 */
public final class GlobalStepWaiterHook implements Hook {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.GlobalStepWaiterHook");

  private final long waitUntilStep;
  private final double pollSecs;
  private boolean started;

  /** Waits for {@code waitUntilStep}, polling every 0.5 s (TF's interval). */
  public GlobalStepWaiterHook(long waitUntilStep) {
    this(waitUntilStep, 0.5);
  }

  /**
   * @param waitUntilStep the global step to wait for
   * @param pollSecs seconds between two reads of the global step
   * @throws IllegalArgumentException {@code pollSecs <= 0}
   */
  public GlobalStepWaiterHook(long waitUntilStep, double pollSecs) {
    if (!(pollSecs > 0)) {
      throw new IllegalArgumentException(
          "GlobalStepWaiterHook: pollSecs must be positive, got " + pollSecs);
    }
    this.waitUntilStep = waitUntilStep;
    this.pollSecs = pollSecs;
  }

  /** The global step this hook waits for. */
  public long waitUntilStep() {
    return waitUntilStep;
  }

  @Override
  public void begin() {
    started = false;
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    if (started) {
      return null;
    }
    if (waitUntilStep <= 0) {
      started = true;
      return null;
    }
    LOG.log(
        System.Logger.Level.INFO,
        () -> "Waiting for global step " + waitUntilStep + " before starting training.");
    long lastLogged = 0;
    while (true) {
      long step = runContext.session().globalStep();
      if (step >= waitUntilStep) {
        started = true;
        return null;
      }
      if (step - lastLogged > 1000) {
        LOG.log(
            System.Logger.Level.INFO,
            () ->
                "Waiting for global step "
                    + waitUntilStep
                    + " before starting training. Current step is "
                    + step
                    + ".");
        lastLogged = step;
      }
      try {
        Thread.sleep((long) Math.ceil(pollSecs * 1000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new HookException(
            "GlobalStepWaiterHook",
            "beforeSessionRun",
            "interrupted while waiting for global step "
                + waitUntilStep
                + " (current step "
                + step
                + ")",
            e);
      }
    }
  }
}
