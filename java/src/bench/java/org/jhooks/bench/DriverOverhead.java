package org.jhooks.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;
import org.tensorflow.Session;

/**
 * Benchmark P2: per-step time of the jhooks JVM {@link MonitoredSession} with 10 {@link NoOpHook}s
 * divided by a bare tensorflow-java {@code Session.run} loop running the same target on the same
 * graph. Both loops run the target only (no fetches); blocks alternate, the first is a warm-up.
 */
public final class DriverOverhead {
  private DriverOverhead() {}

  /**
   * @param graph the graph; {@code target} is an op name in it (for example {@code train_step})
   * @param steps steps per timed block
   * @param repeats timed blocks per variant, interleaved
   * @return {@code [hooked ns/step of each repeat..., bare ns/step of each repeat...]}
   */
  public static double[] measure(Graph graph, String target, int steps, int repeats) {
    List<Hook> hooks = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      hooks.add(new NoOpHook());
    }
    double[] out = new double[2 * repeats];
    try (Session bare = new Session(graph)) {
      bare.initialize();
      MonitoredSession hooked = MonitoredSession.builder(graph).hooks(hooks).build();
      try {
        hookedBlock(hooked, target, steps);
        bareBlock(bare, target, steps);
        for (int r = 0; r < repeats; r++) {
          if (r % 2 == 0) {
            out[r] = hookedBlock(hooked, target, steps);
            out[repeats + r] = bareBlock(bare, target, steps);
          } else {
            out[repeats + r] = bareBlock(bare, target, steps);
            out[r] = hookedBlock(hooked, target, steps);
          }
        }
      } finally {
        hooked.close();
      }
    }
    return out;
  }

  private static double hookedBlock(MonitoredSession s, String target, int steps) {
    long t0 = System.nanoTime();
    for (int i = 0; i < steps; i++) {
      s.run(target);
    }
    return (System.nanoTime() - t0) / (double) steps;
  }

  private static double bareBlock(Session s, String target, int steps) {
    long t0 = System.nanoTime();
    for (int i = 0; i < steps; i++) {
      s.runner().addTarget(target).run().close(); // nothing fetched
    }
    return (System.nanoTime() - t0) / (double) steps;
  }

  /** Prints the P2 ratio for the demo graph: {@code DriverOverhead CSV [steps] [repeats]}. */
  public static void main(String[] args) throws Exception {
    org.jhooks.demo.DemoData data = org.jhooks.demo.DemoData.load(java.nio.file.Path.of(args[0]));
    int steps = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    try (Graph g = org.jhooks.demo.DemoModel.build(data, 0.01f)) {
      double[] t = measure(g, org.jhooks.demo.DemoModel.TRAIN_OP, steps, repeats);
      System.out.println(Arrays.toString(t));
    }
  }
}
