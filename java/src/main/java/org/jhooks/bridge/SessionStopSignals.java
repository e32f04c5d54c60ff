package org.jhooks.bridge;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.function.BooleanSupplier;
import org.jhooks.tf.SessionExit;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT while sessions are open, where Python hosts the JVM (docs/bridge.md,
 * "Signals"). JPype's handlers interrupt the main thread's Java call and raise the signal in
 * Python; the interrupt makes the main thread's next call into Python, or its next wait, throw
 * {@code InterruptedException}, which fails the run in progress, and a failed session runs no
 * hook's {@code end()}. Installed by {@code jhooks.bridge.process.watchdog.arm_watchdog()} in front
 * of JPype's handlers: while a session of either language is driven, it asks the JVM's to stop
 * ({@link SessionExit#requestStop()}) and only raises the signal in Python, whose handler asks
 * Python's sessions to stop and holds the signal until their {@code end()} ran; otherwise JPype's
 * handler runs as before.
 */
public final class SessionStopSignals {
  private SessionStopSignals() {}

  /**
   * Puts the handler in front of the current handlers of the signals asked for; call once.
   *
   * @param term whether to handle SIGTERM
   * @param interrupt whether to handle SIGINT
   * @param pythonDriven whether a Python session with jhooks hooks is driven ({@code
   *     jhooks.api.session_exit.driven}); called on the JVM's signal thread
   */
  public static synchronized void install(
      boolean term, boolean interrupt, BooleanSupplier pythonDriven) {
    Method raise = raiseInPython();
    if (raise == null) {
      return; // not JPype's JVM: nothing to put in front of
    }
    if (term) {
      handle("TERM", raise, pythonDriven);
    }
    if (interrupt) {
      handle("INT", raise, pythonDriven);
    }
  }

  private static void handle(String name, Method raise, BooleanSupplier pythonDriven) {
    SignalHandler[] previous = new SignalHandler[1];
    previous[0] =
        Signal.handle(
            new Signal(name),
            s -> {
              SignalHandler next = previous[0];
              boolean driven = SessionExit.requestStop();
              try {
                driven = pythonDriven.getAsBoolean() || driven;
                if (driven) {
                  raise.invoke(null, s.getNumber());
                  return;
                }
              } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
                System.err.println("jhooks: could not hold signal " + s.getNumber() + ": " + e);
              }
              if (next != null && next != SignalHandler.SIG_IGN && next != SignalHandler.SIG_DFL) {
                next.handle(s);
              }
            });
  }

  /** JPype's {@code JPypeSignal.interruptPy(int)}: the signal raised in Python alone; or null. */
  private static Method raiseInPython() {
    try {
      Method m = Class.forName("org.jpype.JPypeSignal").getDeclaredMethod("interruptPy", int.class);
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
