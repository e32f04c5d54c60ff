package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.MonitoredSession;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArrays;

/** GlobalStepWaiterHook and StopIfNoImprovementHook on the JVM driver with real graphs. */
public class EarlyStoppingHooksTest {

  /**
   * Runs train_step feeding {@code x = metric[i]} (so {@code double:0 = 2 * metric[i]}) until the
   * session stops; returns the runs made.
   */
  private static int trainOn(float[] metric, Hook... hooks) {
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hooks).build()) {
      int runs = 0;
      while (!s.shouldStop() && runs < metric.length) {
        s.run(
            List.of(CounterGraph.TRAIN, "double:0"),
            Map.of("x:0", NdArrays.scalarOf(metric[runs])));
        runs++;
      }
      return runs;
    }
  }

  @Test
  public void stopsAfterPatienceEvaluationsWithoutImprovement() {
    // min: best 3 at run 2; runs 3, 4 do not improve -> stop after run 4
    StopIfNoImprovementHook h = new StopIfNoImprovementHook("double:0", "min", 2, null, null);
    assertEquals(4, trainOn(new float[] {5, 3, 3, 4, 1, 1, 1, 1}, h));
    assertEquals(Double.valueOf(6.0), h.best());
    assertEquals(Long.valueOf(2), h.bestStep());
    assertEquals(2, h.evaluationsWithoutImprovement());
  }

  @Test
  public void maxModeAndMinDelta() {
    // doubled: 0, 2, 4, 5, 6: best 0; 2 is not above 0 + 2.5; 4 is (best 4 at step 3); 5 and 6
    // are not above 6.5, so the second miss stops after run 5
    StopIfNoImprovementHook h = new StopIfNoImprovementHook("double:0", "max", 2, 2.5, null);
    assertEquals(5, trainOn(new float[] {0, 1, 2, 2.5f, 3, 10}, h));
    assertEquals(Double.valueOf(4.0), h.best());
    assertEquals(Long.valueOf(3), h.bestStep());
    StopIfNoImprovementHook flat = new StopIfNoImprovementHook("double:0", "max", 3, null, null);
    assertEquals(4, trainOn(new float[] {1, 1, 1, 1, 1, 1}, flat));
  }

  @Test
  public void evaluatesEveryNGlobalSteps() {
    // evaluations at steps 1, 4, 7 (values 10, 9, 9 doubled): improvement at 4, none at 7
    StopIfNoImprovementHook h = new StopIfNoImprovementHook("double:0", null, 1, null, 3);
    float[] m = {10, 1, 1, 9, 1, 1, 9, 1, 1, 1};
    assertEquals(7, trainOn(m, h));
    assertEquals(Long.valueOf(4), h.bestStep());
  }

  @Test
  public void nanNeverImproves() {
    StopIfNoImprovementHook h = new StopIfNoImprovementHook("sqrt_x:0", "min", 2, null, null);
    assertEquals(3, trainOn(new float[] {4, -1, -1, 0, 0}, h));
    assertEquals(Double.valueOf(2.0), h.best());
  }

  @Test
  public void argumentErrorsNameTheValue() {
    assertEquals(
        "StopIfNoImprovementHook: mode must be 'min' or 'max', got 'down'",
        assertThrows(
                IllegalArgumentException.class,
                () -> new StopIfNoImprovementHook("loss:0", "down", null, null, null))
            .getMessage());
    assertEquals(
        "StopIfNoImprovementHook: patience must be >= 1, got 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> new StopIfNoImprovementHook("loss:0", null, 0, null, null))
            .getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> new StopIfNoImprovementHook("loss:0", null, null, -1.0, null));
    assertThrows(
        IllegalArgumentException.class,
        () -> new StopIfNoImprovementHook("loss:0", null, null, null, 0));
    assertThrows(IllegalArgumentException.class, () -> new GlobalStepWaiterHook(3, 0));
    // a null metric was accepted and failed at the first run; Python's twin refuses it too
    assertEquals(
        "StopIfNoImprovementHook: metric must be a tensor name (str), got null",
        assertThrows(
                IllegalArgumentException.class,
                () -> new StopIfNoImprovementHook(null, null, null, null, null))
            .getMessage());
  }

  /** Advances the global step from another thread with raw runs, after the session exists. */
  private static final class Advancer implements Hook {
    final int steps;
    Thread thread;
    final AtomicReference<Throwable> failure = new AtomicReference<>();

    Advancer(int steps) {
      this.steps = steps;
    }

    @Override
    public void afterCreateSession(Session session, Coordinator coord) {
      thread =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < steps; i++) {
                    Thread.sleep(20);
                    session.run(CounterGraph.TRAIN);
                  }
                } catch (Throwable t) {
                  failure.set(t);
                }
              });
      thread.start();
    }
  }

  /** Records the global step before each run (read raw). */
  private static final class FirstStep implements Hook {
    final List<Long> seen = new ArrayList<>();

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      seen.add(runContext.session().globalStep());
      return null;
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {}
  }

  @Test
  public void waiterHoldsTheFirstRunUntilTheGlobalStepIsReached() throws Exception {
    Advancer advancer = new Advancer(5);
    GlobalStepWaiterHook waiter = new GlobalStepWaiterHook(5, 0.01);
    FirstStep first = new FirstStep();
    try (StandardHooksTest.Captured log =
        new StandardHooksTest.Captured("org.jhooks.hooks.GlobalStepWaiterHook")) {
      try (Graph g = CounterGraph.counter()) {
        assertEquals(3, HookGraphs.train(g, 3, advancer, waiter, first));
      }
      advancer.thread.join();
      assertEquals(null, advancer.failure.get());
      // the first run starts at step 5; later runs never wait again
      assertEquals(List.of(5L, 6L, 7L), first.seen);
      assertEquals(List.of("INFO Waiting for global step 5 before starting training."), log.lines);
    }
  }

  @Test
  public void waiterForAReachedStepDoesNotWait() {
    FirstStep first = new FirstStep();
    try (Graph g = CounterGraph.counter()) {
      assertEquals(2, HookGraphs.train(g, 2, new GlobalStepWaiterHook(0), first));
    }
    assertEquals(List.of(0L, 1L), first.seen);
    assertTrue(new GlobalStepWaiterHook(7).waitUntilStep() == 7);
  }
}
