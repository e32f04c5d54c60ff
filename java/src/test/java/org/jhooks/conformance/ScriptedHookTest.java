package org.jhooks.conformance;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.ModelDependentHook;
import org.jhooks.ModelInstance;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.junit.Test;
import org.tensorflow.exceptions.TensorFlowException;
import org.tensorflow.ndarray.NdArrays;

/**
 * Pins the scripted hooks' event and result strings (the same as
 * tests/conformance/test_scripted_hook.py).
 */
public class ScriptedHookTest {
  private static JsonObject json(String s) {
    return JsonParser.parseString(s).getAsJsonObject();
  }

  private static SessionRunContext context() {
    return new SessionRunContext(SessionRunArgs.of("train"), null);
  }

  private static SessionRunArgs oneRun(Hook hook, Object results) {
    SessionRunContext c = context();
    SessionRunArgs args = hook.beforeSessionRun(c);
    hook.afterSessionRun(c, new SessionRunValues(results, null, null));
    return args;
  }

  @Test
  public void eventsInCallbackOrderWithRunNumbers() {
    Recorder rec = new Recorder();
    Hook hook = ScriptedHook.create(json("{\"name\": \"h1\"}"), rec);
    hook.beginSession();
    hook.afterCreateSession(null, new Coordinator());
    oneRun(hook, null);
    hook.beforeSessionRun(context());
    hook.afterCreateSession(null, new Coordinator());
    oneRun(hook, null);
    hook.end(null);
    assertEquals(
        List.of(
            "h1.begin",
            "h1.afterCreateSession",
            "h1.before@1",
            "h1.after@1",
            "h1.before@2",
            "h1.afterCreateSession",
            "h1.before@3",
            "h1.after@3",
            "h1.end"),
        rec.trace());
    assertEquals(json("{}"), rec.results());
  }

  @Test
  public void fetchAndFeedBecomeOneArgsAndResultsAreRecorded() {
    Recorder rec = new Recorder();
    Hook hook =
        ScriptedHook.create(
            json(
                "{\"name\": \"h1\", \"actions\": [{\"callback\": \"beforeSessionRun\", \"run\": 1,"
                    + " \"fetch\": {\"s\": \"global_step_read:0\", \"t\": [\"a:0\", [\"b:0\"]]},"
                    + " \"feed\": {\"x:0\": {\"dtype\": \"int64\", \"shape\": [2, 1], \"values\":"
                    + " [3, 4]}}}]}"),
            rec);
    hook.afterCreateSession(null, new Coordinator());
    Map<String, Object> results =
        Map.of(
            "s",
            NdArrays.scalarOf(0L),
            "t",
            List.of(NdArrays.scalarOf(1.5f), List.of(NdArrays.vectorOf(Float.NaN))));
    SessionRunArgs args =
        oneRun(
            hook,
            new java.util.LinkedHashMap<>(Map.of("s", results.get("s"), "t", results.get("t"))));
    assertEquals("{s=global_step_read:0, t=[a:0, [b:0]]}", args.fetches().toString());
    assertEquals(3L, args.feeds().get("x:0").getObject(0, 0));
    assertEquals(4L, args.feeds().get("x:0").getObject(1, 0));
    assertNull(oneRun(hook, null));
    JsonObject expected =
        json(
            "{\"h1\": [{\"at\": \"after@1\", \"what\": \"results\","
                + " \"value\": {\"s\": 0, \"t\": [1.5, [[\"NaN\"]]]}}]}");
    JsonObject actual = rec.results();
    assertEquals(
        expected.getAsJsonArray("h1").get(0).getAsJsonObject().getAsJsonObject("value").get("t"),
        actual.getAsJsonArray("h1").get(0).getAsJsonObject().getAsJsonObject("value").get("t"));
    assertEquals(1, actual.getAsJsonArray("h1").size());
  }

  @Test
  public void recordResultsRecordsNullWhenNothingWasAsked() {
    Recorder rec = new Recorder();
    Hook hook =
        ScriptedHook.create(
            json(
                "{\"name\": \"h1\", \"actions\": [{\"callback\": \"afterSessionRun\","
                    + " \"recordResults\": true}]}"),
            rec);
    hook.afterCreateSession(null, new Coordinator());
    oneRun(hook, null);
    assertEquals(
        json("{\"h1\": [{\"at\": \"after@1\", \"what\": \"results\", \"value\": null}]}"),
        rec.results());
  }

  @Test
  public void stopRequestsThroughRunContextAndCoordinator() {
    Coordinator coord = new Coordinator();
    Hook hook =
        ScriptedHook.create(
            json(
                "{\"name\": \"h1\", \"actions\": [{\"callback\": \"afterSessionRun\", \"run\": 1,"
                    + " \"requestStop\": \"runContext\"},{\"callback\": \"afterSessionRun\","
                    + " \"run\": 2, \"requestStop\": \"coord\"}]}"),
            new Recorder());
    hook.afterCreateSession(null, coord);
    SessionRunContext first = context();
    hook.beforeSessionRun(first);
    hook.afterSessionRun(first, new SessionRunValues(null, null, null));
    assertTrue(first.stopRequested());
    assertFalse(coord.shouldStop());
    SessionRunContext second = context();
    hook.beforeSessionRun(second);
    hook.afterSessionRun(second, new SessionRunValues(null, null, null));
    assertFalse(second.stopRequested());
    assertTrue(coord.shouldStop());
  }

