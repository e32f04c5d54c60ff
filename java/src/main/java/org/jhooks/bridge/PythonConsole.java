package org.jhooks.bridge;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.ErrorManager;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.jhooks.Logs;

/**
 * The console of a JVM that Python drives (started by {@code jhooks.bridge.process.jvm.start()}: a
 * Python session with Java hooks, or {@code python -m jhooks java}): Java log records go to
 * Python's {@code logging} and Java progress bars are drawn by Python, so both languages write one
 * stream. Installed by {@code jhooks.bridge.process.console}; nothing here is used in a plain JVM.
 *
 * <p>Log records: jhooks logs through {@link System.Logger}, whose default backend is {@code
 * java.util.logging}. {@link #install} replaces the handlers of the {@code java.util.logging} root
 * logger (the console handler) with one that hands every record to Python, under the same logger
 * name, level mapped by {@link #pythonLevel} (SEVERE 40, WARNING 30, INFO 20, CONFIG and FINE 10,
 * finer 5), message formatted, exception as its stack trace text, Java thread name kept. Python
 * keeps the {@code java.util.logging} levels in step with its own ({@link #setLevels}), so a record
 * Python would drop is dropped by {@code isLoggable} on the Java side, before formatting and before
 * crossing. See docs/logging.md.
 */
public final class PythonConsole {
  private PythonConsole() {}

  /** What Python implements (a JPype proxy). */
  public interface Sink {
    /**
     * One log record.
     *
     * @param logger the Java logger name ({@code ""} for the root logger)
     * @param level the Python level ({@link #pythonLevel})
     * @param message the formatted message
     * @param thrown the stack trace of the record's exception, or {@code null}
     * @param thread the name of the Java thread that logged it, or {@code null} when unknown
     * @param millis the record's time, milliseconds since the epoch
     */
    void log(String logger, int level, String message, String thrown, String thread, long millis);

    /**
     * A Python object for the console, built from {@code "package.module:Class"} with {@code args}
     * and handed out as a proxy of {@code type} (for example the bar display of {@code
     * org.jhooks.hooks.ProgressBarHook}).
     */
    Object create(String spec, Class<?> type, Object[] args);
  }

  private static Sink sink;
  private static Handler handler;
  private static final List<Handler> savedRootHandlers = new ArrayList<>();
  private static Level savedRootLevel;
  // java.util.logging keeps loggers weakly: hold the ones whose level Python set.
  private static final Map<String, Logger> levelled = new HashMap<>();

  /** Whether Python drives this JVM and installed its console. */
  public static synchronized boolean installed() {
    return sink != null;
  }

  /**
   * Routes {@code java.util.logging}'s root logger to {@code newSink}; replaces any earlier one.
   */
  public static synchronized void install(Sink newSink) {
    // jhooks' loggers stay on java.util.logging, here Python's: not SLF4J, not the one-line format.
    System.setProperty(Logs.PROPERTY, "system");
    Logger root = LogManager.getLogManager().getLogger("");
    if (handler == null) {
      savedRootLevel = root.getLevel();
      for (Handler h : root.getHandlers()) {
        savedRootHandlers.add(h);
        root.removeHandler(h);
      }
      handler = new ToPython();
      root.addHandler(handler);
    }
    sink = newSink;
  }

  /** Gives {@code java.util.logging} its own root handlers and levels back. */
  public static synchronized void uninstall() {
    if (handler == null) {
      return;
    }
    Logger root = LogManager.getLogManager().getLogger("");
    root.removeHandler(handler);
    for (Handler h : savedRootHandlers) {
      root.addHandler(h);
    }
    savedRootHandlers.clear();
    for (Logger l : levelled.values()) {
      l.setLevel(null);
    }
    levelled.clear();
    root.setLevel(savedRootLevel);
    handler = null;
    sink = null;
  }

