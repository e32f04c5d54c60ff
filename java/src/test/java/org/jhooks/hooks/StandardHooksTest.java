package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.MonitoredSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.exceptions.TFOutOfRangeException;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.proto.Event;
import org.tensorflow.proto.SessionLog;
import org.tensorflow.types.TString;

/** Every standard hook except the savers, on the JVM driver with real graphs. */
public class StandardHooksTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  /** Captures a hook logger's records as "LEVEL message". */
  static final class Captured extends Handler implements AutoCloseable {
    final List<String> lines = new ArrayList<>();
    private final Logger logger;

    Captured(String name) {
      logger = Logger.getLogger(name);
      logger.addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord r) {
      lines.add(r.getLevel() + " " + r.getMessage());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }

  @Test
  public void stopAtStepStopsAtNumStepsOrLastStep() {
    try (Graph g = CounterGraph.counter()) {
      StopAtStepHook h = StopAtStepHook.ofNumSteps(4);
      assertEquals(4, HookGraphs.train(g, 100, h));
      assertEquals(Long.valueOf(4), h.lastStep());
    }
    try (Graph g = CounterGraph.counter()) {
      assertEquals(6, HookGraphs.train(g, 100, StopAtStepHook.ofLastStep(6)));
    }
    assertEquals(
        "Only one of num_steps or last_step can be specified.",
        assertThrows(IllegalArgumentException.class, () -> new StopAtStepHook(1L, 2L))
            .getMessage());
    assertEquals(
        "One of num_steps or last_step must be specified.",
        assertThrows(IllegalArgumentException.class, () -> new StopAtStepHook(null, null))
            .getMessage());
  }

  @Test
  public void finalOpsValuesHaveTheStructureOfFinalOps() {
    Map<String, Object> ops = new LinkedHashMap<>();
    ops.put("v", "v:0");
    ops.put("more", List.of("global_step:0", "double:0"));
    FinalOpsHook h = new FinalOpsHook(ops, Map.of("x:0", NdArrays.scalarOf(21f)));
    assertNull(h.finalOpsValues());
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 3, h);
    }
    Map<?, ?> values = (Map<?, ?>) h.finalOpsValues();
    assertEquals(List.of("v", "more"), new ArrayList<>(values.keySet()));
    assertEquals(3f, ((FloatNdArray) values.get("v")).getFloat(), 0f);
    List<?> more = (List<?>) values.get("more");
    assertEquals(3L, ((NdArray<?>) more.get(0)).getObject());
    assertEquals(42f, ((FloatNdArray) more.get(1)).getFloat(), 0f);
  }

  @Test
  public void finalOpsAreNotRunWhenTheSessionEndsWithAnError() {
    FinalOpsHook h = new FinalOpsHook("v:0");
    Hook failing =
        new Hook() {
          @Override
          public void afterSessionRun(SessionRunContext c, SessionRunValues v) {
            throw new IllegalStateException("boom");
          }
        };
    try (Graph g = CounterGraph.counter()) {
      assertThrows(IllegalStateException.class, () -> HookGraphs.train(g, 3, h, failing));
    }
    assertNull(h.finalOpsValues());
  }

  @Test
  public void finalOpsEndOfInputIsLoggedAndRaisedAsAnErrorNamingTheHook() {
    FinalOpsHook h = new FinalOpsHook("next:0");
    try (Graph g = CounterGraph.counterWithInput(2);
        Captured log = new Captured("org.jhooks.hooks.FinalOpsHook")) {
      MonitoredSession s = MonitoredSession.builder(g).hooks(h).build();
      while (!s.shouldStop()) {
        s.run("next:0");
      }
      assertTrue(s.reachedEndOfInput());
      HookException e = assertThrows(HookException.class, s::close);
      assertEquals("end", e.callback());
      assertTrue(e.hook(), e.hook().contains("FinalOpsHook"));
      assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof TFOutOfRangeException);
      assertEquals(
          List.of(
              "WARNING FinalOpsHook: end of input (OutOfRange) raised by the final ops run; "
                  + "final ops should depend only on variables, not on the input pipeline"),
          log.lines);
    }
  }

  @Test
  public void nanLossFailsOrStops() {
    float[] xs = {4f, 1f, -1f, 9f};
    try (Graph g = CounterGraph.counter();
        Captured log = new Captured("org.jhooks.hooks.NanTensorHook")) {
      NanLossDuringTrainingException e =
          assertThrows(
              NanLossDuringTrainingException.class,
              () -> feedTrain(g, xs, new NanTensorHook("sqrt_x:0")));
      assertEquals(3L, e.globalStep());
      assertTrue(e.getMessage(), e.getMessage().startsWith("NaN loss during training."));
      assertEquals(List.of("SEVERE Model diverged with loss = NaN."), log.lines);
    }
    try (Graph g = CounterGraph.counter();
        Captured log = new Captured("org.jhooks.hooks.NanTensorHook")) {
      assertEquals(3, feedTrain(g, xs, new NanTensorHook("sqrt_x:0", false)));
      assertEquals(List.of("WARNING Model diverged with loss = NaN."), log.lines);
    }
  }

  /** Trains feeding x = xs[i] at run i; returns the runs done. */
  private static int feedTrain(Graph g, float[] xs, Hook... hooks) {
    int runs = 0;
    try (MonitoredSession s = MonitoredSession.builder(g).hooks(hooks).build()) {
      while (!s.shouldStop() && runs < xs.length) {
        s.run(List.of(CounterGraph.TRAIN, "sqrt_x:0"), Map.of("x:0", NdArrays.scalarOf(xs[runs])));
        runs++;
      }
    }
    return runs;
  }

  @Test
  public void loggingTensorHookLogsEveryNIterAndAtEnd() {
    Map<String, String> tensors = new LinkedHashMap<>();
    tensors.put("v", "v:0");
    tensors.put("step", "global_step:0");
    LoggingTensorHook h = new LoggingTensorHook(tensors, 2, null, true, null);
    try (Graph g = CounterGraph.counter();
        Captured log = new Captured("org.jhooks.hooks.LoggingTensorHook")) {
      HookGraphs.train(g, 5, h);
      List<String> lines = h.loggedLines();
      // Runs 0, 2, 4 and the end; tags in sorted order, as TF. Values fetched with the train op
      // may be read before or after its increment, so only the end line has exact values.
      assertEquals(lines.toString(), 4, lines.size());
      assertTrue(lines.get(0), lines.get(0).matches("step = [01], v = [01]\\.0"));
      assertTrue(
          lines.get(1), lines.get(1).matches("step = [23], v = [23]\\.0 \\(\\d+\\.\\d{3} sec\\)"));
      assertTrue(lines.get(3), lines.get(3).matches("step = 5, v = 5\\.0 \\(\\d+\\.\\d{3} sec\\)"));
      assertEquals(lines.stream().map(l -> "INFO " + l).collect(Collectors.toList()), log.lines);
    }
    assertEquals(
        "either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.",
        assertThrows(
                IllegalArgumentException.class,
                () -> new LoggingTensorHook(List.of("v:0"), null, null, false, null))
            .getMessage());
    assertEquals(
        "invalid every_n_iter=0.",
        assertThrows(
                IllegalArgumentException.class,
                () -> new LoggingTensorHook(List.of("v:0"), 0, null, false, null))
            .getMessage());
  }

  @Test
  public void loggingTensorHookFormatterAndFeeds() {
    int[] run = {0};
    FeedFnHook feed = new FeedFnHook(() -> Map.of("x:0", NdArrays.scalarOf((float) run[0]++)));
    LoggingTensorHook h =
        new LoggingTensorHook(
            List.of("double:0"),
            3,
            null,
            false,
            values -> "2x is " + values.get("double:0").getObject());
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 7, feed, h);
    }
    assertEquals(List.of("2x is 0.0", "2x is 6.0", "2x is 12.0"), h.loggedLines());
  }

  @Test
  public void feedFnHookFeedsEveryRun() {
    int[] calls = {0};
    FeedFnHook h = new FeedFnHook(() -> Map.of("x:0", NdArrays.scalarOf((float) ++calls[0])));
    List<Float> doubled = new ArrayList<>();
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(h).build()) {
      for (int i = 0; i < 3; i++) {
        doubled.add(((FloatNdArray) s.run("double:0")).getFloat());
      }
    }
    assertEquals(List.of(2f, 4f, 6f), doubled);
  }

  @Test
  public void stepCounterLogsAndWritesTheRate() throws Exception {
    Path dir = tmp.newFolder().toPath();
    StepCounterHook h = new StepCounterHook(2, null, dir.toString(), null);
    try (Graph g = CounterGraph.counter();
        Captured log = new Captured("org.jhooks.hooks.StepCounterHook")) {
      HookGraphs.train(g, 9, h);
      assertNotNull(h.lastRate());
      assertTrue(h.lastRate() > 0);
      assertTrue(log.lines.toString(), log.lines.size() >= 3);
      for (String l : log.lines) {
        assertTrue(l, l.matches("INFO global_step/sec: [0-9.e+]+"));
      }
    }
    List<Event> events = EventFiles.readAll(dir);
    assertEquals("brain.Event:2", events.get(0).getFileVersion());
    List<Long> steps =
        events.stream()
            .filter(Event::hasSummary)
            .peek(e -> assertEquals("global_step/sec", e.getSummary().getValue(0).getTag()))
            .map(Event::getStep)
            .collect(Collectors.toList());
    assertEquals(
        List.of(2L, 4L, 6L, 8L),
        steps.subList(0, 4).stream().map(s -> s - s % 2).collect(Collectors.toList()));
    assertEquals(
        "exactly one of every_n_steps and every_n_secs should be provided.",
        assertThrows(IllegalArgumentException.class, () -> new StepCounterHook(1, 1.0, null, null))
            .getMessage());
  }

  @Test
  public void summarySaverWritesScalarsAtTheGlobalStep() throws Exception {
    Path dir = tmp.newFolder().toPath();
    SummarySaverHook h =
        new SummarySaverHook(3, null, dir.toString(), null, null, Map.of("v", "v:0"));
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 8, h);
    }
    List<Event> events = EventFiles.readAll(dir);
    assertEquals("brain.Event:2", events.get(0).getFileVersion());
    assertEquals(SessionLog.SessionStatus.START, events.get(1).getSessionLog().getStatus());
    assertEquals(1L, events.get(1).getStep());
    List<Long> steps =
        events.stream().filter(Event::hasSummary).map(Event::getStep).collect(Collectors.toList());
    // The step fetched with the train op may be read before or after its increment (TF has the
    // same race), which moves the next request by one step: both schedules are TF's logic.
    assertTrue(
        steps.toString(),
        steps.equals(List.of(1L, 4L, 7L)) || steps.equals(List.of(1L, 3L, 5L, 7L)));
    for (Event e : events) {
      if (e.hasSummary()) {
        float v = e.getSummary().getValue(0).getSimpleValue();
        // v is read in the same run as the step's increment: before or after it.
        assertTrue(e.getStep() + ": " + v, v == e.getStep() || v == e.getStep() - 1);
      }
    }
    assertEquals(steps.size(), h.writtenSteps().size());
    assertEquals(
        "Exactly one of scaffold or summary_op must be provided.",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SummarySaverHook(1, null, "/tmp/x", null, null, null))
            .getMessage());
  }

  @Test
  public void eventFileWriterKeepsRealSerializedSummariesIntact() throws Exception {
    Path dir = tmp.newFolder().toPath();
    byte[] serialized;
    try (Graph g = CounterGraph.counter();
        Session s = new Session(g)) {
      try (Result r = s.runner().fetch("v_summary").run()) {
        serialized = ((TString) r.get(0)).asBytes().getObject();
      }
    }
    try (EventFileWriter w = new EventFileWriter(dir.toString())) {
      w.addSummary(serialized, 5);
    }
    List<Event> events = EventFiles.readAll(dir);
    assertEquals(2, events.size());
    assertEquals(5L, events.get(1).getStep());
    assertEquals("v", events.get(1).getSummary().getValue(0).getTag());
  }

  @Test
  public void progressBarPrintsPeriodicLinesToAStream() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ProgressBarHook h =
        new ProgressBarHook(5L, List.of("global_step:0"), 1, new PrintStream(out, true));
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 100, h, StopAtStepHook.ofLastStep(5));
    }
    assertEquals(5, h.position());
    String text = new String(out.toByteArray(), StandardCharsets.UTF_8);
    assertFalse(text, text.contains("\r"));
    String[] lines = text.split("\n");
    String line = "\\d/5 steps \\(\\d+%\\), [0-9.]+ s, [0-9.]+ step/s, global_step:0=\\d";
    for (String l : lines) {
      assertTrue(text, l.matches(line));
    }
    // the first run is sampled (the global step re-read after it is 1), then at most every 0.2 s
    assertTrue(text, lines[0].startsWith("1/5 steps (20%), "));
    assertTrue(text, lines[lines.length - 1].startsWith("5/5 steps (100%), "));
    assertEquals(lines[lines.length - 1], h.lastLine());
  }

  @Test
  public void progressBarOpenEndedPrintsOneLineAtTheEndWithinThirtySeconds() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ProgressBarHook h = new ProgressBarHook(null, null, 1, new PrintStream(out, true));
    Hook slow =
        new Hook() {
          @Override
          public void afterSessionRun(SessionRunContext c, SessionRunValues v) {
            try {
              Thread.sleep(30);
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
          }
        };
    long t0 = System.nanoTime();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 40, h, slow);
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    assertEquals(40, h.position());
    // open-ended: no tenths, no 30 s line in 1.2 s, so only the end's line
    String text = new String(out.toByteArray(), StandardCharsets.UTF_8);
    assertTrue(text, text.matches("40 steps, [0-9.]+ s, [0-9.]+ step/s\n"));
    assertTrue(secs + " s", secs >= 1.2);
  }
}
