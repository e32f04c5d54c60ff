package org.jhooks.hooks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Session;
import org.tensorflow.Result;
import org.tensorflow.framework.data.Dataset;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;

/**
 * Real graphs for the hook tests. The counter graph: float variable {@code v} starting at 0;
 * {@code train_step} adds 1 to {@code v} and then to {@code global_step}, so after every step
 * {@code v == global_step}; {@code loss = sqrt(3.5 - v)} (NaN once v > 3.5); placeholder {@code x}
 * with {@code double = 2x} and {@code sqrt_x}; {@code v_summary}, a serialized scalar Summary of v.
 */
final class HookGraphs {
  static final String TRAIN = GlobalStep.TRAIN_STEP;

  private HookGraphs() {}

  static Graph counter() {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Variable<TFloat32> v = tf.withName("v").variable(tf.constant(0f));
    var bump = tf.withName("bump").assignAdd(v, tf.constant(1f));
    tf.withName("loss").math.sqrt(tf.math.sub(tf.constant(3.5f), tf.identity(v)));
    Placeholder<TFloat32> x = tf.withName("x").placeholder(TFloat32.class, Placeholder.shape(Shape.scalar()));
    tf.withName("double").math.mul(x, tf.constant(2f));
    tf.withName("sqrt_x").math.sqrt(x);
    tf.withName("v_summary").summary.scalarSummary(tf.constant("v"), tf.identity(v));
    GlobalStep.create(tf, bump);
    return g;
  }

  /** The counter graph plus {@code next:0}, a one-shot iterator over the floats 1..n. */
  static Graph counterWithInput(int n) {
    Graph g = counter();
    Ops tf = Ops.create(g);
    float[] data = new float[n];
    for (int i = 0; i < n; i++) {
      data[i] = i + 1;
    }
    Dataset ds = Dataset.fromTensorSlices(tf, List.<Operand<?>>of(tf.constant(data)), List.of(TFloat32.class));
    tf.withName("next").identity(ds.makeOneShotIterator().getNext().get(0));
    return g;
  }

  /** Runs {@code train_step} until the session stops or {@code maxSteps} runs; returns the runs done. */
  static int train(Graph g, int maxSteps, Hook... hooks) {
    int runs = 0;
    try (MonitoredSession s = MonitoredSession.builder(g).hooks(hooks).build()) {
      while (!s.shouldStop() && runs < maxSteps) {
        s.run(TRAIN);
        runs++;
      }
    }
    return runs;
  }

  /** {@code [v, global_step]} restored from {@code prefix} into a fresh session of a new graph. */
  static float[] restore(String prefix) {
    try (Graph g = counter(); Session s = new Session(g)) {
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
