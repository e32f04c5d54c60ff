package org.jhooks.hooks;

import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * Requests a stop once the global step reaches a last step. Twin of TensorFlow's {@code
 * tf.compat.v1.train.StopAtStepHook} and of {@code jhooks.hooks.StopAtStepHook}.
 *
 * <p>With {@code numSteps} the last step is the global step at the first session creation plus
 * {@code numSteps} (computed once, so a recovered session does not extend training). Each run
 * fetches the global step; when {@code fetched + 1 >= lastStep} the step is re-read with a raw run
 * and the stop is requested if it has reached {@code lastStep}.
 *
 * <p>Deliberate difference: a session created (restored from a checkpoint, or re-created by
 * recovery) at or past the last step requests a stop through the coordinator in {@code
 * afterCreateSession}, so it trains no further step (TF's hook runs one more; with a {@code null}
 * coordinator this hook behaves as TF's).
 */
public final class StopAtStepHook implements Hook {
  private final Long numSteps;
  private Long lastStep;

  /**
   * @param numSteps steps to run from the first session creation, or {@code null}
   * @param lastStep the global step to stop at, or {@code null}
   * @throws IllegalArgumentException both or neither given, (TF's messages), or {@code numSteps <=
   *     0} ("Number of steps must be positive."; TF does not check)
   */
  public StopAtStepHook(Long numSteps, Long lastStep) {
    if (numSteps != null && lastStep != null) {
      throw new IllegalArgumentException("Only one of num_steps or last_step can be specified.");
    }
    if (numSteps == null && lastStep == null) {
      throw new IllegalArgumentException("One of num_steps or last_step must be specified.");
    }
    if (numSteps != null && numSteps <= 0) {
      throw new IllegalArgumentException("Number of steps must be positive.");
    }
    this.numSteps = numSteps;
    this.lastStep = lastStep;
  }

  /** Stop after {@code numSteps} more steps. */
  public static StopAtStepHook ofNumSteps(long numSteps) {
    return new StopAtStepHook(numSteps, null);
  }

  /** Stop at global step {@code lastStep}. */
  public static StopAtStepHook ofLastStep(long lastStep) {
    return new StopAtStepHook(null, lastStep);
  }

  /** The global step to stop at; {@code null} before the first session when built from numSteps. */
  public Long lastStep() {
    return lastStep;
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    long step = session.globalStep();
    if (lastStep == null) {
      lastStep = step + numSteps;
    } else if (step >= lastStep && coord != null) {
      // A finished run stays finished: TF's hook only checks after a run, so a session restored
      // at or past the last step would train one more step.
      coord.requestStop();
    }
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return SessionRunArgs.of(runContext.session().globalStepTensorName());
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    long fetched = ((Number) ((NdArray<?>) runValues.results()).getObject()).longValue();
    long next = fetched + 1;
    if (next >= lastStep) {
      // The fetched value may be stale (read before the train op ran); the raw read is exact.
      if (runContext.session().globalStep() >= lastStep) {
        runContext.requestStop();
      }
    }
  }
}
