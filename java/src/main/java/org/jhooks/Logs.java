package org.jhooks;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * The loggers of jhooks' Java classes: {@code Logs.get("org.jhooks.hooks.LoggingTensorHook")}, one
 * per class, named as the class (docs/logging.md). Where their records go is chosen once per JVM,
 * at the first logger:
 *
 * <ol>
 *   <li>An app that routes {@link System.Logger} (a {@link System.LoggerFinder} service on its
 *       classpath: {@code slf4j-jdk-platform-logging}, {@code log4j-jpl}) gets them there.
 *   <li>Else an app with SLF4J and a provider on its classpath ({@code slf4j-api} and Logback,
 *       {@code slf4j-simple}, ...) gets them through SLF4J, under the same names.
 *   <li>Else they go to {@code java.util.logging}, the JDK's default. When it is not configured (no
 *       {@code java.util.logging.config.file} or {@code .config.class}, no {@code
 *       java.util.logging.SimpleFormatter.format}, its root console handler as the JDK made it),
 *       that handler prints jhooks' records on one line, in the format of the Python side ({@code
 *       2026-01-31 12:00:00,123 I org.jhooks.hooks.CheckpointSaverHook: Saved checkpoint ...}; the
 *       exception's stack trace, if any, below), instead of {@code SimpleFormatter}'s two lines
 *       that name the calling method. Every other record keeps {@code SimpleFormatter}'s format.
 * </ol>
 *
 * <p>The system property {@code org.jhooks.logging=system} skips 2 and the one-line format: plain
 * {@code System.getLogger}. A JVM that Python drives sets it ({@code
 * org.jhooks.bridge.PythonConsole}), as Python's {@code logging} formats the records there.
 */
public final class Logs {
  /** The system property that turns the backend choice off ({@code system}). */
  public static final String PROPERTY = "org.jhooks.logging";

  private static final String PREFIX = "org.jhooks";
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS").withZone(ZoneId.systemDefault());
  private static Boolean slf4j;

  private Logs() {}

  /**
   * The logger named {@code name} (a jhooks class name), in the backend chosen as the class doc
   * says.
   */
  public static System.Logger get(String name) {
    return useSlf4j() ? new Slf4jLogger(name) : System.getLogger(name);
  }

  private static synchronized boolean useSlf4j() {
    if (slf4j == null) {
      boolean plain = "system".equals(System.getProperty(PROPERTY));
      slf4j = !plain && !appRoutesSystemLogger() && slf4jHasProvider();
      if (!plain && !slf4j) {
        oneLineConsole();
      }
    }
    return slf4j;
  }

  /** Whether the JVM's LoggerFinder is an app's service rather than the JDK's own. */
  private static boolean appRoutesSystemLogger() {
    return System.LoggerFinder.getLoggerFinder().getClass().getClassLoader() != null;
  }

  /**
   * Whether SLF4J is on the classpath with a provider (without one, SLF4J drops every record).
   * Reflection: the jhooks jar does not depend on SLF4J, and {@link Slf4jLogger} is loaded only
   * when this is true.
   */
  private static boolean slf4jHasProvider() {
    try {
      Class<?> factory =
          Class.forName("org.slf4j.LoggerFactory", true, Logs.class.getClassLoader());
      String used = factory.getMethod("getILoggerFactory").invoke(null).getClass().getName();
      return !used.equals("org.slf4j.helpers.NOPLoggerFactory")
          && !used.equals("org.slf4j.helpers.SubstituteLoggerFactory");
    } catch (ReflectiveOperationException | LinkageError e) {
      return false; // no SLF4J (or one that cannot start): java.util.logging
    }
  }

  /** Gives the JDK's own root console handler the one-line format for jhooks' records. */
  private static void oneLineConsole() {
    LogManager manager = LogManager.getLogManager();
    if (System.getProperty("java.util.logging.config.file") != null
        || System.getProperty("java.util.logging.config.class") != null
        || System.getProperty("java.util.logging.SimpleFormatter.format") != null
        || manager.getProperty("java.util.logging.SimpleFormatter.format") != null) {
      return;
    }
    for (Handler h : manager.getLogger("").getHandlers()) {
      if (h.getClass() == ConsoleHandler.class
          && h.getFormatter() != null
          && h.getFormatter().getClass() == SimpleFormatter.class) {
        h.setFormatter(new OneLine(h.getFormatter()));
      }
    }
  }

  /** The first letter of the Python level a Java level maps to (docs/logging.md): E, W, I or D. */
  static char letter(Level level) {
    int v = level.intValue();
    return v >= Level.SEVERE.intValue()
        ? 'E'
        : v >= Level.WARNING.intValue() ? 'W' : v >= Level.INFO.intValue() ? 'I' : 'D';
  }

  /** jhooks' records on one line; the others as {@code delegate} formats them. */
  static final class OneLine extends Formatter {
    private final Formatter delegate;

    OneLine(Formatter delegate) {
      this.delegate = delegate;
    }

    @Override
    public String format(LogRecord record) {
      String name = record.getLoggerName();
      if (name == null || !(name.equals(PREFIX) || name.startsWith(PREFIX + "."))) {
        return delegate.format(record);
      }
      StringBuilder s =
          new StringBuilder()
              .append(TIME.format(Instant.ofEpochMilli(record.getMillis())))
              .append(' ')
              .append(letter(record.getLevel()))
              .append(' ')
              .append(name)
              .append(": ")
              .append(formatMessage(record))
              .append(System.lineSeparator());
      if (record.getThrown() != null) {
        StringWriter trace = new StringWriter();
        record.getThrown().printStackTrace(new PrintWriter(trace));
        s.append(trace);
      }
      return s.toString();
    }
  }
}
