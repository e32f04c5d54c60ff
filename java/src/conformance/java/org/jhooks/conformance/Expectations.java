package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares an observation ({@link JvmScenarioRunner}) with a scenario's {@code expected}; twin of
 * Python's {@code jhooks.conformance.expectations}. Each mismatch is one readable line.
 */
public final class Expectations {
  private Expectations() {}

  /** Simple type names that stand for each outcome error type, in either language. */
  static final Map<String, Set<String>> ERROR_TYPES =
      Map.of(
          "ScriptedHook", Set.of("ScriptedHookError", "ScriptedHookException"),
          "InvalidArgument", Set.of("InvalidArgumentError", "TFInvalidArgumentException"),
          "NanLoss", Set.of("NanLossDuringTrainingError", "NanLossDuringTrainingException"),
          "OutOfRange", Set.of("OutOfRangeError", "TFOutOfRangeException"),
          "Aborted", Set.of("AbortedError"),
          "GraphName", Set.of("GraphNameError", "GraphNameException"),
          "Hook", Set.of("HookError", "HookException"));

  /**
   * Every mismatch between {@code observation} and {@code scenario.expected}; empty when it
   * conforms.
   */
  public static List<String> compare(JsonObject scenario, JsonObject observation) {
    List<String> out = new ArrayList<>();
    JsonObject expected = scenario.getAsJsonObject("expected");
    sequence("trace", expected.getAsJsonArray("trace"), observation.getAsJsonArray("trace"), out);
    outcome(expected.getAsJsonObject("outcome"), observation, out);
    if (expected.has("callerRuns")) {
      JsonElement runs = expected.get("callerRuns");
      int got = observation.get("callerRuns").getAsInt();
      if (runs.isJsonPrimitive() ? got != runs.getAsInt() : !inRange(runs.getAsJsonObject(), got)) {
        out.add("callerRuns: expected " + runs + ", got " + got);
      }
    }
    if (expected.has("callerResults")) {
      same("callerResults", expected.get("callerResults"), observation.get("callerResults"), out);
    }
    if (expected.has("withoutHooksResults")) {
      same(
          "withoutHooksResults",
          expected.get("withoutHooksResults"),
          observation.get("withoutHooksResults"),
          out);
    }
    if (expected.has("results")) {
      JsonObject want = expected.getAsJsonObject("results");
      JsonObject got = observation.getAsJsonObject("results");
      for (JsonElement h : scenario.getAsJsonArray("hooks")) {
        String name = h.getAsJsonObject().get("name").getAsString();
        if (!h.getAsJsonObject().has("standard")) {
          same(
              "results[" + name + "]",
              want.has(name) ? want.get(name) : new JsonArray(),
              got.has(name) ? got.get(name) : new JsonArray(),
              out);
        }
      }
    }
    if (expected.has("finalOpsValues")) {
      for (Map.Entry<String, JsonElement> e :
          expected.getAsJsonObject("finalOpsValues").entrySet()) {
        same(
            "finalOpsValues[" + e.getKey() + "]",
            e.getValue(),
            observation.getAsJsonObject("finalOpsValues").get(e.getKey()),
            out);
      }
    }
    if (expected.has("checkpoints")) {
      checkpoints(expected.getAsJsonObject("checkpoints"), observation, out);
    }
    return out;
  }

  private static boolean inRange(JsonObject range, int got) {
    return (!range.has("min") || got >= range.get("min").getAsInt())
        && (!range.has("max") || got <= range.get("max").getAsInt());
  }

