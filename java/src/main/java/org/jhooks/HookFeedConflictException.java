package org.jhooks;

/**
 * The same tensor is fed by two hooks in one run. Raised before anything runs; mirrors TensorFlow's
 * "Same tensor is fed by two hooks" error.
 */
public final class HookFeedConflictException extends HookException {
  private static final long serialVersionUID = 1L;

  private final String tensor;
  private final String firstHook;

  public HookFeedConflictException(String tensor, String firstHook, String secondHook) {
    super(
        secondHook,
        "beforeSessionRun",
        "same tensor '" + tensor + "' is fed by two hooks: " + firstHook + " and " + secondHook);
    this.tensor = tensor;
    this.firstHook = firstHook;
  }

  public String tensor() {
    return tensor;
  }

  /** The hook that fed {@link #tensor()} first; {@link #hook()} is the second. */
  public String firstHook() {
    return firstHook;
  }
}
