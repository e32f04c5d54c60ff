package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.ModelInstance;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.tf.ErrorCodes;
import org.tensorflow.exceptions.TensorFlowException;
import org.tensorflow.ndarray.NdArray;

/**
 * A hook scripted by a scenario's hook JSON (see {@code docs/conformance.md}); twin of Python's
 * {@code jhooks.conformance.scripted_hook.ScriptedHook}, with identical event and result strings.
 *
 * <p>Each callback records {@code <name>.begin}, {@code .afterCreateSession}, {@code .before@n},
 * {@code .after@n} or {@code .end} on entry ({@code n}: this hook's count of {@code
 * beforeSessionRun} calls, so a retried attempt counts again), then applies that callback's actions
 * in phase order: recordModelInstance, recordOriginalArgs, rawRun, fetch/feed (one {@link
 * SessionRunArgs}), results, requestStop, raise. An {@code Aborted} raise throws a {@link
 * TensorFlowException} whose message starts with {@code "ABORTED: "}, which the JVM driver retries.
 */
public class ScriptedHook implements Hook {
  private static final String[] PHASES = {
    "recordModelInstance", "recordOriginalArgs", "rawRun", "args", "results", "requestStop", "raise"
  };

  private final String name;
  private final List<JsonObject> actions = new ArrayList<>();
  private final Recorder recorder;
  private final Supplier<ModelInstance> model;
  private final Map<Integer, Boolean> asked = new HashMap<>();
  private int runs;
  private int sessions;
  private Coordinator coord;
  private ModelInstance firstModel;

  /** A plain hook (not model-dependent). */
  public ScriptedHook(JsonObject spec, Recorder recorder) {
    this(spec, recorder, () -> null);
  }

  ScriptedHook(JsonObject spec, Recorder recorder, Supplier<ModelInstance> model) {
    if (spec.has("standard")) {
      throw new IllegalArgumentException(
          "hook '" + spec.get("name").getAsString() + "' is a standard hook, not scripted");
    }
    this.name = spec.get("name").getAsString();
    if (spec.has("actions")) {
      spec.getAsJsonArray("actions").forEach(a -> actions.add(a.getAsJsonObject()));
    }
    this.recorder = recorder;
    this.model = model;
  }

