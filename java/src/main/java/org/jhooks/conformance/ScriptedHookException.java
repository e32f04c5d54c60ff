package org.jhooks.conformance;

/** The exception a scripted hook throws on request (Python: {@code ScriptedHookError}). */
public final class ScriptedHookException extends RuntimeException {
  public ScriptedHookException(String message, Throwable cause) {
    super(message, cause);
  }
}
