package org.jhooks.bridge;

import java.util.function.IntConsumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The last resort of a signalled exit in a process that runs Python and Java together (docs/
 * bridge.md, "Threads"): after SIGTERM or SIGINT the process ends within a bound even when no
 * thread returns to Python to act on the signal (a JVM main loop that never calls Python on the
 * main thread). Installed by {@code jhooks.bridge.process.jvm.start()} in front of JPype's
 * handlers, which still run (they interrupt the main thread and raise the signal in Python, whose
 * jhooks handler ends the program with 143 / 130). If the process is still alive {@code
 * graceMillis} after the first signal, the watchdog flushes Java's standard streams and halts it
 * with {@code 128 + signal} ({@link Runtime#halt}: no shutdown hooks, no native destructors racing
 * running threads, so no crash; a checkpoint save in flight leaves no state-file entry, the state
 * file being replaced atomically).
 */
public final class ExitWatchdog {
  private ExitWatchdog() {}

  private static Thread watchdog;

  /**
   * Puts the watchdog in front of the current handlers of the signals asked for; call once.
   *
   * @param graceMillis how long after the first signal the process may take to end by itself
   * @param term whether to watch SIGTERM
   * @param interrupt whether to watch SIGINT
   * @param onFirstSignal told the signal number at the first signal, on a thread of its own (the
   *     Python side starts its watchdog there)
   */
  public static synchronized void install(
      long graceMillis, boolean term, boolean interrupt, IntConsumer onFirstSignal) {
    ExitWatchdog.onFirstSignal = onFirstSignal;
    if (term) {
      watch("TERM", graceMillis);
    }
    if (interrupt) {
      watch("INT", graceMillis);
    }
  }

  private static IntConsumer onFirstSignal;

  private static void watch(String name, long graceMillis) {
    Signal signal = new Signal(name);
    SignalHandler[] previous = new SignalHandler[1];
    previous[0] =
        Signal.handle(
            signal,
            s -> {
              start(graceMillis, 128 + s.getNumber());
              SignalHandler next = previous[0];
              if (next != null && next != SignalHandler.SIG_DFL && next != SignalHandler.SIG_IGN) {
                next.handle(s);
              } else if (next == SignalHandler.SIG_DFL) {
                System.exit(128 + s.getNumber());
              }
            });
  }

  private static synchronized void start(long graceMillis, int status) {
    if (watchdog != null) {
      return;
    }
    IntConsumer told = onFirstSignal;
    if (told != null) {
      Thread tell = new Thread(() -> told.accept(status - 128), "jhooks-signal");
      tell.setDaemon(true);
      tell.start();
    }
    watchdog =
        new Thread(
            () -> {
              try {
                Thread.sleep(graceMillis);
              } catch (InterruptedException e) {
                return;
              }
              System.err.println(
                  "jhooks: the process did not end within "
                      + graceMillis
                      + " ms of the signal; halting it with status "
                      + status);
              System.out.flush();
              System.err.flush();
              Runtime.getRuntime().halt(status);
            },
            "jhooks-exit-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }
}
