package org.jhooks.tf;

/**
 * Fires every N global steps or every N seconds, never twice for the same step; TensorFlow's
 * {@code SecondOrStepTimer}. Exactly one of steps/secs is positive.
 */
final class SaveTimer {
  private final int everySteps;
  private final double everySecs;
  private Long lastStep;
  private long lastNanos;

  SaveTimer(int everySteps, double everySecs) {
    if ((everySteps > 0) == (everySecs > 0)) {
      throw new IllegalArgumentException(
          "exactly one of every-steps (" + everySteps + ") and every-secs (" + everySecs + ") must be positive");
    }
    this.everySteps = everySteps;
    this.everySecs = everySecs;
  }

  boolean shouldTrigger(long step) {
    if (lastStep == null) {
      return true;
    }
    if (step == lastStep) {
      return false;
    }
    if (everySecs > 0) {
      return (System.nanoTime() - lastNanos) / 1e9 >= everySecs;
    }
    return step >= lastStep + everySteps;
  }

  void update(long step) {
    lastStep = step;
    lastNanos = System.nanoTime();
  }

  Long lastStep() {
    return lastStep;
  }

  int everySteps() {
    return everySteps;
  }
}
