package org.jhooks.bench;

import org.jhooks.tf.GlobalStep;
import org.tensorflow.Graph;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * The graph of benchmarks P4 and P7 on the JVM, twin of {@code _big_variables_graph} in {@code
 * benchmarks/run.py}: one float32 variable {@code big0} of {@code elements} zeros, and {@code
 * train_step}, which adds 1 to the global step (and, with {@code addPerStep}, first to every
 * element of {@code big0}, so after a run it holds the new global step).
 */
public final class BigVariableGraph {
  private BigVariableGraph() {}

  /** A new graph holding {@code big0} [elements] (float32, zeros) and {@code train_step}. */
  public static Graph build(long elements) {
    return build(elements, false);
  }

  /** {@link #build(long)}, adding 1 to every element of {@code big0} per step if asked. */
  public static Graph build(long elements, boolean addPerStep) {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Variable<TFloat32> big =
        tf.withName("big0").variable(tf.fill(tf.constant(new long[] {elements}), tf.constant(0f)));
    Op before =
        addPerStep
            ? tf.assignAdd(big, tf.fill(tf.constant(new long[] {elements}), tf.constant(1f)))
            : tf.noOp();
    GlobalStep.create(tf, before);
    return g;
  }
}
