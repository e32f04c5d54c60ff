package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared record of one scenario run: the hook trace ({@code h1.before@2}), each hook's results,
 * and the listener trace. Thread-safe (saver listeners may call from a writer thread). Twin of
 * Python's {@code jhooks.conformance.scripted_hook.Recorder}.
 */
public final class Recorder {
  private final List<String> trace = new ArrayList<>();
  private final Map<String, JsonArray> results = new LinkedHashMap<>();
  private final List<String> listenerTrace = new ArrayList<>();
  private final List<Long> saves = new ArrayList<>();

  public synchronized void event(String hook, String label) {
    trace.add(hook + "." + label);
  }

  public synchronized void result(String hook, String at, String what, JsonElement value) {
    JsonObject r = new JsonObject();
    r.addProperty("at", at);
    r.addProperty("what", what);
    r.add("value", value);
    results.computeIfAbsent(hook, k -> new JsonArray()).add(r);
  }

  public synchronized void listenerEvent(String listener, String label) {
    listenerTrace.add(listener + "." + label);
  }

  /**
   * A checkpoint saver finished a save at {@code globalStep} (recorded by {@link SaveRecorder}).
   */
  public synchronized void saved(long globalStep) {
    saves.add(globalStep);
  }

  /** The global step of every finished save, in order. */
  public synchronized List<Long> saves() {
    return new ArrayList<>(saves);
  }

  public synchronized List<String> trace() {
    return new ArrayList<>(trace);
  }

  /** Hook name to its recorded results, as the scenario's {@code expected.results} writes them. */
  public synchronized JsonObject results() {
    JsonObject out = new JsonObject();
    results.forEach((k, v) -> out.add(k, v.deepCopy()));
    return out;
  }

  public synchronized List<String> listenerTrace() {
    return new ArrayList<>(listenerTrace);
  }
}
