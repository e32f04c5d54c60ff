package org.jhooks.tf;

import java.util.logging.Logger;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * A minimal step counter, the built-in of {@link MonitoredTrainingSession}: every {@code
 * everySteps} global steps logs {@code global_step/sec} with {@code java.util.logging} (INFO), as
 * TensorFlow's {@code StepCounterHook} logs it.
 */
public final class BasicStepCounter implements Hook {
  private static final Logger LOG = Logger.getLogger(BasicStepCounter.class.getName());

  private final int everySteps;
  private Long lastStep;
  private long lastNanos;
  private double lastStepsPerSec = Double.NaN;

  public BasicStepCounter(int everySteps) {
    if (everySteps <= 0) {
      throw new IllegalArgumentException("everySteps must be positive, got " + everySteps);
    }
    this.everySteps = everySteps;
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return SessionRunArgs.of(runContext.session().globalStepTensorName());
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    long step = ((Number) ((NdArray<?>) runValues.results()).getObject()).longValue();
    long now = System.nanoTime();
    if (lastStep == null) {
      lastStep = step;
      lastNanos = now;
    } else if (step >= lastStep + everySteps) {
      lastStepsPerSec = (step - lastStep) / Math.max((now - lastNanos) / 1e9, 1e-9);
      LOG.info(String.format("global_step/sec: %.4g (global step %d)", lastStepsPerSec, step));
      lastStep = step;
      lastNanos = now;
    }
  }

  /** The last logged rate, or NaN before the first. */
  public double lastStepsPerSec() {
    return lastStepsPerSec;
  }
}
