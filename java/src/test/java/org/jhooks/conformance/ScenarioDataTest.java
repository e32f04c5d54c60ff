package org.jhooks.conformance;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/**
 * Every scenario resource parses with gson and keeps the basic invariants the Python check
 * enforces.
 */
public class ScenarioDataTest {
  private static final Pattern EVENT =
      Pattern.compile(
          "^([A-Za-z][A-Za-z0-9_]*)\\.(begin|afterCreateSession|before@(\\d+)|after@(\\d+)|end|onError)$");

  @Test
  public void indexListsAtLeast40UniqueScenariosAndTheSchemaLoads() {
    List<String> names = Scenarios.names();
    assertTrue("only " + names.size() + " scenarios", names.size() >= 40);
    assertEquals(names.size(), new HashSet<>(names).size());
    assertEquals(
        "https://json-schema.org/draft/2020-12/schema",
        Scenarios.schema().get("$schema").getAsString());
  }

  @Test
  public void everyScenarioKeepsTheBasicInvariants() {
    List<String> problems = new ArrayList<>();
    for (String name : Scenarios.names()) {
      for (String p : problems(name, Scenarios.load(name))) {
        problems.add(name + ": " + p);
      }
    }
    assertEquals(new ArrayList<String>(), problems);
  }

  @Test
  public void theInvariantsCatchABrokenTrace() {
    JsonObject s = Scenarios.load("normal_end_hook_order");
    s.getAsJsonObject("expected").getAsJsonArray("trace").remove(6);
    assertTrue(
        problems("broken", s).toString(),
        problems("broken", s).stream().anyMatch(p -> p.contains("h1.before@1")));
  }

  static List<String> problems(String name, JsonObject s) {
    List<String> out = new ArrayList<>();
    for (String key :
        new String[] {
          "name", "description", "contract", "model", "driver", "hooks", "caller", "expected"
        }) {
      if (!s.has(key)) {
        out.add("missing " + key);
      }
    }
    if (!out.isEmpty()) {
      return out;
    }
    if (!s.get("name").getAsString().equals(name) && !name.equals("broken")) {
      out.add("name " + s.get("name") + " differs from the file name");
    }
    Map<String, JsonObject> scripted = new HashMap<>();
    Set<String> all = new HashSet<>();
    for (JsonElement e : s.getAsJsonArray("hooks")) {
      JsonObject h = e.getAsJsonObject();
      String hook = h.get("name").getAsString();
      if (!all.add(hook)) {
        out.add("duplicate hook " + hook);
      }
      if (!h.has("standard")) {
        scripted.put(hook, h);
      }
    }
    JsonObject expected = s.getAsJsonObject("expected");
    Map<String, Integer> lastBefore = new HashMap<>();
    Map<String, Integer> open = new HashMap<>();
    Set<String> begun = new HashSet<>();
    Map<String, Set<String>> eventsOf = new HashMap<>();
    for (JsonElement e : expected.getAsJsonArray("trace")) {
      String event = e.getAsString();
      Matcher m = EVENT.matcher(event);
      if (!m.matches()) {
        out.add("bad event " + event);
        continue;
      }
      String hook = m.group(1);
      if (!scripted.containsKey(hook)) {
        out.add(event + " names no scripted hook");
        continue;
      }
      eventsOf.computeIfAbsent(hook, k -> new HashSet<>()).add(m.group(2));
      if (m.group(2).equals("begin") && !begun.add(hook)) {
        out.add("second " + event);
      }
      if (m.group(3) != null) {
        int n = Integer.parseInt(m.group(3));
        int want = lastBefore.getOrDefault(hook, 0) + 1;
        if (n != want) {
          out.add(event + " where " + hook + ".before@" + want + " was due");
        }
        lastBefore.put(hook, n);
        open.put(hook, n);
      } else if (m.group(4) != null) {
        int n = Integer.parseInt(m.group(4));
        if (!Integer.valueOf(n).equals(open.remove(hook))) {
          out.add(event + " does not follow " + hook + ".before@" + n);
        }
      } else if (m.group(2).equals("afterCreateSession")) {
        open.remove(hook);
      }
    }
    if (expected.has("results")) {
      for (Map.Entry<String, JsonElement> r : expected.getAsJsonObject("results").entrySet()) {
        if (!scripted.containsKey(r.getKey())) {
          out.add("results for " + r.getKey() + ", not a scripted hook");
          continue;
        }
        for (JsonElement x : r.getValue().getAsJsonArray()) {
          String at = x.getAsJsonObject().get("at").getAsString();
          if (!eventsOf.getOrDefault(r.getKey(), Set.of()).contains(at)) {
            out.add("result at " + r.getKey() + "." + at + " without that event in the trace");
          }
        }
      }
    }
    String outcome = expected.getAsJsonObject("outcome").get("kind").getAsString();
    if (!Set.of("normal", "stopped", "endOfInput", "error", "conflict").contains(outcome)) {
      out.add("unknown outcome " + outcome);
    }
    int maxRuns = s.getAsJsonObject("caller").get("maxRuns").getAsInt();
    if (expected.has("callerRuns")
        && expected.get("callerRuns").isJsonPrimitive()
        && expected.get("callerRuns").getAsInt() > maxRuns) {
      out.add("callerRuns above maxRuns");
    }
    return out;
  }
}
