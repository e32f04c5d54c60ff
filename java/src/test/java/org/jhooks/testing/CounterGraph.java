package org.jhooks.testing;

import java.util.List;
import org.jhooks.tf.GlobalStep;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.framework.data.Dataset;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * The small real graph the driver and hook tests share.
 *
 * <p>Float variable {@code v} (starts at 0); op {@code bump} adds 1 to {@code v}; {@code
 * global_step} and {@code train_step} (runs {@code bump}, then adds 1 to the step), so after every
 * step {@code v == global_step}; {@code loss = sqrt(3.5 - v)} (NaN once v > 3.5); placeholder
 * {@code x} (float scalar) with {@code double = 2x}, {@code sqrt_x} and {@code checked =
 * CheckNumerics(x)}; {@code v_summary}, a serialized scalar Summary of v.
 */
public final class CounterGraph {
  public static final String TRAIN = GlobalStep.TRAIN_STEP;

  private CounterGraph() {}

  /** A new counter graph; the caller closes it. */
  public static Graph counter() {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Variable<TFloat32> v = tf.withName("v").variable(tf.constant(0f));
    var bump = tf.withName("bump").assignAdd(v, tf.constant(1f));
    tf.withName("loss").math.sqrt(tf.math.sub(tf.constant(3.5f), tf.identity(v)));
    Placeholder<TFloat32> x =
        tf.withName("x").placeholder(TFloat32.class, Placeholder.shape(Shape.scalar()));
    tf.withName("double").math.mul(x, tf.constant(2f));
    tf.withName("sqrt_x").math.sqrt(x);
    tf.withName("checked").debugging.checkNumerics(x, "x has NaN");
    tf.withName("v_summary").summary.scalarSummary(tf.constant("v"), tf.identity(v));
    GlobalStep.create(tf, bump);
    return g;
  }

  /** The counter graph plus {@code next:0}, a one-shot dataset iterator over the floats 1..n. */
  public static Graph counterWithInput(int n) {
    Graph g = counter();
    Ops tf = Ops.create(g);
    float[] data = new float[n];
    for (int i = 0; i < n; i++) {
      data[i] = i + 1;
    }
    Dataset ds =
        Dataset.fromTensorSlices(
            tf, List.<Operand<?>>of(tf.constant(data)), List.of(TFloat32.class));
    tf.withName("next").identity(ds.makeOneShotIterator().getNext().get(0));
    return g;
  }
}
