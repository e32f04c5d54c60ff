package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jhooks.Hook;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.MonitoredSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArrays;

/**
 * The "global step has not been increased" warning: TF's StepCounterHook condition (the step
 * fetched with a run equals the one fetched with the previous run) and text, from the step counter
 * only, on the JVM driver.
 */
public class StepCounterNotIncreasedTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final String TEXT =
      "WARNING It seems that global step (tf.train.get_global_step) has not been increased."
          + " Current value (could be stable): 2 vs previous value: 2. You could increase the"
          + " global step by passing tf.train.get_global_step() to Optimizer.apply_gradients or"
          + " Optimizer.minimize.";

  /**
   * {@code trainFirst} training runs, then runs of {@code double:0} (no training); the warnings any
   * standard hook logged.
   */
  private static List<String> warnings(Hook hook, int runs, int trainFirst) {
    try (StandardHooksTest.Captured log = new StandardHooksTest.Captured("org.jhooks.hooks");
        Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      for (int i = 0; i < runs; i++) {
        if (i < trainFirst) {
          s.run(CounterGraph.TRAIN);
        } else {
          s.run("double:0", Map.of("x:0", NdArrays.scalarOf(1f)));
        }
      }
      return log.lines.stream()
          .filter(l -> l.contains("has not been increased"))
          .collect(Collectors.toList());
    }
  }

  @Test
  public void theStepCounterWarnsWithTensorFlowsTextTheFirstFiveTimes() {
    // runs 3..10 fetch 2 (the JVM driver's fetch of a training run may include its increment, so
    // run 3 may or may not repeat run 2's value): at least 7 repeats, the first 5 warned
    assertEquals(
        Collections.nCopies(5, TEXT), warnings(new StepCounterHook(100, null, null, null), 10, 2));
    assertEquals(List.of(), warnings(new StepCounterHook(1, null, null, null), 6, 6));
  }

  @Test
  public void noOtherStandardHookWarnsAsInTensorFlow() throws Exception {
    String dir = tmp.newFolder().toString();
    Map<String, Supplier<Hook>> hooks =
        Map.of(
            "SummarySaverHook",
                () -> new SummarySaverHook(100, null, dir, null, null, Map.of("v", "loss:0")),
            "CheckpointSaverHook", () -> CheckpointSaverHook.builder(dir).saveSteps(100).build(),
            "AsyncCheckpointSaverHook",
                () -> AsyncCheckpointSaverHook.builder(dir + "/async").saveSteps(100).build(),
            "StopAtStepHook", () -> StopAtStepHook.ofLastStep(100),
            "ProfilerHook", () -> new ProfilerHook(100, null, dir, null, null),
            "StopIfNoImprovementHook",
                () -> new StopIfNoImprovementHook("global_step:0", "max", 100, null, null));
    for (Map.Entry<String, Supplier<Hook>> e : hooks.entrySet()) {
      assertEquals(e.getKey(), List.of(), warnings(e.getValue().get(), 10, 2));
    }
  }
}
