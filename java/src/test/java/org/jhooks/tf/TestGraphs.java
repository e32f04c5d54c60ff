package org.jhooks.tf;

import java.util.List;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.framework.data.Dataset;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * Small real graphs for driver tests.
 *
 * <p>The counter graph: float variable {@code v} (starts at 0); op {@code bump} adds 1 to {@code
 * v}; {@code global_step} and {@code train_step} (runs {@code bump}, then adds 1 to the step);
 * placeholder {@code x} (float scalar) with {@code double = 2x} and {@code checked =
 * CheckNumerics(x)}.
 */
final class TestGraphs {
  static final String TRAIN = GlobalStep.TRAIN_STEP;

  private TestGraphs() {}

  static Graph counter() {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Variable<TFloat32> v = tf.withName("v").variable(tf.constant(0f));
    var bump = tf.withName("bump").assignAdd(v, tf.constant(1f));
    Placeholder<TFloat32> x = tf.withName("x").placeholder(TFloat32.class, Placeholder.shape(Shape.scalar()));
    tf.withName("double").math.mul(x, tf.constant(2f));
    tf.withName("checked").debugging.checkNumerics(x, "x has NaN");
    GlobalStep.create(tf, bump);
    return g;
  }

  /** The counter graph plus {@code next}: a one-shot dataset iterator over {@code n} floats 1..n. */
  static Graph counterWithInput(int n) {
    Graph g = counter();
    Ops tf = Ops.create(g);
    float[] data = new float[n];
    for (int i = 0; i < n; i++) {
      data[i] = i + 1;
    }
    Dataset ds = Dataset.fromTensorSlices(tf, List.<Operand<?>>of(tf.constant(data)), List.of(TFloat32.class));
    Operand<?> next = ds.makeOneShotIterator().getNext().get(0);
    tf.withName("next").identity(next);
    return g;
  }
}
