package org.jhooks.checkpoint;

import org.jhooks.HookException;

/**
 * A checkpoint save failed: the files, the {@code checkpoint} state file or a rotation could not be
 * written (disk full, a file size limit, an unwritable or vanished directory, ...), or a save left
 * no checkpoint files. Thrown on the training thread (for the asynchronous saver: at the callback
 * after the background write failed); the cause is the original error.
 *
 * <p>Never end of input: TensorFlow reports some write failures (a file size limit) as
 * OUT_OF_RANGE; wrapped in this exception they stop training as an error ({@code docs/contract.md},
 * "End of input"). Twin of {@code jhooks.checkpoint.errors.CheckpointSaveError}.
 */
public class CheckpointSaveException extends HookException {
  private static final long serialVersionUID = 1L;
  private final long globalStep;
  private final String prefix;

  /**
   * @param hook the saver hook's name
   * @param callback the callback that saved (or saw the background failure)
   * @param globalStep the global step the checkpoint is labelled with
   * @param prefix the checkpoint prefix (an absolute path)
   * @param cause the original error
   */
  public CheckpointSaveException(
      String hook, String callback, long globalStep, String prefix, Throwable cause) {
    super(
        hook,
        callback,
        "checkpoint save of global step "
            + globalStep
            + " to "
            + prefix
            + " failed: "
            + (cause == null ? "unknown error" : describe(cause)),
        cause);
    this.globalStep = globalStep;
    this.prefix = prefix;
  }

  /**
   * With the message's problem part given as is (the bridge's twin of a Python {@code
   * CheckpointSaveError} keeps the Python text).
   */
  public CheckpointSaveException(
      String hook,
      String callback,
      long globalStep,
      String prefix,
      String problem,
      Throwable cause) {
    super(hook, callback, problem, cause);
    this.globalStep = globalStep;
    this.prefix = prefix;
  }

  private static String describe(Throwable cause) {
    return cause.getClass().getSimpleName() + ": " + cause.getMessage();
  }

  /** The global step of the failed save. */
  public long globalStep() {
    return globalStep;
  }

  /** The checkpoint prefix of the failed save. */
  public String prefix() {
    return prefix;
  }
}