  /**
   * The scripted hook for a scenario hook entry: a {@link ScriptedModelDependentHook} when {@code
   * modelDependent}.
   */
  public static Hook create(JsonObject spec, Recorder recorder) {
    boolean dependent = spec.has("modelDependent") && spec.get("modelDependent").getAsBoolean();
    return dependent
        ? new ScriptedModelDependentHook(spec, recorder)
        : new ScriptedHook(spec, recorder);
  }

  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(" + name + ")";
  }

  @Override
  public void begin() {
    callback("begin", "begin", null, null, null);
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    sessions++;
    this.coord = coord;
    callback("afterCreateSession", "afterCreateSession", session, null, null);
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    runs++;
    return callback("beforeSessionRun", "before@" + runs, runContext.session(), runContext, null);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    callback("afterSessionRun", "after@" + runs, runContext.session(), runContext, runValues);
  }

  @Override
  public void end(Session session) {
    callback("end", "end", session, null, null);
  }

  @Override
  public void onError(Session session, Throwable error) {
    callback("onError", "onError", session, null, null);
  }

  private boolean applies(JsonObject a, String callback) {
    if (!a.get("callback").getAsString().equals(callback)) {
      return false;
    }
    if (a.has("run") && a.get("run").getAsInt() != runs) {
      return false;
    }
    return !a.has("session") || a.get("session").getAsInt() == sessions;
  }

  private SessionRunArgs callback(
      String callback,
      String label,
      Session session,
      SessionRunContext context,
      SessionRunValues values) {
    recorder.event(name, label);
    List<JsonObject> now = new ArrayList<>();
    for (JsonObject a : actions) {
      if (applies(a, callback)) {
        now.add(a);
      }
    }
    SessionRunArgs args = null;
    for (String phase : PHASES) {
      if (phase.equals("results")) {
        if (callback.equals("afterSessionRun")) {
          Boolean wasAsked = asked.remove(runs);
          boolean always = now.stream().anyMatch(a -> a.has("recordResults"));
          if ((wasAsked != null && wasAsked) || always) {
            record(label, "results", Values.toJson(values.results()));
          }
        }
      } else if (phase.equals("args")) {
        if (callback.equals("beforeSessionRun")) {
          args = args(now);
          asked.put(runs, args != null);
        }
      } else {
        for (JsonObject a : now) {
          if (a.has(phase)) {
            apply(phase, a, label, session, context);
          }
        }
      }
    }
    return args;
  }

  private static SessionRunArgs args(List<JsonObject> now) {
    Object fetches = null;
    Map<String, NdArray<?>> feeds = new LinkedHashMap<>();
    boolean any = false;
    for (JsonObject a : now) {
      if (a.has("fetch")) {
        fetches = Values.fetchStructure(a.get("fetch"));
        any = true;
      }
      if (a.has("feed")) {
        feeds.putAll(Values.feeds(a.getAsJsonObject("feed")));
        any = true;
      }
    }
    return any ? new SessionRunArgs(fetches, feeds, null) : null;
  }

  private void apply(
      String phase, JsonObject a, String label, Session session, SessionRunContext context) {
    switch (phase) {
      case "recordModelInstance":
        {
          ModelInstance m = model.get();
          if (firstModel == null) {
            firstModel = m;
          }
          JsonElement value = JsonNull.INSTANCE;
          if (m != null) {
            JsonObject endpoints = new JsonObject();
            m.endpoints().forEach(endpoints::addProperty);
            JsonObject o = new JsonObject();
            o.add("endpoints", endpoints);
            o.addProperty("sameAsFirst", m == firstModel);
            value = o;
          }
          record(label, "modelInstance", value);
          break;
        }
      case "recordOriginalArgs":
        {
          JsonObject o = new JsonObject();
          o.add("fetches", Values.structureToJson(context.originalArgs().fetches()));
          JsonArray feeds = new JsonArray();
          new TreeSet<>(context.originalArgs().feeds().keySet()).forEach(feeds::add);
          o.add("feeds", feeds);
          record(label, "originalArgs", o);
          break;
        }
      case "rawRun":
        {
          JsonObject raw = a.getAsJsonObject("rawRun");
          Object result =
              session.run(
                  Values.fetchStructure(raw.get("fetches")),
                  Values.feeds(raw.getAsJsonObject("feeds")));
          record(label, "rawRun", Values.toJson(result));
          break;
        }
      case "requestStop":
        if (a.get("requestStop").getAsString().equals("coord")) {
          coord.requestStop();
        } else {
          context.requestStop();
        }
        break;
      case "raise":
        throw error(a.getAsJsonObject("raise"));
      default:
        throw new IllegalStateException("unknown phase " + phase);
    }
  }

  static RuntimeException error(JsonObject spec) {
    Throwable cause = spec.has("cause") ? error(spec.getAsJsonObject("cause")) : null;
    String message = spec.get("message").getAsString();
    if (spec.get("type").getAsString().equals("Aborted")) {
      return cause == null
          ? new TensorFlowException("ABORTED: " + message)
          : new TensorFlowException("ABORTED: " + message, cause);
    }
    if (spec.get("type").getAsString().equals("OutOfRange")) {
      RuntimeException end = ErrorCodes.exceptionFor(ErrorCodes.Code.OUT_OF_RANGE, message);
      if (cause != null) {
        end.initCause(cause);
      }
      return end;
    }
    return new ScriptedHookException(message, cause);
  }

  private void record(String at, String what, JsonElement value) {
    recorder.result(name, at, what, value);
  }
}