  private static void checkpoints(JsonObject want, JsonObject observation, List<String> out) {
    if (want.has("saves")) {
      same("checkpoints.saves", want.get("saves"), observation.get("saves"), out);
    }
    if (want.has("stateFile")) {
      same("checkpoints.stateFile", want.get("stateFile"), observation.get("stateFile"), out);
    }
    if (want.has("values")) {
      JsonObject got = observation.getAsJsonObject("checkpointValues");
      for (Map.Entry<String, JsonElement> step : want.getAsJsonObject("values").entrySet()) {
        if (!got.has(step.getKey())) {
          out.add(
              "checkpoints.values: no checkpoint of step "
                  + step.getKey()
                  + " on disk (have "
                  + got.keySet()
                  + ")");
          continue;
        }
        for (Map.Entry<String, JsonElement> v : step.getValue().getAsJsonObject().entrySet()) {
          same(
              "checkpoints.values[" + step.getKey() + "][" + v.getKey() + "]",
              v.getValue(),
              got.getAsJsonObject(step.getKey()).get(v.getKey()),
              out);
        }
      }
    }
    if (want.has("listenerTrace")) {
      sequence(
          "checkpoints.listenerTrace",
          want.getAsJsonArray("listenerTrace"),
          observation.getAsJsonArray("listenerTrace"),
          out);
    }
    if (want.has("stepsOnDisk")) {
      same("checkpoints.stepsOnDisk", want.get("stepsOnDisk"), observation.get("stepsOnDisk"), out);
    }
    if (want.has("graph")) {
      JsonObject wanted = want.getAsJsonObject("graph");
      JsonObject graph = observation.getAsJsonObject("graph");
      if (graph.get("nodes").isJsonNull()) {
        out.add("checkpoints.graph.nodes: no graph.pbtxt in the checkpoint dir");
      } else {
        List<String> missing = new ArrayList<>();
        for (JsonElement node : wanted.getAsJsonArray("nodes")) {
          if (!graph.getAsJsonArray("nodes").contains(node)) {
            missing.add(node.getAsString());
          }
        }
        if (!missing.isEmpty()) {
          out.add("checkpoints.graph.nodes: graph.pbtxt has no node " + String.join(", ", missing));
        }
      }
      same("checkpoints.graph.events", wanted.get("events"), graph.get("events"), out);
    }
    if (want.has("subdirs")) {
      JsonObject gotSubdirs =
          observation.has("subdirs") ? observation.getAsJsonObject("subdirs") : new JsonObject();
      for (Map.Entry<String, JsonElement> e : want.getAsJsonObject("subdirs").entrySet()) {
        String where = "checkpoints.subdirs[" + e.getKey() + "]";
        if (!gotSubdirs.has(e.getKey())) {
          out.add(where + ": no such sub-directory with a state file");
          continue;
        }
        JsonObject sub = e.getValue().getAsJsonObject();
        JsonObject got = gotSubdirs.getAsJsonObject(e.getKey());
        for (String key : List.of("stateFile", "stepsOnDisk")) {
          if (sub.has(key)) {
            same(where + "." + key, sub.get(key), got.get(key), out);
          }
        }
        if (sub.has("values")) {
          JsonObject values = got.getAsJsonObject("checkpointValues");
          for (Map.Entry<String, JsonElement> step : sub.getAsJsonObject("values").entrySet()) {
            if (!values.has(step.getKey())) {
              out.add(where + ".values: no checkpoint of step " + step.getKey());
              continue;
            }
            for (Map.Entry<String, JsonElement> v : step.getValue().getAsJsonObject().entrySet()) {
              same(
                  where + ".values[" + step.getKey() + "][" + v.getKey() + "]",
                  v.getValue(),
                  values.getAsJsonObject(step.getKey()).get(v.getKey()),
                  out);
            }
          }
        }
      }
    }
  }

  private static void outcome(JsonObject want, JsonObject observation, List<String> out) {
    JsonObject got = observation.getAsJsonObject("outcome");
    String kind = want.get("kind").getAsString();
    String gotKind = got.get("kind").getAsString();
    JsonObject error = got.has("error") ? got.getAsJsonObject("error") : null;
    if (!kind.equals(gotKind)) {
      out.add(
          "outcome: expected "
              + kind
              + ", got "
              + gotKind
              + (error != null ? " " + summary(error) : ""));
      return;
    }
    if (kind.equals("error")) {
      error("outcome", want, error, out);
    } else if (kind.equals("conflict")) {
      if (!want.get("which").getAsString().equals(got.get("which").getAsString())) {
        out.add(
            "outcome.which: expected "
                + want.get("which")
                + ", got "
                + got.get("which")
                + " "
                + summary(error));
      }
      contains(
          "outcome message",
          error.get("message").getAsString(),
          want.get("tensor").getAsString(),
          out);
      JsonObject positions = observation.getAsJsonObject("hookPositions");
      for (JsonElement h : want.getAsJsonArray("hooks")) {
        if (positions != null && positions.has(h.getAsString())) {
          contains(
              "outcome message",
              error.get("message").getAsString(),
              "hook #" + positions.get(h.getAsString()).getAsInt() + " ",
              out);
        }
      }
    }
  }

