package org.jhooks;

/**
 * A hook misbehaved: it returned or passed something invalid, or raised what a driver must not pass
 * on unchanged (an end of input, a {@link Error}). The message names the hook, the callback and the
 * offending value. Twin of Python's {@code jhooks.HookError}; across the bridge each becomes the
 * other, the original kept as the cause.
 */
public class HookException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String hook;
  private final String callback;

  public HookException(String hook, String callback, String problem, Throwable cause) {
    super(hook + "." + callback + ": " + problem, cause);
    this.hook = hook;
    this.callback = callback;
  }

  /**
   * Without a cause; one may be set later with {@code initCause} (the bridge does, for a twin of a
   * Python {@code HookError}).
   */
  public HookException(String hook, String callback, String problem) {
    super(hook + "." + callback + ": " + problem);
    this.hook = hook;
    this.callback = callback;
  }

  /**
   * How the hook is named in messages: its position and class, for example {@code hook #1 (a.B)}.
   */
  public String hook() {
    return hook;
  }

  /** The callback, for example {@code beforeSessionRun}. */
  public String callback() {
    return callback;
  }
}