  /**
   * Sets the {@code java.util.logging} level of each named logger ({@code ""}: the root) to the
   * lowest Java level that Python would keep, given the lowest Python level its logger of the same
   * name keeps ({@code levels[i]}; above 40: none). Loggers levelled by an earlier call and not
   * named now inherit their parent's level again.
   */
  public static synchronized void setLevels(String[] names, int[] levels) {
    Map<String, Logger> now = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      Logger l = Logger.getLogger(names[i]);
      l.setLevel(javaLevel(levels[i]));
      now.put(names[i], l);
    }
    for (Map.Entry<String, Logger> e : levelled.entrySet()) {
      if (!now.containsKey(e.getKey()) && !e.getKey().isEmpty()) {
        e.getValue().setLevel(null);
      }
    }
    levelled.clear();
    levelled.putAll(now);
  }

  /** The Python level of a Java one: SEVERE 40, WARNING 30, INFO 20, CONFIG and FINE 10, else 5. */
  public static int pythonLevel(Level level) {
    int v = level.intValue();
    if (v >= Level.SEVERE.intValue()) {
      return 40;
    } else if (v >= Level.WARNING.intValue()) {
      return 30;
    } else if (v >= Level.INFO.intValue()) {
      return 20;
    } else if (v >= Level.FINE.intValue()) {
      return 10;
    }
    return 5;
  }

  /** The lowest Java level whose {@link #pythonLevel} is at least {@code pythonLevel}. */
  public static Level javaLevel(int pythonLevel) {
    if (pythonLevel <= 5) {
      return Level.ALL;
    } else if (pythonLevel <= 10) {
      return Level.FINE;
    } else if (pythonLevel <= 20) {
      return Level.INFO;
    } else if (pythonLevel <= 30) {
      return Level.WARNING;
    } else if (pythonLevel <= 40) {
      return Level.SEVERE;
    }
    return Level.OFF;
  }

  /**
   * A Python object made by the installed console (see {@link Sink#create}).
   *
   * @throws IllegalStateException Python does not drive this JVM
   */
  public static <T> T create(String spec, Class<T> type, Object... args) {
    Sink s;
    synchronized (PythonConsole.class) {
      s = sink;
    }
    if (s == null) {
      throw new IllegalStateException("no Python console: this JVM was not started from Python");
    }
    return type.cast(s.create(spec, type, args));
  }

  private static final class ToPython extends Handler {
    private final Formatter messages = new SimpleFormatter();

    @Override
    public void publish(LogRecord r) {
      Sink s;
      synchronized (PythonConsole.class) {
        s = sink;
      }
      if (s == null || !isLoggable(r)) {
        return;
      }
      String thrown = null;
      if (r.getThrown() != null) {
        StringWriter w = new StringWriter();
        r.getThrown().printStackTrace(new PrintWriter(w));
        thrown = w.toString().stripTrailing();
      }
      // java.util.logging publishes on the thread that logged (its own id is the record's).
      Thread t = Thread.currentThread();
      String thread = t.getId() == r.getLongThreadID() ? t.getName() : null;
      String logger = r.getLoggerName() == null ? "" : r.getLoggerName();
      int level = pythonLevel(r.getLevel());
      String message = messages.formatMessage(r);
      try {
        s.log(logger, level, message, thrown, thread, r.getMillis());
      } catch (RuntimeException e) {
        if (!interruptedBySignal(e)) {
          reportError("a log record could not be handed to Python", e, ErrorManager.WRITE_FAILURE);
          return;
        }
        // JPype interrupts the main thread on SIGINT/SIGTERM, and a call into Python throws
        // once: hand the record over, then leave the interrupt for the hook's next call.
        try {
          s.log(logger, level, message, thrown, thread, r.getMillis());
        } catch (RuntimeException again) {
          reportError(
              "a log record could not be handed to Python", again, ErrorManager.WRITE_FAILURE);
        } finally {
          Thread.currentThread().interrupt();
        }
      }
    }

    private static boolean interruptedBySignal(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof InterruptedException) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
