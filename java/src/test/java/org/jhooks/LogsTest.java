package org.jhooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.Test;

/**
 * Where jhooks' Java records go ({@link Logs}), each case in a JVM of its own (the choice is made
 * once per JVM): the one-line format on the JDK's unconfigured console, SLF4J when the app has it
 * with a provider, and an app's own configuration left alone.
 */
public class LogsTest {
  private static final String NAME = "org.jhooks.hooks.LoggingTensorHook";
  private static final String ONE_LINE =
      "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} I " + NAME.replace(".", "\\.") + ": v = 1";

  /** The app of each JVM: one jhooks record, one with an exception, one record of its own. */
  public static void main(String[] args) {
    System.Logger log = Logs.get(NAME);
    log.log(System.Logger.Level.INFO, "v = 1");
    log.log(System.Logger.Level.DEBUG, "not shown at the default level");
    log.log(System.Logger.Level.WARNING, "failed", new IllegalStateException("boom"));
    Logger.getLogger("com.example.App").info("the app's own record");
  }

  private static String run(List<String> classpath, String... options) throws Exception {
    String java =
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(Arrays.asList(options));
    command.addAll(
        List.of("-cp", String.join(File.pathSeparator, classpath), LogsTest.class.getName()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    p.getInputStream().transferTo(out);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(text, 0, p.waitFor());
    return text;
  }

  /** This test JVM's classpath without any SLF4J jar (ArchUnit brings slf4j-api). */
  private static List<String> withoutSlf4j() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !new File(e).getName().contains("slf4j"))
        .collect(Collectors.toList());
  }

  private static List<String> withSlf4jSimple() {
    String jars = System.getProperty("jhooks.test.slf4jSimple");
    assertTrue("build.gradle passes slf4j-simple's classpath", jars != null && !jars.isEmpty());
    List<String> cp = new ArrayList<>(withoutSlf4j());
    cp.addAll(Arrays.asList(jars.split(File.pathSeparator)));
    return cp;
  }

  private static List<String> lines(String text) {
    return Arrays.asList(text.split("\\R"));
  }

  @Test
  public void aPlainJvmPrintsJhooksRecordsOnOneLineAndTheAppsAsBefore() throws Exception {
    List<String> lines = lines(run(withoutSlf4j()));
    String text = String.join("\n", lines);
    assertTrue(text, lines.stream().anyMatch(l -> l.matches(ONE_LINE)));
    int warning =
        lines.indexOf(
            lines.stream()
                .filter(l -> l.endsWith(" W " + NAME + ": failed"))
                .findFirst()
                .orElseThrow());
    assertEquals(text, "java.lang.IllegalStateException: boom", lines.get(warning + 1));
    assertFalse(text, text.contains("INFO: v = 1")); // SimpleFormatter's second line
    assertFalse(text, text.contains("not shown"));
    assertTrue(text, text.contains("INFO: the app's own record")); // the app's records unchanged
    assertFalse(text, text.contains("SLF4J"));
  }

  @Test
  public void anAppWithSlf4jAndAProviderGetsTheRecordsThere() throws Exception {
    String text = run(withSlf4jSimple());
    // slf4j-simple's format: [thread] LEVEL name - message
    assertTrue(text, text.contains("[main] INFO " + NAME + " - v = 1"));
    assertTrue(text, text.contains("[main] WARN " + NAME + " - failed"));
    assertTrue(text, text.contains("java.lang.IllegalStateException: boom"));
    assertFalse(text, lines(text).stream().anyMatch(l -> l.matches(ONE_LINE)));
    assertFalse(text, text.contains("INFO: v = 1"));
  }

  @Test
  public void anAppsOwnFormatAndThePropertyLeaveJavaUtilLoggingAlone() throws Exception {
    String text =
        run(withoutSlf4j(), "-Djava.util.logging.SimpleFormatter.format=%4$s|%3$s|%5$s%n");
    assertTrue(text, text.contains("INFO|" + NAME + "|v = 1"));
    assertTrue(text, text.contains("INFO|com.example.App|the app's own record"));
    String plain = run(withSlf4jSimple(), "-D" + Logs.PROPERTY + "=system");
    assertTrue(plain, plain.contains("INFO: v = 1")); // java.util.logging, unchanged, not SLF4J
    assertFalse(plain, plain.contains(" - v = 1"));
  }
}
