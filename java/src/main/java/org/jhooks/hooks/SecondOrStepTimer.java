package org.jhooks.hooks;

import java.util.OptionalLong;
import org.jhooks.Session;

/**
 * Decides when an every-N-steps or every-N-seconds action fires. Twin of TensorFlow's {@code
 * SecondOrStepTimer} (and of {@code jhooks.hooks.SecondOrStepTimer}): it fires for the first step
 * it is asked about, never twice for the same step, then when {@code everySteps} steps or {@code
 * everySecs} seconds have passed since the last trigger. Not thread-safe.
 */
public final class SecondOrStepTimer {
  private final Double everySecs;
  private final Long everySteps;
  private Long lastStep;
  private long lastNanos;

  /**
   * @param everySecs seconds between triggers, or {@code null}
   * @param everySteps global steps between triggers, or {@code null}
   * @throws IllegalArgumentException both or neither are given (TF's messages)
   */
  public SecondOrStepTimer(Double everySecs, Long everySteps) {
    if (everySecs == null && everySteps == null) {
      throw new IllegalArgumentException("Either every_secs or every_steps should be provided.");
    }
    if (everySecs != null && everySteps != null) {
      throw new IllegalArgumentException("Can not provide both every_secs and every_steps.");
    }
    this.everySecs = everySecs;
    this.everySteps = everySteps;
  }

  /** Whether the action should fire for global step {@code step}. */
  public boolean shouldTriggerForStep(long step) {
    if (lastStep == null) {
      return true;
    }
    if (step == lastStep) {
      return false;
    }
    if (everySecs != null) {
      return (System.nanoTime() - lastNanos) / 1e9 >= everySecs;
    }
    return step >= lastStep + everySteps;
  }

  /**
   * The global step to act on after a run, or empty. TF's pattern: the step fetched with the train
   * op is only a hint (it may be read before or after the increment); when the hint says the timer
   * may fire, the step is re-read with a raw run and returned if the timer fires for it.
   */
  public OptionalLong dueStep(Session session, long fetchedStep) {
    if (!shouldTriggerForStep(fetchedStep + 1)) {
      return OptionalLong.empty();
    }
    long step = session.globalStep();
    return shouldTriggerForStep(step) ? OptionalLong.of(step) : OptionalLong.empty();
  }

  /**
   * Records a trigger at {@code step}.
   *
   * @return seconds and steps since the previous trigger, or {@code null} for the first one
   */
  public double[] updateLastTriggeredStep(long step) {
    long now = System.nanoTime();
    double[] elapsed =
        lastStep == null ? null : new double[] {(now - lastNanos) / 1e9, step - lastStep};
    lastStep = step;
    lastNanos = now;
    return elapsed;
  }

  /** The step of the last trigger, or {@code null} before the first. */
  public Long lastTriggeredStep() {
    return lastStep;
  }

  /** Forgets every trigger, as TF's {@code reset()}. */
  public void reset() {
    lastStep = null;
  }
}
