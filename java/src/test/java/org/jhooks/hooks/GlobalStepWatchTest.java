package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jhooks.Hook;
import org.jhooks.RunOptions;
import org.jhooks.Session;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.MonitoredSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;

/** TF's "global step has not been increased" warning from every step-scheduled hook (JVM). */
public class GlobalStepWatchTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final String TEXT =
      "WARNING It seems that global step (tf.train.get_global_step) has not been increased."
          + " Current value (could be stable): 2 vs previous value: 2. You could increase the"
          + " global step by passing tf.train.get_global_step() to Optimizer.apply_gradients or"
          + " Optimizer.minimize.";

  /** Two training runs, then {@code runs - 2} runs of {@code double:0} (no training). */
  private static List<String> warnings(Hook hook, int runs, int trainFirst) {
    try (StandardHooksTest.Captured log =
            new StandardHooksTest.Captured("org.jhooks.hooks.GlobalStepWatch");
        Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      for (int i = 0; i < runs; i++) {
        if (i < trainFirst) {
          s.run(CounterGraph.TRAIN);
        } else {
          s.run("double:0", Map.of("x:0", NdArrays.scalarOf(1f)));
        }
      }
      return List.copyOf(log.lines);
    }
  }

  @Test
  public void everyStepScheduledHookWarnsWithTensorFlowsTextAtMostFiveTimes() throws Exception {
    String dir = tmp.newFolder().toString();
    Map<String, Supplier<Hook>> hooks =
        Map.of(
            "StepCounterHook", () -> new StepCounterHook(100, null, null, null),
            "SummarySaverHook",
                () -> new SummarySaverHook(100, null, dir, null, null, Map.of("v", "loss:0")),
            "CheckpointSaverHook", () -> CheckpointSaverHook.builder(dir).saveSteps(100).build(),
            "StopAtStepHook", () -> StopAtStepHook.ofLastStep(100),
            "ProfilerHook", () -> new ProfilerHook(100, null, dir, null, null),
            "StopIfNoImprovementHook",
                () -> new StopIfNoImprovementHook("global_step:0", "max", 100, null, null));
    for (Map.Entry<String, Supplier<Hook>> e : hooks.entrySet()) {
      assertEquals(e.getKey(), Collections.nCopies(5, TEXT), warnings(e.getValue().get(), 10, 2));
      assertEquals(e.getKey(), List.of(), warnings(e.getValue().get(), 6, 6));
    }
  }

  /** The real raw session, counting {@link #globalStep()} reads. */
  private static final class CountingSession implements Session {
    private final Session raw;
    int reads;

    CountingSession(Session raw) {
      this.raw = raw;
    }

    @Override
    public Object run(Object fetches, Map<String, ? extends NdArray<?>> feeds, RunOptions options) {
      return raw.run(fetches, feeds, options);
    }

    @Override
    public void save(String prefix) {
      raw.save(prefix);
    }

    @Override
    public void restore(String prefix) {
      raw.restore(prefix);
    }

    @Override
    public String globalStepTensorName() {
      return raw.globalStepTensorName();
    }

    @Override
    public long globalStep() {
      reads++;
      return raw.globalStep();
    }
  }

  @Test
  public void oneFetchThatSawTheIncrementCostsOneConfirmingReadNotOneEveryRun() {
    // after training run r the step is r; the fetch of run 2 saw its increment (2), the others
    // did not (r - 1): run 3's 2 looks stale, one raw read (3) confirms the advance
    long[] fetched = {0, 2, 2, 3, 4, 5, 6, 7};
    GlobalStepWatch watch = new GlobalStepWatch();
    int[] reads = {0};
    Hook observing =
        new Hook() {
          private int run;

          @Override
          public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
            CountingSession counting = new CountingSession(runContext.session());
            watch.observe(counting, fetched[run++]);
            reads[0] += counting.reads;
          }
        };
    try (StandardHooksTest.Captured log =
            new StandardHooksTest.Captured("org.jhooks.hooks.GlobalStepWatch");
        Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(observing).build()) {
      for (int i = 0; i < fetched.length; i++) {
        s.run(CounterGraph.TRAIN);
      }
      assertEquals(1, reads[0]);
      assertEquals(0, watch.warnings());
      assertEquals(List.of(), log.lines);
    }
  }
}
