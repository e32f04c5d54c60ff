package org.jhooks.conformance;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.jhooks.Hook;
import org.junit.AssumptionViolatedException;
import org.junit.runner.Description;
import org.junit.runner.notification.RunNotifier;
import org.junit.runners.ParentRunner;
import org.junit.runners.model.InitializationError;
import org.junit.runners.model.Statement;

/**
 * The conformance suite as a JUnit 4 test of a JVM project: every scenario (shipped in the jhooks
 * jar) as one named test, {@code normal_end_hook_order[jvm-driver-java-hooks]}, run with Java hooks
 * on the JVM driver (or the test's {@link ConformanceDriver}), no Python involved.
 *
 * <pre>{@code
 * @RunWith(ConformanceRunner.class)
 * public class MyHookConformanceTest {
 *   public static ConformanceOptions options() {
 *     return ConformanceOptions.builder().hookFactory(MyHook::new).build();
 *   }
 * }
 * }</pre>
 *
 * <p>The test class may have one public static no-argument method returning {@link
 * ConformanceOptions} (any name); without it jhooks' own hooks are checked. A scenario that needs a
 * Python hook, or a recovering driver when the driver does not recover, is skipped (an assumption
 * failure, with the reason). A user's hook fails a scenario when it throws ({@code your hook <name>
 * raised in <callback>: ...}) or changes the traces, results, outcome or checkpoints. On jhooks'
 * own driver the expected failures of {@code xfail-java.json} apply, strictly (a listed scenario
 * that passes fails: remove it from the list). JUnit 4.12 or later must be on the test classpath
 * (jhooks does not depend on it). See docs/conformance.md, "Check your own hook, session creator or
 * driver".
 */
public final class ConformanceRunner extends ParentRunner<String> {
  private final ConformanceOptions options;
  private final JsonObject xfail;

  public ConformanceRunner(Class<?> testClass) throws InitializationError {
    super(testClass);
    this.options = optionsOf(testClass);
    String name = options.driver().name();
    if (name == null || !name.matches("[a-z0-9]+")) {
      throw new InitializationError(
          "a conformance driver's name must match [a-z0-9]+, got "
              + (name == null ? "null" : "'" + name + "'")
              + " ("
              + options.driver().getClass().getName()
              + ")");
    }
    this.xfail = options.builtInDriver() ? readXfail() : new JsonObject();
  }

  private static ConformanceOptions optionsOf(Class<?> testClass) throws InitializationError {
    List<Method> found = new ArrayList<>();
    for (Method m : testClass.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          && m.getParameterCount() == 0
          && m.getReturnType() == ConformanceOptions.class) {
        found.add(m);
      }
    }
    if (found.size() > 1) {
      throw new InitializationError(
          testClass.getName()
              + " has "
              + found.size()
              + " public static methods returning ConformanceOptions; keep one");
    }
    if (found.isEmpty()) {
      return ConformanceOptions.builder().build();
    }
    try {
      return Objects.requireNonNull(
          (ConformanceOptions) found.get(0).invoke(null),
          testClass.getName() + "." + found.get(0).getName() + "() returned null");
    } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
      throw new InitializationError(e);
    }
  }

  private static JsonObject readXfail() {
    try (Reader r =
        new InputStreamReader(
            Objects.requireNonNull(
                ConformanceRunner.class.getClassLoader().getResourceAsStream("xfail-java.json"),
                "xfail-java.json"),
            StandardCharsets.UTF_8)) {
      return JsonParser.parseReader(r).getAsJsonObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The combination id of this run, {@code <driver>-driver-java-hooks}. */
  public String combo() {
    return options.driver().name() + "-driver-java-hooks";
  }

  @Override
  protected List<String> getChildren() {
    return options.scenarios().isEmpty() ? Scenarios.names() : options.scenarios();
  }

  @Override
  protected Description describeChild(String scenario) {
    return Description.createTestDescription(getTestClass().getJavaClass(), id(scenario));
  }

  private String id(String scenario) {
    return scenario + "[" + combo() + "]";
  }

  @Override
  protected void runChild(String scenario, RunNotifier notifier) {
    runLeaf(
        new Statement() {
          @Override
          public void evaluate() throws Throwable {
            check(scenario);
          }
        },
        describeChild(scenario),
        notifier);
  }

  /**
   * Why the scenario does not run with Java hooks on {@code driver}, or null: it runs on the Python
   * driver only, fixes a hook's language to Python, or needs recovery from AbortedError that the
   * driver does not do.
   */
  public static String skipReason(JsonObject scenario, ConformanceDriver driver) {
    if (scenario.has("drivers")) {
      boolean jvm = false;
      for (JsonElement d : scenario.getAsJsonArray("drivers")) {
        jvm |= d.getAsString().equals("jvm");
      }
      if (!jvm) {
        return "the scenario runs on the Python driver only";
      }
    }
    for (JsonElement h : scenario.getAsJsonArray("hooks")) {
      JsonObject o = h.getAsJsonObject();
      if (o.has("language") && o.get("language").getAsString().equals("python")) {
        return "hook " + o.get("name").getAsString() + " must be a Python hook";
      }
    }
    if (!driver.recovers() && needsRecovery(scenario)) {
      return "the " + driver.name() + " driver does not recover from AbortedError";
    }
    return null;
  }

  /**
   * Whether the scenario rests on recovering from AbortedError: {@code recoveryFaults}, or a hook
   * raising {@code Aborted}.
   */
  public static boolean needsRecovery(JsonObject scenario) {
    return scenario.getAsJsonObject("driver").has("recoveryFaults")
        || scenario.getAsJsonArray("hooks").toString().contains("\"type\":\"Aborted\"");
  }

  private void check(String name) throws IOException {
    JsonObject scenario = Scenarios.load(name);
    String id = id(name);
    ConformanceDriver driver = options.driver();
    String skip = skipReason(scenario, driver);
    if (skip != null) {
      throw new AssumptionViolatedException(id + " skipped: " + skip);
    }
    Path dir = Files.createTempDirectory("jhooks-conformance-");
    List<String> mismatches = new ArrayList<>();
    try {
      List<Hook> extra = new ArrayList<>();
      if (options.hookFactory() != null) {
        extra.add(GuardedHook.of(options.hookFactory().get()));
      }
      JsonObject observation =
          JvmScenarioRunner.run(
              scenario,
              JvmScenarioRunner.javaLanguages(scenario),
              null,
              dir,
              extra,
              driver,
              options.sessionCreators());
      extra.forEach(h -> mismatches.addAll(GuardedHook.raisedBy(h)));
      mismatches.addAll(Expectations.compare(scenario, observation));
    } catch (RuntimeException | Error e) {
      StringWriter w = new StringWriter();
      e.printStackTrace(new PrintWriter(w, true));
      mismatches.add("the runner failed: " + w);
    } finally {
      deleteTree(dir);
    }
    if (xfail.has(id)) {
      String reason = xfail.get(id).getAsString();
      if (mismatches.isEmpty()) {
        throw new AssertionError(
            id
                + " is listed in xfail-java.json ("
                + reason
                + ") but passes: remove it from the list");
      }
      throw new AssumptionViolatedException(
          id + " expected failure: " + reason + "\n" + String.join("\n", mismatches));
    }
    if (!mismatches.isEmpty()) {
      throw new AssertionError(id + " does not conform:\n" + String.join("\n", mismatches));
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
