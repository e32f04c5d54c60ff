package org.jhooks.bridgetest;

import org.jhooks.Hook;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * Throws IllegalStateException("hook failed: ...") caused by ArithmeticException from
 * afterSessionRun.
 */
public class FailingHook implements Hook {
  private final String message;

  public FailingHook(String message) {
    this.message = message;
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    try {
      divide(1, 0);
    } catch (ArithmeticException e) {
      throw new IllegalStateException("hook failed: " + message, e);
    }
  }

  static int divide(int a, int b) {
    return a / b;
  }
}