  @Test
  public void raiseWithCauseAfterRecordingTheEvent() {
    Recorder rec = new Recorder();
    Hook hook =
        ScriptedHook.create(
            json(
                "{\"name\": \"h2\", \"actions\": [{\"callback\": \"end\", \"raise\": {\"type\":"
                    + " \"ScriptedHook\", \"message\": \"outer\", \"cause\": {\"type\":"
                    + " \"ScriptedHook\", \"message\": \"inner\"}}}]}"),
            rec);
    try {
      hook.end(null);
      fail("no exception");
    } catch (ScriptedHookException e) {
      assertEquals("outer", e.getMessage());
      assertTrue(e.getCause() instanceof ScriptedHookException);
      assertEquals("inner", e.getCause().getMessage());
    }
    assertEquals(List.of("h2.end"), rec.trace());
  }

  @Test
  public void abortedIsATensorFlowExceptionWithTheAbortedStatusText() {
    RuntimeException e =
        ScriptedHook.error(json("{\"type\": \"Aborted\", \"message\": \"retry me\"}"));
    assertTrue(e instanceof TensorFlowException);
    assertEquals("ABORTED: retry me", e.getMessage());
  }

  @Test
  public void originalArgsAndModelInstanceAreRecorded() {
    Recorder rec = new Recorder();
    Hook hook =
        ScriptedHook.create(
            json(
                "{\"name\": \"m1\", \"modelDependent\": true, \"actions\": [{\"callback\":"
                    + " \"begin\", \"recordModelInstance\": true},{\"callback\":"
                    + " \"beforeSessionRun\", \"recordOriginalArgs\": true,"
                    + " \"recordModelInstance\": true}]}"),
            rec);
    assertTrue(hook instanceof ModelDependentHook);
    ModelInstance model = ModelRecipe.modelInstance();
    ((ModelDependentHook) hook).setModelInstance(model);
    assertSame(model, ((ModelDependentHook) hook).modelInstance());
    hook.beginSession();
    hook.afterCreateSession(null, new Coordinator());
    java.util.Map<String, org.tensorflow.ndarray.NdArray<?>> feeds =
        new java.util.LinkedHashMap<>();
    feeds.put("z:0", NdArrays.scalarOf(1f));
    feeds.put("a:0", NdArrays.scalarOf(2f));
    hook.beforeSessionRun(
        new SessionRunContext(SessionRunArgs.of(List.of("train", List.of("c:0")), feeds), null));
    String mi =
        "{\"endpoints\": {\"loss\": \"loss:0\", \"trainOp\": \"train\", \"globalStep\":"
            + " \"global_step:0\"}, \"sameAsFirst\": true}";
    assertEquals(
        json(
            "{\"m1\": ["
                + "{\"at\": \"begin\", \"what\": \"modelInstance\", \"value\": "
                + mi
                + "},"
                + "{\"at\": \"before@1\", \"what\": \"modelInstance\", \"value\": "
                + mi
                + "},{\"at\": \"before@1\", \"what\": \"originalArgs\", \"value\": {\"fetches\":"
                + " [\"train\", [\"c:0\"]], \"feeds\": [\"a:0\", \"z:0\"]}}]}"),
        rec.results());
  }

  @Test
  public void plainHookIsNotModelDependentAndStandardEntriesAreRefused() {
    assertFalse(
        ScriptedHook.create(json("{\"name\": \"h1\"}"), new Recorder())
            instanceof ModelDependentHook);
    try {
      ScriptedHook.create(
          json("{\"name\": \"s\", \"standard\": {\"type\": \"StopAtStepHook\", \"numSteps\": 1}}"),
          new Recorder());
      fail("accepted a standard hook");
    } catch (IllegalArgumentException expected) {
      assertTrue(expected.getMessage().contains("standard"));
    }
  }

  @Test
  public void listenerEventsAndStopRequest() {
    Recorder rec = new Recorder();
    ScriptedListener l =
        new ScriptedListener(json("{\"name\": \"l1\", \"stopAfterSaveAt\": 2}"), rec);
    l.begin();
    l.beforeSave(null, 0);
    assertFalse(l.afterSave(null, 0));
    l.beforeSave(null, 2);
    assertTrue(l.afterSave(null, 2));
    l.end(null, 2);
    assertEquals(
        List.of(
            "l1.begin",
            "l1.beforeSave@0",
            "l1.afterSave@0",
            "l1.beforeSave@2",
            "l1.afterSave@2",
            "l1.end@2"),
        rec.listenerTrace());
  }
}
