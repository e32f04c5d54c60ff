package org.jhooks.hooks;

/**
 * The loss watched by {@link NanTensorHook} became NaN. Twin of TensorFlow's {@code
 * NanLossDuringTrainingError} and of {@code jhooks.hooks.NanLossDuringTrainingError}.
 */
public class NanLossDuringTrainingException extends RuntimeException {
  private final long globalStep;

  public NanLossDuringTrainingException(String lossTensor, long globalStep) {
    super("NaN loss during training. (NanTensorHook.afterSessionRun: " + lossTensor + " is NaN at global step "
        + globalStep + ")");
    this.globalStep = globalStep;
  }

  /** The global step read right after the run whose loss was NaN. */
  public long globalStep() {
    return globalStep;
  }
}
