package org.jhooks.bridgetest;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.ndarray.DType;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.types.TensorTypes;
import org.tensorflow.Graph;
import org.tensorflow.GraphOperation;
import org.tensorflow.op.Ops;
import org.tensorflow.op.Scope;
import org.tensorflow.proto.DataType;

/**
 * A graph with, for every dtype of {@link DType}, a placeholder {@code p_<numpy name>} and its
 * identity {@code id_<numpy name>}; {@code as_uint32} and {@code as_complex64}, casts of {@code
 * p_float32} to dtypes jhooks does not move; and {@code noop}. {@link #run} drives the JVM driver
 * on it with hooks, the caller running {@code noop}.
 */
public final class DTypeGraph {
  private DTypeGraph() {}

  static Graph graph() {
    TensorTypes.register();
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Scope scope = tf.scope();
    for (DType d : DType.values()) {
      DataType dt = DataType.forNumber(d.tensorFlowCode());
      GraphOperation p =
          g.opBuilder("Placeholder", "p_" + d.numpy(), scope).setAttr("dtype", dt).build();
      g.opBuilder("Identity", "id_" + d.numpy(), scope)
          .addInput(p.output(0))
          .setAttr("T", dt)
          .build();
    }
    for (DataType dt : new DataType[] {DataType.DT_UINT32, DataType.DT_COMPLEX64}) {
      String name = dt == DataType.DT_UINT32 ? "as_uint32" : "as_complex64";
      g.opBuilder("Cast", name, scope)
          .addInput(g.operation("p_float32").output(0))
          .setAttr("SrcT", DataType.DT_FLOAT)
          .setAttr("DstT", dt)
          .build();
    }
    tf.withName("noop").noOp();
    return g;
  }

  /**
   * A MonitoredSession on the graph with {@code hooks}; the caller runs {@code noop} {@code runs}
   * times.
   */
  public static void run(List<Hook> hooks, int runs) {
    try (Graph g = graph();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hooks).build()) {
      for (int i = 0; i < runs && !s.shouldStop(); i++) {
        s.run("noop");
      }
    }
  }

  /** {@link #run}, returning what it threw (null when nothing) as a Java caller sees it. */
  public static Throwable runCatching(List<Hook> hooks, int runs) {
    try {
      run(hooks, runs);
      return null;
    } catch (RuntimeException | Error e) {
      return e;
    }
  }

  /** A Java hook returning {@code args.get(n)} in its n-th run and keeping every run's results. */
  public static final class FeedFetchHook implements Hook {
    private final List<SessionRunArgs> args;
    public final List<Object> results = new ArrayList<>();

    public FeedFetchHook(List<SessionRunArgs> args) {
      this.args = args;
    }

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      return args.get(results.size());
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      results.add(runValues.results());
    }
  }
}
