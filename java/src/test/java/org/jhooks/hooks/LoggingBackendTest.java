package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.jhooks.testing.CounterGraph;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;

/**
 * The standard hooks log through {@link System.Logger}: a JVM app gets their records in its own
 * backend, and a disabled level is skipped before the message is built.
 */
public class LoggingBackendTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final String NAME = "org.jhooks.hooks.LoggingTensorHook";

  private static LoggingTensorHook loggingHook() {
    return new LoggingTensorHook(List.of("v:0"), 1, null, false, null);
  }

  @Test
  public void theDefaultBackendIsJavaUtilLoggingAndItsLevelsApply() {
    Logger parent = Logger.getLogger("org.jhooks");
    try (StandardHooksTest.Captured log = new StandardHooksTest.Captured("org.jhooks")) {
      LoggingTensorHook h = loggingHook();
      try (Graph g = CounterGraph.counter()) {
        HookGraphs.train(g, 3, h);
      }
      assertEquals(3, log.lines.size());
      assertEquals(
          h.loggedLines().stream().map(l -> "INFO " + l).collect(Collectors.toList()), log.lines);

      parent.setLevel(Level.WARNING);
      assertFalse(System.getLogger(NAME).isLoggable(System.Logger.Level.INFO));
      log.lines.clear();
      try (Graph g = CounterGraph.counter()) {
        HookGraphs.train(g, 3, loggingHook());
      }
      assertEquals(List.of(), log.lines);
    } finally {
      parent.setLevel(null);
    }
    assertTrue(System.getLogger(NAME).isLoggable(System.Logger.Level.INFO));
  }

  @Test
  public void aJvmAppRoutesTheRecordsToItsOwnBackendWithALoggerFinder() throws Exception {
    // What slf4j-jdk-platform-logging or log4j-jpl do: a System.LoggerFinder service on the
    // classpath. Here the app's backend is RecordingFinder, in a JVM of its own (a LoggerFinder is
    // chosen once per JVM).
    Path services = tmp.newFolder("backend").toPath();
    Path file = services.resolve("META-INF/services/java.lang.System$LoggerFinder");
    Files.createDirectories(file.getParent());
    Files.writeString(file, RecordingFinder.class.getName() + "\n");
    String java =
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-Dorg.bytedeco.javacpp.cachedir="
                + System.getProperty("org.bytedeco.javacpp.cachedir", ""),
            "-cp",
            System.getProperty("java.class.path") + File.pathSeparator + services,
            LoggingBackendTest.class.getName());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    p.getInputStream().transferTo(out);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(text, 0, p.waitFor());
    List<String> logged = new ArrayList<>();
    List<String> captured = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("logged ")) {
        logged.add("backend " + NAME + " INFO " + line.substring("logged ".length()));
      } else if (line.startsWith("backend " + NAME)) {
        captured.add(line);
      }
    }
    assertEquals(text, 3, logged.size());
    assertEquals(text, logged, captured);
    // the app's backend got them, java.util.logging's console did not
    assertFalse(text, text.contains("INFO: v = "));
  }

  /** The app of the LoggerFinder test: trains 3 steps with a LoggingTensorHook. */
  public static void main(String[] args) {
    LoggingTensorHook h = loggingHook();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 3, h);
    }
    for (String line : h.loggedLines()) {
      System.out.println("logged " + line);
    }
  }

  /** A JVM app's logging backend: prints each record as "backend NAME LEVEL message". */
  public static final class RecordingFinder extends System.LoggerFinder {
    @Override
    public System.Logger getLogger(String name, Module module) {
      return new System.Logger() {
        @Override
        public String getName() {
          return name;
        }

        @Override
        public boolean isLoggable(Level level) {
          return level.getSeverity() >= Level.INFO.getSeverity();
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
          if (isLoggable(level)) {
            System.out.println("backend " + name + " " + level + " " + msg);
          }
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
          if (isLoggable(level)) {
            System.out.println(
                "backend "
                    + name
                    + " "
                    + level
                    + " "
                    + java.text.MessageFormat.format(format, params));
          }
        }
      };
    }
  }
}
