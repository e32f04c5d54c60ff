package org.jhooks.conformance;

import static org.junit.Assert.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.junit.Assume;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * The shared conformance suite on the JVM driver with Java hooks, no Python: one test per scenario
 * ({@code normal_end_hook_order[jvm-driver-java-hooks]}). Expected failures are listed with a
 * reason in {@code jhooks/conformance/data/xfail-java.json} and enforced both ways: a listed case
 * that passes fails (remove it from the list), an unlisted failing case fails. A listed case that
 * fails as expected is reported as skipped with its reason.
 */
@RunWith(Parameterized.class)
public class ConformanceJUnitTest {
  static final String COMBO = "jvm-driver-java-hooks";
  private static final JsonObject XFAIL = readXfail();

  private final String name;

  public ConformanceJUnitTest(String id, String name) {
    this.name = name;
  }

  @Parameters(name = "{0}")
  public static Collection<Object[]> scenarios() {
    List<Object[]> out = new ArrayList<>();
    for (String n : Scenarios.names()) {
      out.add(new Object[] {n + "[" + COMBO + "]", n});
    }
    return out;
  }

  private static JsonObject readXfail() {
    try (Reader r =
        new InputStreamReader(
            Objects.requireNonNull(
                ConformanceJUnitTest.class.getClassLoader().getResourceAsStream("xfail-java.json"),
                "xfail-java.json"),
            StandardCharsets.UTF_8)) {
      return JsonParser.parseReader(r).getAsJsonObject();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Why the scenario does not run on this combination, or null. */
  static String skipReason(JsonObject scenario) {
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
    return null;
  }

  @Test
  public void conforms() throws Exception {
    JsonObject scenario = Scenarios.load(name);
    String id = name + "[" + COMBO + "]";
    String skip = skipReason(scenario);
    Assume.assumeTrue(id + " skipped: " + skip, skip == null);
    Path dir = Files.createTempDirectory("jhooks-conformance-");
    List<String> mismatches;
    try {
      mismatches = Expectations.compare(scenario, JvmScenarioRunner.run(scenario, dir));
    } catch (RuntimeException | Error e) {
      java.io.StringWriter w = new java.io.StringWriter();
      e.printStackTrace(new java.io.PrintWriter(w, true));
      mismatches = List.of("the runner failed: " + w);
    } finally {
      deleteTree(dir);
    }
    if (XFAIL.has(id)) {
      if (mismatches.isEmpty()) {
        fail(
            id
                + " is listed in xfail-java.json ("
                + XFAIL.get(id).getAsString()
                + ") but passes: remove it from the list");
      }
      Assume.assumeTrue(
          id
              + " expected failure: "
              + XFAIL.get(id).getAsString()
              + "\n"
              + String.join("\n", mismatches),
          false);
    }
    if (!mismatches.isEmpty()) {
      fail(id + " does not conform:\n" + String.join("\n", mismatches));
    }
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
