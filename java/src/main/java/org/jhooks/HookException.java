package org.jhooks;

/**
 * A hook misbehaved: it returned or passed something invalid. The message names the hook, the
 * callback and the offending value.
 */
public class HookException extends RuntimeException {
  private final String hook;
  private final String callback;

  public HookException(String hook, String callback, String problem, Throwable cause) {
    super(hook + "." + callback + ": " + problem, cause);
    this.hook = hook;
    this.callback = callback;
  }

  public HookException(String hook, String callback, String problem) {
    this(hook, callback, problem, null);
  }

  /** How the hook is named in messages: its position and class, for example {@code hook #1 (a.B)}. */
  public String hook() {
    return hook;
  }

  /** The callback, for example {@code beforeSessionRun}. */
  public String callback() {
    return callback;
  }
}
