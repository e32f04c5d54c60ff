package org.jhooks.conformance;

/** The exception a scripted hook throws on request (Python: {@code ScriptedHookError}). */
public final class ScriptedHookException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ScriptedHookException(String message, Throwable cause) {
    super(message, cause);
  }
}
