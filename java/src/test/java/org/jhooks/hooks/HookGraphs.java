package org.jhooks.hooks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;

/** Helpers of the hook tests around {@link CounterGraph}. */
final class HookGraphs {
  private HookGraphs() {}

  /**
   * Runs {@code train_step} until the session stops or {@code maxSteps} runs; returns the runs
   * done.
   */
  static int train(Graph g, int maxSteps, Hook... hooks) {
    int runs = 0;
    try (MonitoredSession s = MonitoredSession.builder(g).hooks(hooks).build()) {
      while (!s.shouldStop() && runs < maxSteps) {
        s.run(CounterGraph.TRAIN);
        runs++;
      }
    }
    return runs;
  }

  /** {@code [v, global_step]} restored from {@code prefix} into a fresh session of a new graph. */
  static float[] restore(String prefix) {
    try (Graph g = CounterGraph.counter();
        Session s = new Session(g)) {
      s.restore(prefix);
      try (Result r = s.runner().fetch("v").fetch("global_step").run()) {
        return new float[] {((TFloat32) r.get(0)).getFloat(), ((TInt64) r.get(1)).getLong()};
      }
    }
  }

  static List<String> names(Map<String, ?> m) {
    return new ArrayList<>(m.keySet());
  }
}
