package org.jhooks.bridgetest;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/** Java code that calls Python proxies and records what came back or was thrown. */
public final class CallingBack {
  private CallingBack() {}

  /** Calls hook.afterSessionRun and returns the exception it threw (or null). */
  public static Throwable afterSessionRunThrown(Hook hook) {
    try {
      hook.afterSessionRun(
          new SessionRunContext(SessionRunArgs.of(null), null),
          new SessionRunValues(null, null, null));
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  /** Throws {@code t} (a RuntimeException) back to the caller. */
  public static void rethrow(RuntimeException t) {
    throw t;
  }

  /** The classes and messages along a cause chain, "class: message" each. */
  public static List<String> causeChain(Throwable t) {
    List<String> out = new ArrayList<>();
    for (Throwable c = t; c != null; c = c.getCause()) {
      out.add(c.getClass().getName() + ": " + c.getMessage());
    }
    return out;
  }

  /**
   * Runs fetches on a session from Java; returns the result as RecordingHook.describe prints it.
   */
  public static String runAndDescribe(Session session, Object fetches) {
    return RecordingHook.describe(session.run(fetches));
  }
}
