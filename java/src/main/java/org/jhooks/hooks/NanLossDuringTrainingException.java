package org.jhooks.hooks;

/**
 * The loss watched by {@link NanTensorHook} became NaN. Twin of TensorFlow's {@code
 * NanLossDuringTrainingError} and of {@code jhooks.hooks.NanLossDuringTrainingError}.
 */
public class NanLossDuringTrainingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long globalStep;

  public NanLossDuringTrainingException(String lossTensor, long globalStep) {
    super(
        "NaN loss during training. (NanTensorHook.afterSessionRun: "
            + lossTensor
            + " is NaN at global step "
            + globalStep
            + ")");
    this.globalStep = globalStep;
  }

  /**
   * With a message of its own and no known global step ({@link #globalStep()} is -1): the bridge's
   * twin of a Python {@code NanLossDuringTrainingError}, whose cause it gets.
   */
  public NanLossDuringTrainingException(String message) {
    super(message);
    this.globalStep = -1;
  }

  /** The global step read right after the run whose loss was NaN; -1 when unknown. */
  public long globalStep() {
    return globalStep;
  }
}
