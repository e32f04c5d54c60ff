package org.jhooks.bench;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArray;

/**
 * The JVM side of benchmarks P2, P4_jvm, P6, P8c-P8e and P9b: timed blocks of steps of the jhooks
 * JVM {@link MonitoredSession} with each of several hook sets (Java hooks, or Python hooks wrapped
 * by {@code as_java_hook}), and of a bare tensorflow-java loop that runs the same target and
 * fetches, by hand, what those hooks fetch. {@code benchmarks/run.py} chooses the block sizes and
 * the order of the blocks (warm-up, calibration, interleaving: {@code benchmarks/timing.py}); one
 * call of {@link #block} times one loop here, so the loop itself runs JIT-compiled Java.
 */
public final class HookSetOverhead implements AutoCloseable {
  private final Session bare;
  private final List<MonitoredSession> sessions = new ArrayList<>();
  private final String target;
  private final List<String> bareFetches;

  /**
   * Opens the bare session (initialized) and one monitored session per hook set.
   *
   * @param graph the graph; {@code target} is an op name in it
   * @param bareFetches tensor names ({@code "op:N"}) the bare loop fetches and reads every step
   * @param variants hook sets, each run by its own monitored session (an empty set is a monitored
   *     session without hooks)
   */
  public HookSetOverhead(
      Graph graph, String target, List<String> bareFetches, List<List<Hook>> variants) {
    this(graph, target, bareFetches, variants, List.of());
  }

  /**
   * The same for a graph whose variables {@code initOps} initialize (an imported GraphDef, whose
   * initializers tensorflow-java does not know: benchmark P12's, built in Python).
   */
  public HookSetOverhead(
      Graph graph,
      String target,
      List<String> bareFetches,
      List<List<Hook>> variants,
      List<String> initOps) {
    this.target = target;
    this.bareFetches = List.copyOf(bareFetches);
    bare = new Session(graph);
    try {
      bare.initialize();
      if (!initOps.isEmpty()) {
        Session.Runner init = bare.runner();
        initOps.forEach(init::addTarget);
        init.run().close();
      }
      for (List<Hook> hooks : variants) {
        MonitoredSession.Builder b = MonitoredSession.builder(graph).hooks(hooks);
        if (!initOps.isEmpty()) {
          b.sessionCreator(new CheckpointRestoringSessionCreator(null, null, initOps));
        }
        sessions.add(b.build());
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  /**
   * Nanoseconds for {@code steps} steps of variant {@code v}: 0 the bare loop, {@code i + 1} the
   * monitored session of hook set {@code i}.
   */
  public long block(int v, int steps) {
    long t0 = System.nanoTime();
    if (v == 0) {
      for (int i = 0; i < steps; i++) {
        bareStep();
      }
    } else {
      run(sessions.get(v - 1), target, steps);
    }
    return System.nanoTime() - t0;
  }

  /** Runs {@code target} {@code steps} times through {@code session} (benchmark P7's loop). */
  public static void run(MonitoredSession session, String target, int steps) {
    for (int i = 0; i < steps; i++) {
      session.run(target);
    }
  }

  /** Closes every monitored session, then the bare one. */
  @Override
  public void close() {
    RuntimeException failed = null;
    for (MonitoredSession s : sessions) {
      try {
        s.close();
      } catch (RuntimeException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    sessions.clear();
    bare.close();
    if (failed != null) {
      throw failed;
    }
  }

  private static long sink; // NOPMD: written only, so the JIT cannot drop the reads

  private void bareStep() {
    Session.Runner runner = bare.runner().addTarget(target);
    for (String f : bareFetches) {
      runner.fetch(f);
    }
    try (Result r = runner.run()) {
      for (int i = 0; i < bareFetches.size(); i++) {
        Tensor t = r.get(i);
        sink += ((NdArray<?>) t).getObject().hashCode(); // read the scalar, as a hook would
      }
    }
  }
}
