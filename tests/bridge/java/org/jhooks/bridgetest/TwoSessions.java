package org.jhooks.bridgetest;

import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArrays;

/** Two JVM MonitoredSessions with the same hooks, run in turn on one thread. */
public final class TwoSessions {
  private TwoSessions() {}

  /** {@code rounds} times: two runs of session A, then one of session B. */
  public static void alternate(List<Hook> hooks, int rounds) {
    SessionRunArgs args =
        SessionRunArgs.of(List.of(GlobalStep.TRAIN_STEP), Map.of("x:0", NdArrays.scalarOf(1f)));
    try (Graph ga = JvmDriver.graph();
        Graph gb = JvmDriver.graph();
        MonitoredSession a = MonitoredSession.builder(ga).hooks(hooks).build();
        MonitoredSession b = MonitoredSession.builder(gb).hooks(hooks).build()) {
      for (int i = 0; i < rounds; i++) {
        a.run(args);
        a.run(args);
        b.run(args);
      }
    }
  }
}
