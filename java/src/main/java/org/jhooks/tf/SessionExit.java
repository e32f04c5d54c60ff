package org.jhooks.tf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jhooks.Logs;

/**
 * The JVM's exit while {@link MonitoredSession}s are open: SIGTERM (status 143), SIGINT (130) or
 * {@code System.exit} from another thread. A plain JVM exits through its shutdown hooks with the
 * training thread still running, so without this no hook's {@code end()} would run (no final
 * checkpoint, no last log line). The first session opened installs one shutdown hook, which:
 *
 * <ol>
 *   <li>asks every open session to stop: {@link MonitoredSession#shouldStop()} becomes true after
 *       the run in progress, as when a hook requests a stop, so the training loop ends and the
 *       program's {@code close()} runs every hook's {@code end()};
 *   <li>waits until each session is closed, failed or left by its thread (the thread ended, called
 *       {@code System.exit} itself, or has made no call on the session for a second), at most
 *       {@link #exitSeconds()} in all, then lets the JVM halt.
 * </ol>
 *
 * A loop that ignores {@code shouldStop()} gets no {@code end()}: the JVM halts at the deadline.
 * TensorFlow's Python MonitoredSession has no such step: in Python a signal is an exception in the
 * training thread, and TensorFlow skips {@code end()} after an exception. Where Python hosts the
 * JVM, jhooks' handlers (docs/bridge.md, "Signals") first ask the sessions of both languages to
 * stop ({@link #requestStop()}; Python's registry is {@code jhooks.api.session_exit}) and raise the
 * signal once none is {@link #driven()}.
 */
public final class SessionExit {
  /**
   * The environment variable giving the seconds the exit may wait for open sessions; the same as
   * Python's (jhooks.bridge.process.signals), default {@value #DEFAULT_SECONDS}.
   */
  public static final String ENV = "JHOOKS_SIGNAL_EXIT_SECS";

  public static final double DEFAULT_SECONDS = 8.0;

  /** A session its thread has not called for this long has been left (the thread moved on). */
  static final long IDLE_NANOS = 1_000_000_000L;

  private static final System.Logger LOG = Logs.get(SessionExit.class.getName());
  // Weak: a session dropped without close() is not kept alive for the exit.
  private static final Set<MonitoredSession> OPEN =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
  private static final AtomicBoolean HOOKED = new AtomicBoolean();
  private static long deadline; // System.nanoTime() by which the exit stops waiting; 0 before

  private SessionExit() {}

  static void opened(MonitoredSession session) {
    OPEN.add(session);
    if (HOOKED.compareAndSet(false, true)) {
      try {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(SessionExit::stopAndAwait, "jhooks-session-exit"));
      } catch (IllegalStateException alreadyExiting) {
        HOOKED.set(false); // the JVM is exiting: no hook can be added, and none waits
      }
    }
  }

  static void closed(MonitoredSession session) {
    OPEN.remove(session);
  }

  /**
   * Asks every open session to stop and waits until none is still driven, at most {@link
   * #exitSeconds()} from the first call; called by the shutdown hook, and by other exit steps that
   * must come after the sessions' {@code end()} (the embedded Python's exit functions). Idempotent:
   * later calls share the first one's deadline.
   */
  public static void stopAndAwait() {
    long until;
    synchronized (SessionExit.class) {
      if (deadline == 0) {
        deadline = System.nanoTime() + (long) (exitSeconds() * 1e9);
      }
      until = deadline;
    }
    requestStop();
    while (driven()) {
      if (System.nanoTime() >= until) {
        LOG.log(
            System.Logger.Level.WARNING,
            "the JVM exits with a monitored session still running after "
                + exitSeconds()
                + " s ("
                + ENV
                + "): its hooks' end() did not run");
        return;
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Asks every open session to stop after the run in progress, as the exit does, without waiting:
   * for a host that ends the process on a signal itself once the sessions have run their hooks'
   * {@code end()} (jhooks' Python handlers where Python hosts the JVM, docs/bridge.md "Threads").
   *
   * @return whether a session is still driven ({@link #driven()})
   */
  public static boolean requestStop() {
    for (MonitoredSession s : open()) {
      s.requestExitStop();
    }
    return driven();
  }

  /**
   * Whether an open session is still driven: it has not failed, and its thread is alive and in a
   * call on it, or out of one for less than a second.
   */
  public static boolean driven() {
    return open().stream().anyMatch(s -> s.drivenWithin(IDLE_NANOS));
  }

  private static List<MonitoredSession> open() {
    synchronized (OPEN) {
      return new ArrayList<>(OPEN);
    }
  }

  /** {@link #ENV} as a number of seconds, or {@link #DEFAULT_SECONDS} when unset or not one. */
  public static double exitSeconds() {
    String value = System.getenv(ENV);
    if (value == null) {
      return DEFAULT_SECONDS;
    }
    try {
      return Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          ENV + "=" + value + " is not a number; using " + DEFAULT_SECONDS);
      return DEFAULT_SECONDS;
    }
  }
}
