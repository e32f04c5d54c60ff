package org.jhooks.bench;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArray;

/**
 * Benchmarks P6, P8c and P8d: per-step time of the jhooks JVM {@link MonitoredSession} with each of
 * several hook sets (Java hooks, or Python hooks wrapped by {@code as_java_hook}) and of a bare
 * tensorflow-java loop that runs the same target and fetches, by hand, what those hooks fetch. All
 * variants run on one graph, one block each per repeat, in an order rotated every repeat; a warm-up
 * block of each comes first.
 */
public final class HookSetOverhead {
  private HookSetOverhead() {}

  /**
   * @param graph the graph; {@code target} is an op name in it
   * @param bareFetches tensor names ({@code "op:N"}) the bare loop fetches and reads every step
   * @param variants hook sets, each run by its own monitored session
   * @param steps steps per timed block
   * @param repeats timed blocks per variant
   * @return ns/step, {@code out[v * repeats + r]}: {@code v = 0} the bare loop, {@code v = i + 1}
   *     hook set {@code i}
   */
  public static double[] measure(
      Graph graph,
      String target,
      List<String> bareFetches,
      List<List<Hook>> variants,
      int steps,
      int repeats) {
    int n = variants.size() + 1;
    double[] out = new double[n * repeats];
    List<MonitoredSession> sessions = new ArrayList<>();
    try (Session bare = new Session(graph)) {
      bare.initialize();
      try {
        for (List<Hook> hooks : variants) {
          sessions.add(MonitoredSession.builder(graph).hooks(hooks).build());
        }
        for (int v = 0; v < n; v++) {
          block(v, bare, sessions, target, bareFetches, steps);
        }
        for (int r = 0; r < repeats; r++) {
          for (int k = 0; k < n; k++) {
            int v = (k + r) % n;
            out[v * repeats + r] = block(v, bare, sessions, target, bareFetches, steps);
          }
        }
      } finally {
        for (MonitoredSession s : sessions) {
          s.close();
        }
      }
    }
    return out;
  }

  private static double block(
      int v,
      Session bare,
      List<MonitoredSession> sessions,
      String target,
      List<String> fetches,
      int steps) {
    long t0 = System.nanoTime();
    if (v == 0) {
      for (int i = 0; i < steps; i++) {
        bareStep(bare, target, fetches);
      }
    } else {
      MonitoredSession s = sessions.get(v - 1);
      for (int i = 0; i < steps; i++) {
        s.run(target);
      }
    }
    return (System.nanoTime() - t0) / (double) steps;
  }

  /** Runs {@code target} {@code steps} times through {@code session} (benchmark P7's loop). */
  public static void run(MonitoredSession session, String target, int steps) {
    for (int i = 0; i < steps; i++) {
      session.run(target);
    }
  }

  private static long sink;

  private static void bareStep(Session s, String target, List<String> fetches) {
    Session.Runner runner = s.runner().addTarget(target);
    for (String f : fetches) {
      runner.fetch(f);
    }
    try (Result r = runner.run()) {
      for (int i = 0; i < fetches.size(); i++) {
        Tensor t = r.get(i);
        sink += ((NdArray<?>) t).getObject().hashCode(); // read the scalar, as a hook would
      }
    }
  }
}
