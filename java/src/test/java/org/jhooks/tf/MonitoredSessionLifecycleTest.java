package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.ModelDependentHook;
import org.jhooks.ModelInstance;
import org.jhooks.SessionRunArgs;
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
import org.tensorflow.ndarray.NdArrays;

/** The exception table of docs/contract.md, checked as whole call sequences on real sessions. */
public class MonitoredSessionLifecycleTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private final List<String> calls = new ArrayList<>();

  @Test
  public void normalEnd() {
    try (Graph g = CounterGraph.counter()) {
      try (MonitoredSession s =
          MonitoredSession.builder(g).hooks(new RecordingHook(calls)).build()) {
        for (int i = 0; i < 3; i++) {
          s.run(CounterGraph.TRAIN);
        }
        assertFalse(s.shouldStop());
      }
      assertEquals(
          List.of(
              "begin",
              "afterCreateSession",
              "before:0",
              "after:0",
              "before:1",
              "after:1",
              "before:2",
              "after:2",
              "end"),
          calls);
    }
  }

  @Test
  public void stopRequestedByRunContext() {
    checkStopAtStep1(ctx -> ctx.requestStop());
  }

  @Test
  public void stopRequestedByCoordinator() {
    checkStopAtStep1Hook(
        new RecordingHook(calls, "S:") {
          @Override
          void afterRecorded(SessionRunContext runContext, long step) {
            if (step == 1) {
              coord.requestStop();
            }
          }
        });
  }

  private void checkStopAtStep1(java.util.function.Consumer<SessionRunContext> stop) {
    checkStopAtStep1Hook(
        new RecordingHook(calls, "S:") {
          @Override
          void afterRecorded(SessionRunContext runContext, long step) {
            if (step == 1) {
              stop.accept(runContext);
            }
          }
        });
  }

  // The stopping hook is first; the second hook still gets afterSessionRun for the stopping run.
  private void checkStopAtStep1Hook(RecordingHook stopper) {
    try (Graph g = CounterGraph.counter()) {
      int runs = 0;
      try (MonitoredSession s =
          MonitoredSession.builder(g).hooks(stopper, new RecordingHook(calls)).build()) {
        while (!s.shouldStop()) {
          s.run(CounterGraph.TRAIN);
          runs++;
        }
      }
      assertEquals(2, runs);
      assertEquals(
          List.of(
              "S:begin",
              "begin",
              "S:afterCreateSession",
              "afterCreateSession",
              "S:before:0",
              "before:0",
              "S:after:0",
              "after:0",
              "S:before:1",
              "before:1",
              "S:after:1",
              "after:1",
              "S:end",
              "end"),
          calls);
    }
  }

  @Test
  public void endOfInput() {
    try (Graph g = CounterGraph.counterWithInput(3)) {
      List<Float> seen = new ArrayList<>();
      MonitoredSession s = MonitoredSession.builder(g).hooks(new RecordingHook(calls)).build();
      try (s) {
        while (!s.shouldStop()) {
          @SuppressWarnings("unchecked")
          List<Object> out = (List<Object>) s.run(List.of("next:0", CounterGraph.TRAIN));
          if (out != null) {
            seen.add(((FloatNdArray) out.get(0)).getFloat());
            assertNull(out.get(1));
          }
        }
        assertTrue(s.reachedEndOfInput());
        assertTrue(s.shouldStop());
      }
      assertEquals(List.of(1f, 2f, 3f), seen);
      assertEquals(
          List.of(
              "begin",
              "afterCreateSession",
              "before:0",
              "after:0",
              "before:1",
              "after:1",
              "before:2",
              "after:2",
              "before:3",
              "end"),
          calls);
    }
  }

  @Test
  public void otherErrorInRunPropagatesAndSkipsEnd() {
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession s = MonitoredSession.builder(g).hooks(new RecordingHook(calls)).build();
      TFInvalidArgumentException e;
      try (s) {
        s.run("checked:0", Map.of("x", NdArrays.scalarOf(1f)));
        e =
            assertThrows(
                TFInvalidArgumentException.class,
                () -> s.run("checked:0", Map.of("x", NdArrays.scalarOf(Float.NaN))));
        assertTrue(s.shouldStop());
        assertThrows(IllegalStateException.class, s::session);
      }
      assertTrue(e.getMessage(), e.getMessage().contains("x has NaN"));
      assertEquals(
          List.of("begin", "afterCreateSession", "before:0", "after:0", "before:0"), calls);
    }
  }

  /**
   * A hook with background work: records close() and fails in it, as a failed async write would.
   */
  private static final class ClosingHook implements Hook, AutoCloseable {
    private final List<String> calls;

    ClosingHook(List<String> calls) {
      this.calls = calls;
    }

    @Override
    public void close() {
      calls.add("close");
      throw new IllegalStateException("background write failed");
    }
  }

  @Test
  public void afterAnErrorAutoCloseableHooksAreClosedAndTheirFailureIsSuppressedOnTheError() {
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession s =
          MonitoredSession.builder(g)
              .hooks(new RecordingHook(calls), new ClosingHook(calls))
              .build();
      TFInvalidArgumentException e;
      try (s) {
        e =
            assertThrows(
                TFInvalidArgumentException.class,
                () -> s.run("checked:0", Map.of("x", NdArrays.scalarOf(Float.NaN))));
      }
      assertEquals(List.of("begin", "afterCreateSession", "before:0", "close"), calls);
      assertEquals(1, e.getSuppressed().length);
      HookException closing = (HookException) e.getSuppressed()[0];
      assertTrue(closing.getMessage(), closing.getMessage().startsWith("hook #2 ("));
      assertTrue(
          closing.getMessage(),
          closing.getMessage().contains(".close: failed after the session failed"));
      assertEquals("background write failed", closing.getCause().getMessage());
    }
  }

  @Test
  public void errorInCallbackNamesHookAndStopsLaterCallbacks() {
    try (Graph g = CounterGraph.counter()) {
      RecordingHook failing =
          new RecordingHook(calls, "F:") {
            @Override
            void afterRecorded(SessionRunContext runContext, long step) {
              if (step == 1) {
                throw new IllegalStateException("boom at 1");
              }
            }
          };
      MonitoredSession s =
          MonitoredSession.builder(g)
              .hooks(new RecordingHook(calls, "A:"), failing, new RecordingHook(calls, "C:"))
              .build();
      IllegalStateException e;
      try (s) {
        s.run(CounterGraph.TRAIN);
        e = assertThrows(IllegalStateException.class, () -> s.run(CounterGraph.TRAIN));
      }
      assertEquals("boom at 1", e.getMessage());
      HookException where = (HookException) e.getSuppressed()[0];
      assertEquals("hook #2 (" + failing.getClass().getName() + ")", where.hook());
      assertEquals("afterSessionRun", where.callback());
      assertEquals(
          List.of(
              "A:begin",
              "F:begin",
              "C:begin",
              "A:afterCreateSession",
              "F:afterCreateSession",
              "C:afterCreateSession",
              "A:before:0",
              "F:before:0",
              "C:before:0",
              "A:after:0",
              "F:after:0",
              "C:after:0",
              "A:before:1",
              "F:before:1",
              "C:before:1",
              "A:after:1",
              "F:after:1"),
          calls);
    }
  }

  @Test
  public void abortedRunIsRetriedOnARecreatedSession() throws Exception {
    Path dir = tmp.newFolder("ckpt").toPath();
    FaultInjectingSessionCreator creator =
        new FaultInjectingSessionCreator(
                new CheckpointRestoringSessionCreator(dir), CounterGraph.TRAIN)
            .failRun(3, ErrorCodes.Code.ABORTED);
    try (Graph g = CounterGraph.counter()) {
      Object[] results = new Object[4];
      MonitoredSession s =
          MonitoredSession.builder(g)
              .hooks(
                  CheckpointSaverHook.builder(dir.toString()).saveSteps(1).build(),
                  new RecordingHook(calls))
              .sessionCreator(creator)
              .build();
      try (s) {
        for (int i = 0; i < 4; i++) {
          results[i] = s.run(List.of(CounterGraph.TRAIN, "v:0"));
        }
        assertEquals(1, s.recoveryCount());
      }
      assertEquals(2, creator.sessionCount());
      assertEquals(
          List.of(
              "begin",
              "afterCreateSession",
              "before:0",
              "after:0",
              "before:1",
              "after:1",
              "before:2",
              "afterCreateSession",
              "before:2",
              "after:2",
              "before:3",
              "after:3",
              "end"),
          calls);
      // The retried step ran on the restored variables: v counts every successful step once.
      assertEquals(4f, ((FloatNdArray) ((List<?>) results[3]).get(1)).getFloat(), 0f);
      assertEquals(
          Checkpoints.checkpointPrefix(dir, "model.ckpt", 4).toString(),
          Checkpoints.latestCheckpoint(dir).get());
    }
  }

  @Test
  public void unavailableInACallbackIsRecoveredToo() {
    FaultInjectingSessionCreator creator =
        new FaultInjectingSessionCreator(new CheckpointRestoringSessionCreator(null));
    try (Graph g = CounterGraph.counter()) {
      boolean[] thrown = {false};
      RecordingHook flaky =
          new RecordingHook(calls) {
            @Override
            void afterRecorded(SessionRunContext runContext, long step) {
              if (step == 1 && !thrown[0]) {
                thrown[0] = true;
                throw ErrorCodes.exceptionFor(
                    ErrorCodes.Code.UNAVAILABLE, "UNAVAILABLE: injected in a callback");
              }
            }
          };
      try (MonitoredSession s =
          MonitoredSession.builder(g).hooks(flaky).sessionCreator(creator).build()) {
        s.run(CounterGraph.TRAIN);
        s.run(CounterGraph.TRAIN);
        assertEquals(1, s.recoveryCount());
      }
      // No checkpoint dir: the new session starts from the initializers again.
      assertEquals(
          List.of(
              "begin",
              "afterCreateSession",
              "before:0",
              "after:0",
              "before:1",
              "after:1",
              "afterCreateSession",
              "before:0",
              "after:0",
              "end"),
          calls);
    }
  }

  @Test
  public void unrecognisedPlainTensorFlowExceptionIsNotRecovered() {
    FaultInjectingSessionCreator creator =
        new FaultInjectingSessionCreator(
                new CheckpointRestoringSessionCreator(null), CounterGraph.TRAIN)
            .failRun(1, ErrorCodes.Code.INTERNAL);
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession s =
          MonitoredSession.builder(g)
              .hooks(new RecordingHook(calls))
              .sessionCreator(creator)
              .build();
      try (s) {
        assertThrows(TensorFlowException.class, () -> s.run(CounterGraph.TRAIN));
        assertEquals(0, s.recoveryCount());
      }
      assertEquals(List.of("begin", "afterCreateSession", "before:0"), calls);
    }
  }

  @Test
  public void modelInstanceIsSetBeforeBeginAndKeptAcrossRecovery() {
    ModelInstance model = ModelInstance.of("loss:0", CounterGraph.TRAIN, GlobalStep.TENSOR_NAME);
    List<Object> seenInBegin = new ArrayList<>();
    ModelDependentHook hook =
        new ModelDependentHook() {
          @Override
          public void begin() {
            seenInBegin.add(modelInstance());
          }
        };
    FaultInjectingSessionCreator creator =
        new FaultInjectingSessionCreator(
                new CheckpointRestoringSessionCreator(null), CounterGraph.TRAIN)
            .failRun(1, ErrorCodes.Code.ABORTED);
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredSession.builder(g)
                .hooks(hook)
                .modelInstance(model)
                .sessionCreator(creator)
                .build()) {
      s.run(CounterGraph.TRAIN);
      assertEquals(1, s.recoveryCount());
      assertEquals(Arrays.asList(model), seenInBegin);
      assertSame(model, hook.modelInstance());
    }
  }

  @Test
  public void modelDependentHookWithoutAModelFailsBeforeBegin() {
    List<String> begun = new ArrayList<>();
    ModelDependentHook hook =
        new ModelDependentHook() {
          @Override
          public void begin() {
            begun.add("begin");
          }
        };
    try (Graph g = CounterGraph.counter()) {
      HookException e =
          assertThrows(HookException.class, () -> MonitoredSession.builder(g).hooks(hook).build());
      assertTrue(e.getMessage(), e.getMessage().startsWith("hook #1 ("));
      assertTrue(
          e.getMessage(),
          e.getMessage()
              .contains(
                  ".beginSession: is a ModelDependentHook but the driver was given no"
                      + " ModelInstance"));
      assertEquals(List.of(), begun);
    }
  }

  @Test
  public void runStepFnGetsTheRawSessionAndIsRetriedWhole() {
    FaultInjectingSessionCreator creator =
        new FaultInjectingSessionCreator(
                new CheckpointRestoringSessionCreator(null), CounterGraph.TRAIN)
            .failRun(1, ErrorCodes.Code.ABORTED);
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredSession.builder(g)
                .hooks(new RecordingHook(calls))
                .sessionCreator(creator)
                .build()) {
      int[] invocations = {0};
      Object out =
          s.runStepFn(
              ctx -> {
                invocations[0]++;
                ctx.session().run(CounterGraph.TRAIN); // raw: no hooks
                Object hooked = ctx.runWithHooks(SessionRunArgs.of("v:0"));
                ctx.requestStop();
                return hooked;
              });
      assertEquals(2, invocations[0]);
      assertEquals(1f, ((FloatNdArray) out).getFloat(), 0f);
      assertTrue(s.shouldStop());
      assertEquals(
          List.of("begin", "afterCreateSession", "afterCreateSession", "before:1", "after:1"),
          calls);
    }
  }

  @Test
  public void anErrorReportedToTheCoordinatorStopsAndIsThrownOnCloseWithoutEnd() {
    IllegalStateException reported = new IllegalStateException("from a worker thread");
    RecordingHook reporter =
        new RecordingHook(calls) {
          @Override
          void afterRecorded(SessionRunContext runContext, long step) {
            if (step == 0) {
              coord.requestStop(reported);
            }
          }
        };
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession s = MonitoredSession.builder(g).hooks(reporter).build();
      s.run(CounterGraph.TRAIN);
      assertTrue(s.shouldStop());
      IllegalStateException e = assertThrows(IllegalStateException.class, s::close);
      assertSame(reported, e);
      assertEquals(List.of("begin", "afterCreateSession", "before:0", "after:0"), calls);
    }
  }
}
