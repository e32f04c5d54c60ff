package org.jhooks;

/**
 * The same tensor is fed by a hook and by the caller of the run. Raised before anything runs;
 * mirrors TensorFlow's "Same tensor is fed by a SessionRunHook and user" error.
 */
public final class CallerFeedConflictException extends HookException {
  private static final long serialVersionUID = 1L;

  private final String tensor;

  public CallerFeedConflictException(String tensor, String hook) {
    super(
        hook,
        "beforeSessionRun",
        "same tensor '" + tensor + "' is fed by " + hook + " and by the caller");
    this.tensor = tensor;
  }

  public String tensor() {
    return tensor;
  }
}
