package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.CallerFeedConflictException;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.HookFeedConflictException;
import org.jhooks.RunOptions;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.hooks.CheckpointSaverHook;
import org.jhooks.hooks.StepCounterHook;
import org.jhooks.testing.CounterGraph;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;

/** One hooked run: merging, per-hook structures, raw runs, feed conflicts. */
public class MonitoredSessionRunTest {
  private final List<String> calls = new ArrayList<>();

  /** Returns fixed args and keeps what it saw. */
  static final class AskingHook implements Hook {
    final SessionRunArgs args;
    SessionRunContext context;
    SessionRunValues values;

    AskingHook(SessionRunArgs args) {
      this.args = args;
    }

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      context = runContext;
      return args;
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      values = runValues;
    }
  }

  @Test
  public void eachHookGetsItsOwnStructureAndTheCallerItsOwn() {
    Map<String, Object> mapFetch = new LinkedHashMap<>();
    mapFetch.put("value", "v:0");
    mapFetch.put("op", "bump");
    AskingHook single =
        new AskingHook(SessionRunArgs.of("double:0", Map.of("x", NdArrays.scalarOf(3f))));
    AskingHook list = new AskingHook(SessionRunArgs.of(List.of("v:0", "global_step:0")));
    AskingHook map = new AskingHook(SessionRunArgs.of(mapFetch));
    AskingHook nothing = new AskingHook(null);
    SessionRunArgs callerArgs =
        SessionRunArgs.of(
            Map.of("step", GlobalStep.TENSOR_NAME, "train", List.of(CounterGraph.TRAIN)));
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredSession.builder(g).hooks(single, list, map, nothing).build()) {
      Object caller = s.run(callerArgs);

      assertEquals(6f, ((FloatNdArray) single.values.results()).getFloat(), 0f);
      List<?> l = (List<?>) list.values.results();
      assertEquals(2, l.size());
      assertTrue(l.get(0) instanceof FloatNdArray);
      assertTrue(l.get(1) instanceof LongNdArray);
      Map<?, ?> m = (Map<?, ?>) map.values.results();
      assertEquals(List.of("value", "op"), new ArrayList<>(m.keySet()));
      assertTrue(m.get("value") instanceof FloatNdArray);
      assertNull(m.get("op"));
      assertNull(nothing.values.results());

      Map<?, ?> c = (Map<?, ?>) caller;
      assertEquals(
          callerArgs.fetches(),
          Map.of("step", GlobalStep.TENSOR_NAME, "train", List.of(CounterGraph.TRAIN)));
      assertTrue(c.get("step") instanceof LongNdArray);
      assertEquals(java.util.Arrays.asList((Object) null), c.get("train"));
      for (AskingHook h : List.of(single, list, map, nothing)) {
        assertSame(callerArgs, h.context.originalArgs());
      }
      // the same run's values: the caller's step and the list hook's step are one fetch
      assertEquals(((LongNdArray) c.get("step")).getLong(), ((LongNdArray) l.get(1)).getLong());
    }
  }

  @Test
  public void valuesStayValidAfterTheRun() {
    AskingHook hook = new AskingHook(SessionRunArgs.of("v:0"));
    List<NdArray<?>> kept = new ArrayList<>();
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      for (int i = 0; i < 3; i++) {
        s.run(CounterGraph.TRAIN);
        kept.add((NdArray<?>) hook.values.results());
      }
    }
    // v is read concurrently with bump in the same run, so only check the copies are sane numbers.
    for (NdArray<?> v : kept) {
      float f = ((FloatNdArray) v).getFloat();
      assertTrue("kept value " + f, f >= 0f && f <= 3f);
    }
  }

  @Test
  public void aRawRunInsideACallbackFiresNoHooks() {
    RecordingHook rawRunner =
        new RecordingHook(calls) {
          @Override
          void afterRecorded(SessionRunContext runContext, long step) {
            runContext.session().run("bump");
            runContext
                .session()
                .run(List.of("v:0", "double:0"), Map.of("x", NdArrays.scalarOf(1f)));
          }
        };
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(rawRunner).build()) {
      s.run(CounterGraph.TRAIN);
      s.run(CounterGraph.TRAIN);
      assertEquals(4f, ((FloatNdArray) s.runWithoutHooks("v:0", Map.of(), null)).getFloat(), 0f);
    }
    assertEquals(
        List.of("begin", "afterCreateSession", "before:0", "after:0", "before:1", "after:1", "end"),
        calls);
  }

  @Test
  public void twoHooksFeedingOneTensorFailBeforeAnythingRuns() {
    AskingHook first =
        new AskingHook(SessionRunArgs.of("double:0", Map.of("x", NdArrays.scalarOf(1f))));
    AskingHook second = new AskingHook(SessionRunArgs.of(null, Map.of("x", NdArrays.scalarOf(2f))));
    RecordingHook third = new RecordingHook(calls);
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession s = MonitoredSession.builder(g).hooks(first, second, third).build();
      HookFeedConflictException e;
      try (s) {
        e = assertThrows(HookFeedConflictException.class, () -> s.run(CounterGraph.TRAIN));
      }
      assertEquals("x", e.tensor());
      String msg = e.getMessage();
      assertTrue(msg, msg.contains("'x'"));
      assertTrue(msg, msg.contains("hook #1 (" + AskingHook.class.getName() + ")"));
      assertTrue(msg, msg.contains("hook #2 (" + AskingHook.class.getName() + ")"));
      assertNull(first.values);
      assertEquals(List.of("begin", "afterCreateSession"), calls); // no beforeSessionRun, no end
    }
  }

  @Test
  public void aHookFeedingWhatTheCallerFeedsFails() {
    AskingHook feeder = new AskingHook(SessionRunArgs.of(null, Map.of("x", NdArrays.scalarOf(1f))));
    RecordingHook recorder = new RecordingHook(calls);
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession s = MonitoredSession.builder(g).hooks(recorder, feeder).build();
      CallerFeedConflictException e;
      try (s) {
        e =
            assertThrows(
                CallerFeedConflictException.class,
                () -> s.run("double:0", Map.of("x", NdArrays.scalarOf(5f))));
      }
      assertEquals("x", e.tensor());
      assertTrue(
          e.getMessage(), e.getMessage().contains("hook #2 (" + AskingHook.class.getName() + ")"));
      assertTrue(e.getMessage(), e.getMessage().contains("caller"));
      assertEquals(List.of("begin", "afterCreateSession", "before:0"), calls);
    }
  }

  @Test
  public void aNameNotInTheGraphIsNamedInTheError() {
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession s =
          MonitoredSession.builder(g).hooks(new AskingHook(SessionRunArgs.of("nope:0"))).build();
      try (s) {
        GraphNameException e =
            assertThrows(GraphNameException.class, () -> s.run(CounterGraph.TRAIN));
        assertEquals("nope:0", e.name());
        assertEquals("hook #1 (" + AskingHook.class.getName() + ")", e.hook());
        assertEquals("beforeSessionRun", e.callback());
        assertTrue(e.getMessage(), e.getMessage().contains("'nope:0'"));
      }
      // the caller's own names fail in the run, naming the name
      MonitoredSession s2 = MonitoredSession.builder(g).build();
      try (s2) {
        IllegalArgumentException c =
            assertThrows(IllegalArgumentException.class, () -> s2.run("missing_op"));
        assertTrue(c.getMessage(), c.getMessage().contains("'missing_op'"));
      }
    }
  }

  /** Raw runs by hooks, as Python's TfSessionView: GraphNameError naming hook and callback. */
  @Test
  public void aHooksRawRunOfANameNotInTheGraphNamesTheHookAndTheCallback() {
    Hook rawRunner =
        new Hook() {
          @Override
          public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
            runContext.session().run(List.of(TfSession.GLOBAL_STEP, "absent:0"));
          }
        };
    Hook targetRunner =
        new Hook() {
          @Override
          public void afterCreateSession(org.jhooks.Session session, org.jhooks.Coordinator c) {
            session.run("absent_op");
          }
        };
    try (Graph g = CounterGraph.counter()) {
      try (MonitoredSession s =
          MonitoredSession.builder(g).hooks(new AskingHook(null), rawRunner).build()) {
        GraphNameException e =
            assertThrows(GraphNameException.class, () -> s.run(CounterGraph.TRAIN));
        assertEquals("absent:0", e.name());
        assertEquals("hook #2 (" + rawRunner.getClass().getName() + ")", e.hook());
        assertEquals("afterSessionRun", e.callback());
        assertTrue(e.getMessage(), e.getMessage().contains("is not in the session's graph"));
      }
      GraphNameException t =
          assertThrows(
              GraphNameException.class,
              () -> MonitoredSession.builder(g).hooks(targetRunner).build().close());
      assertEquals("absent_op", t.name());
      assertEquals("afterCreateSession", t.callback());
    }
  }

  @Test
  public void aHookFeedOfTheWrongShapeOrTypeIsNamedBeforeAnythingRuns() {
    // x is a float32 scalar placeholder: the C API would run a [3] feed silently
    AskingHook wrongShape =
        new AskingHook(SessionRunArgs.of("double:0", Map.of("x:0", NdArrays.vectorOf(1f, 2f, 3f))));
    AskingHook wrongType =
        new AskingHook(SessionRunArgs.of("double:0", Map.of("x:0", NdArrays.scalarOf(true))));
    for (AskingHook bad : List.of(wrongShape, wrongType)) {
      calls.clear();
      try (Graph g = CounterGraph.counter()) {
        MonitoredSession s =
            MonitoredSession.builder(g).hooks(new RecordingHook(calls), bad).build();
        HookException e;
        try (s) {
          e = assertThrows(HookException.class, () -> s.run(CounterGraph.TRAIN));
        }
        assertEquals("hook #2 (" + AskingHook.class.getName() + ")", e.hook());
        assertEquals("beforeSessionRun", e.callback());
        String expected =
            bad == wrongShape
                ? "feed 'x:0': a value of shape [3] does not fit the tensor's shape []"
                : "feed 'x:0': cannot feed BooleanDenseNdArray of shape [] (bool) as DT_FLOAT;"
                    + " only numbers convert to other number types";
        assertEquals(e.hook() + ".beforeSessionRun: " + expected, e.getMessage());
        assertEquals(List.of("begin", "afterCreateSession", "before:0"), calls);
      }
    }
    // the caller's own feed of the wrong shape fails in the run, naming the tensor
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).build()) {
      IllegalArgumentException c =
          assertThrows(
              IllegalArgumentException.class,
              () -> s.run("double:0", Map.of("x:0", NdArrays.vectorOf(1f, 2f))));
      assertEquals(
          "feed 'x:0': a value of shape [2] does not fit the tensor's shape []", c.getMessage());
    }
  }

  @Test
  public void aNumericFeedOfAnotherElementTypeIsCastAsTensorFlowsPythonSessionDoes() {
    // np.asarray(value, dtype) in TF's Python session: float64 2.0 and int64 3 feed a float32 x
    for (NdArray<?> value : List.of(NdArrays.scalarOf(2.0), NdArrays.scalarOf(3L))) {
      AskingHook feeder = new AskingHook(SessionRunArgs.of("double:0", Map.of("x:0", value)));
      try (Graph g = CounterGraph.counter();
          MonitoredSession s = MonitoredSession.builder(g).hooks(feeder).build()) {
        s.run(CounterGraph.TRAIN);
        float fed = ((Number) value.getObject()).floatValue();
        assertEquals(2 * fed, ((FloatNdArray) feeder.values.results()).getFloat(), 0f);
      }
    }
  }

  @Test
  public void traceOptionsReturnRunMetadata() {
    AskingHook tracer = new AskingHook(new SessionRunArgs("v:0", null, RunOptions.ofTraceLevel(3)));
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(tracer).build()) {
      s.run(
          new SessionRunArgs(CounterGraph.TRAIN, null, new RunOptions(0, 60_000, 0, false, false)));
      assertEquals(new RunOptions(3, 60_000, 0, false, false), tracer.values.options());
      assertTrue(tracer.values.runMetadata() != null && tracer.values.runMetadata().length > 0);
    }
  }

  @Test
  public void chiefOnlyHooksGetNothingOnANonChief() {
    List<String> chiefCalls = new ArrayList<>();
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .isChief(false)
                .chiefOnlyHooks(new RecordingHook(chiefCalls))
                .hooks(new RecordingHook(calls))
                .build()) {
      s.run(CounterGraph.TRAIN);
      assertEquals(1, s.hooks().size());
    }
    assertEquals(List.of(), chiefCalls);
    assertEquals(List.of("begin", "afterCreateSession", "before:0", "after:0", "end"), calls);
  }

  @Test
  @SuppressWarnings("try") // closes s inside its try to read what close() saved
  public void chiefHookOrderIsChiefOnlyThenBuiltInsThenUserHooks() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("jhooks-order");
    RecordingHook chief = new RecordingHook(calls, "C:");
    RecordingHook user = new RecordingHook(calls, "U:");
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .chiefOnlyHooks(chief)
                .hooks(user)
                .checkpointDir(dir)
                .saveCheckpointSteps(2)
                .logStepCountSteps(1)
                .build()) {
      List<Hook> hooks = s.hooks();
      assertSame(chief, hooks.get(0));
      assertTrue(hooks.get(1) instanceof StepCounterHook);
      assertTrue(hooks.get(2) instanceof CheckpointSaverHook);
      assertSame(user, hooks.get(3));
      for (int i = 0; i < 5; i++) {
        s.run(CounterGraph.TRAIN);
      }
      s.close();
      assertEquals(List.of(0L, 2L, 4L, 5L), ((CheckpointSaverHook) hooks.get(2)).savedSteps());
      assertTrue(((StepCounterHook) hooks.get(1)).lastRate() > 0);
    }
  }
}
