package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jhooks.HookException;
import org.jhooks.SessionRunContext;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.hooks.CheckpointSaverHook;
import org.jhooks.testing.CounterGraph;
import org.jhooks.testing.FaultInjectingSessionCreator;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.exceptions.TFInvalidArgumentException;
import org.tensorflow.exceptions.TensorFlowException;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArrays;

/**
 * {@link MonitoredSession#runWithoutHooks}: no hook fires, and it recovers like TensorFlow's {@code
 * run_step_fn} (the twin of Python's {@code jhooks.tf.run_without_hooks}; TF #11971), on real
 * sessions with faults injected by {@link FaultInjectingSessionCreator}.
 */
public class RunWithoutHooksTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private final List<String> calls = new ArrayList<>();

  @Test
  public void anAbortedRunWithoutHooksIsRetriedOnARecreatedSession() {
    // counted runs are those with the train op: 1 = the hooked run, 2 = the run without hooks
    FaultInjectingSessionCreator creator =
        new FaultInjectingSessionCreator(
                new CheckpointRestoringSessionCreator(null), CounterGraph.TRAIN)
            .failRun(2, ErrorCodes.Code.ABORTED);
    try (Graph g = CounterGraph.counter()) {
      Object result;
      try (MonitoredSession s =
          MonitoredSession.builder(g)
              .hooks(new RecordingHook(calls))
              .sessionCreator(creator)
              .build()) {
        s.run(CounterGraph.TRAIN);
        result = s.runWithoutHooks(List.of(CounterGraph.TRAIN, "v:0"), Map.of(), null);
        assertEquals(1, s.recoveryCount());
        // the new session initialized v again; the retried run made the first step on it
        assertEquals(1L, s.session().globalStep());
      }
      assertEquals(2, creator.sessionCount());
      assertEquals(3, creator.runCount());
      List<?> r = (List<?>) result;
      assertNull(r.get(0));
      float v = ((FloatNdArray) r.get(1)).getFloat();
      assertTrue("v read in the retried run: " + v, v == 0f || v == 1f);
      // afterCreateSession again, begin once, no before/after for the run without hooks
      assertEquals(
          List.of(
              "begin", "afterCreateSession", "before:0", "after:0", "afterCreateSession", "end"),
          calls);
    }
  }

  @Test
  public void anUnavailableRunWithoutHooksRestoresTheLatestCheckpoint() throws Exception {
    Path dir = tmp.newFolder("ckpt").toPath();
    FaultInjectingSessionCreator creator =
        new FaultInjectingSessionCreator(
                new CheckpointRestoringSessionCreator(dir), CounterGraph.TRAIN)
            .failRun(3, ErrorCodes.Code.UNAVAILABLE);
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredSession.builder(g)
                .hooks(
                    CheckpointSaverHook.builder(dir.toString()).saveSteps(100).build(),
                    new RecordingHook(calls))
                .sessionCreator(creator)
                .build()) {
      s.run(CounterGraph.TRAIN);
      s.run(CounterGraph.TRAIN); // steps 1, 2; the saver wrote step 0 in afterCreateSession
      assertTrue(Checkpoints.latestCheckpoint(dir).isPresent());
      List<?> r =
          (List<?>)
              s.runWithoutHooks(
                  List.of(CounterGraph.TRAIN, GlobalStep.TENSOR_NAME), Map.of(), null);
      assertEquals(1, s.recoveryCount());
      assertNull(r.get(0));
      // restored to step 0 from the checkpoint of the first session, then one train run
      assertEquals(1L, s.session().globalStep());
      long fetched = ((LongNdArray) r.get(1)).getLong();
      assertTrue("global step fetched with train: " + fetched, fetched == 0L || fetched == 1L);
    }
    assertEquals(
        List.of(
            "begin",
            "afterCreateSession",
            "before:0",
            "after:0",
            "before:1",
            "after:1",
            "afterCreateSession",
            "end"),
        calls);
  }

  @Test
  public void anotherErrorPropagatesUnchangedAfterOnErrorAndEndIsNotCalled() {
    try (Graph g = CounterGraph.counter()) {
      OnErrorRecorder hook = new OnErrorRecorder(calls);
      MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build();
      s.run(CounterGraph.TRAIN);
      TFInvalidArgumentException e =
          assertThrows(
              TFInvalidArgumentException.class,
              () ->
                  s.runWithoutHooks("checked:0", Map.of("x", NdArrays.scalarOf(Float.NaN)), null));
      assertTrue(e.getMessage(), e.getMessage().contains("x has NaN"));
      assertSame(e, hook.error);
      assertTrue(s.shouldStop());
      assertThrows(IllegalStateException.class, () -> s.run(CounterGraph.TRAIN));
      s.close();
      assertEquals(List.of("begin", "afterCreateSession", "before:0", "after:0", "onError"), calls);
    }
  }

  @Test
  public void recoveryIsBoundedByMaxRecoveries() {
    FaultInjectingSessionCreator creator =
        new FaultInjectingSessionCreator(
                new CheckpointRestoringSessionCreator(null), CounterGraph.TRAIN)
            .failRun(1, ErrorCodes.Code.ABORTED)
            .failRun(2, ErrorCodes.Code.ABORTED);
    try (Graph g = CounterGraph.counter()) {
      OnErrorRecorder hook = new OnErrorRecorder(calls);
      MonitoredSession s =
          MonitoredSession.builder(g).hooks(hook).sessionCreator(creator).maxRecoveries(1).build();
      TensorFlowException e =
          assertThrows(
              TensorFlowException.class,
              () -> s.runWithoutHooks(CounterGraph.TRAIN, Map.of(), null));
      assertTrue(ErrorCodes.isRecoverable(e));
      assertEquals(1, s.recoveryCount());
      assertSame(e, hook.error);
      s.close();
      assertEquals(List.of("begin", "afterCreateSession", "afterCreateSession", "onError"), calls);
    }
  }

  @Test
  public void theEndOfInputInARunWithoutHooksEndsTheInputLikeARun() {
    try (Graph g = CounterGraph.counterWithInput(1);
        MonitoredSession s = MonitoredSession.builder(g).hooks(new RecordingHook(calls)).build()) {
      assertEquals(1f, ((FloatNdArray) s.runWithoutHooks("next:0", null, null)).getFloat(), 0f);
      assertNull(s.runWithoutHooks("next:0", null, null));
      assertTrue(s.reachedEndOfInput());
      assertTrue(s.shouldStop());
    }
    assertEquals(List.of("begin", "afterCreateSession", "end"), calls);
  }

  @Test
  public void calledFromInsideACallbackItIsAHookExceptionNamingTheHook() {
    MonitoredSession[] self = new MonitoredSession[1];
    RecordingHook reentrant =
        new RecordingHook(calls) {
          @Override
          void afterRecorded(SessionRunContext runContext, long step) {
            self[0].runWithoutHooks("v:0", null, null);
          }
        };
    try (Graph g = CounterGraph.counter()) {
      self[0] = MonitoredSession.builder(g).hooks(reentrant).build();
      HookException e = assertThrows(HookException.class, () -> self[0].run(CounterGraph.TRAIN));
      assertTrue(e.getMessage(), e.getMessage().contains("afterSessionRun"));
      assertTrue(e.getMessage(), e.getMessage().contains("runWithoutHooks"));
      self[0].close();
    }
  }

  /** A {@link RecordingHook} that also records {@code onError} and keeps the error. */
  static final class OnErrorRecorder extends RecordingHook {
    Throwable error;

    OnErrorRecorder(List<String> calls) {
      super(calls);
    }

    @Override
    public void onError(org.jhooks.Session session, Throwable error) {
      this.error = error;
      calls.add("onError");
    }
  }
}
