package org.jhooks;

/**
 * The same tensor is fed by two hooks in one run. Raised before anything runs; mirrors TensorFlow's
 * "Same tensor is fed by two hooks" error.
 */
public final class HookFeedConflictException extends HookException {
  private final String tensor;

  public HookFeedConflictException(String tensor, String firstHook, String secondHook) {
    super(secondHook, "beforeSessionRun",
        "same tensor '" + tensor + "' is fed by two hooks: " + firstHook + " and " + secondHook);
    this.tensor = tensor;
  }

  public String tensor() {
    return tensor;
  }
}