  private static void error(String where, JsonObject want, JsonObject error, List<String> out) {
    if (want.has("type") && !isType(want.get("type").getAsString(), error)) {
      out.add(
          where
              + ": expected a "
              + want.get("type").getAsString()
              + " error, got "
              + summary(error));
    }
    if (want.has("messageContains")) {
      for (JsonElement m : want.getAsJsonArray("messageContains")) {
        contains(where + " message", error.get("message").getAsString(), m.getAsString(), out);
      }
    }
    if (want.has("stackContains")) {
      for (JsonElement m : want.getAsJsonArray("stackContains")) {
        contains(where + " stack", error.get("stack").getAsString(), m.getAsString(), out);
      }
    }
    if (want.has("cause")) {
      if (!error.has("cause")) {
        out.add(where + ": expected a cause, got none on " + summary(error));
      } else {
        error(where + ".cause", want.getAsJsonObject("cause"), error.getAsJsonObject("cause"), out);
      }
    }
  }

  static boolean isType(String kind, JsonObject error) {
    for (JsonElement t : error.getAsJsonArray("types")) {
      if (ERROR_TYPES.get(kind).contains(t.getAsString())) {
        return true;
      }
      if (kind.equals("Aborted")
          && t.getAsString().equals("TensorFlowException")
          && error.get("message").getAsString().startsWith("ABORTED")) {
        return true;
      }
    }
    return false;
  }

  private static String summary(JsonObject error) {
    return error == null
        ? ""
        : error.getAsJsonArray("types").get(0).getAsString()
            + ": "
            + error.get("message").getAsString();
  }

  private static void contains(String where, String text, String part, List<String> out) {
    if (!text.contains(part)) {
      out.add(
          where
              + " lacks '"
              + part
              + "': "
              + (text.length() > 400 ? text.substring(0, 400) + "..." : text));
    }
  }

  private static void sequence(String where, JsonArray want, JsonArray got, List<String> out) {
    if (!equal(want, got)) {
      int i = 0;
      while (i < want.size() && i < got.size() && want.get(i).equals(got.get(i))) {
        i++;
      }
      out.add(
          where
              + ": first difference at ["
              + i
              + "]: expected "
              + (i < want.size() ? want.get(i) : "<end>")
              + ", got "
              + (i < got.size() ? got.get(i) : "<end>")
              + "\n  expected "
              + want
              + "\n  got      "
              + got);
    }
  }

  private static void same(String where, JsonElement want, JsonElement got, List<String> out) {
    if (!equal(want, got)) {
      out.add(where + ":\n  expected " + want + "\n  got      " + got);
    }
  }

  /** JSON equality with numbers compared as values (1 equals 1.0; float32 rounding tolerated). */
  static boolean equal(JsonElement a, JsonElement b) {
    if (a == null || b == null) {
      return (a == null || a.isJsonNull()) && (b == null || b.isJsonNull());
    }
    if (a.isJsonPrimitive() && b.isJsonPrimitive()) {
      JsonPrimitive x = a.getAsJsonPrimitive();
      JsonPrimitive y = b.getAsJsonPrimitive();
      if (x.isNumber() && y.isNumber()) {
        double p = x.getAsDouble();
        double q = y.getAsDouble();
        return p == q || Math.abs(p - q) <= 1e-6 * Math.max(1.0, Math.abs(p));
      }
      return x.equals(y);
    }
    if (a.isJsonArray() && b.isJsonArray()) {
      JsonArray x = a.getAsJsonArray();
      JsonArray y = b.getAsJsonArray();
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!equal(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.isJsonObject() && b.isJsonObject()) {
      JsonObject x = a.getAsJsonObject();
      JsonObject y = b.getAsJsonObject();
      if (!x.keySet().equals(y.keySet())) {
        return false;
      }
      for (String k : x.keySet()) {
        if (!equal(x.get(k), y.get(k))) {
          return false;
        }
      }
      return true;
    }
    return a.isJsonNull() && b.isJsonNull();
  }
}
