package org.jhooks.demo;

import java.util.List;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.ReplicaDeviceSetter;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.framework.optimizers.GradientDescent;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * The demo's logistic regression graph; {@code jhooks/demo/model.py} builds the same one in Python
 * (same op names, same formulas), so checkpoints restore by name in either language.
 *
 * <p>Data are graph constants (full-batch training on the training rows, evaluation on the held-out
 * rows), so a training step needs no feeds. Names:
 *
 * <ul>
 *   <li>variables (VariableV2, float32 unless noted, saved in checkpoints): {@code w} [features, 1]
 *       and {@code b} [1], both starting at 0; {@code global_step} (int64 scalar), created after
 *       {@code minimize} (see {@link GlobalStep});
 *   <li>{@code loss:0}: mean binary cross-entropy on the training rows, {@code -mean(y log(p + eps)
 *       + (1 - y) log(1 - p + eps))}, {@code p = sigmoid(x w + b)}, eps 1e-7;
 *   <li>{@code held_out_loss:0}: the same on the held-out rows; {@code accuracy:0}: fraction of
 *       held-out rows where {@code (x w + b > 0)} equals the label;
 *   <li>{@code loss_summary:0}: a serialized Summary proto with the scalar {@code loss};
 *   <li>{@code train_step}: one gradient descent step, then {@code global_step += 1}.
 * </ul>
 */
public final class DemoModel {
  public static final String W = "w";
  public static final String B = "b";
  public static final String LOSS = "loss:0";
  public static final String HELD_OUT_LOSS = "held_out_loss:0";
  public static final String ACCURACY = "accuracy:0";
  public static final String LOSS_SUMMARY = "loss_summary:0";
  public static final String TRAIN_OP = GlobalStep.TRAIN_STEP;

  /** The checkpoint keys of the model, in the order both languages list them. */
  public static final List<String> VARIABLES = List.of(W, B, GlobalStep.NAME);

  public static final float DEFAULT_LEARNING_RATE = 0.5f;
  private static final float EPS = 1e-7f;

  private DemoModel() {}

  /** Builds the demo graph for {@code data}; the caller owns (closes) the graph. */
  public static Graph build(DemoData data, float learningRate) {
    return build(data, learningRate, null);
  }

  /**
   * Builds the demo graph with every op placed by {@code placement} (variables on the ps tasks, the
   * rest on the worker), for between-graph training on a cluster; {@code null} places nothing.
   */
  public static Graph build(DemoData data, float learningRate, ReplicaDeviceSetter placement) {
    Graph g = new Graph();
    Ops tf = placement == null ? Ops.create(g) : placement.ops(g);
    int features = data.featureNames.size();
    Variable<TFloat32> w = tf.withName(W).variable(tf.constant(new float[features][1]));
    Variable<TFloat32> b = tf.withName(B).variable(tf.constant(new float[1]));
    Operand<TFloat32> trainLogits = logits(tf, tf.constant(data.trainX), w, b);
    Operand<TFloat32> loss = crossEntropy(tf, "loss", trainLogits, tf.constant(data.trainY));
    Operand<TFloat32> heldOutLogits = logits(tf, tf.constant(data.heldOutX), w, b);
    Operand<TFloat32> heldOutY = tf.constant(data.heldOutY);
    crossEntropy(tf, "held_out_loss", heldOutLogits, heldOutY);
    Operand<TFloat32> predicted =
        tf.dtypes.cast(tf.math.greater(heldOutLogits, tf.constant(0f)), TFloat32.class);
    Operand<TFloat32> hits = tf.dtypes.cast(tf.math.equal(predicted, heldOutY), TFloat32.class);
    tf.withName("accuracy").math.mean(hits, tf.constant(new int[] {0, 1}));
    tf.withName("loss_summary").summary.scalarSummary(tf.constant("loss"), loss);
    Op minimize = new GradientDescent(g, learningRate).minimize(loss, "minimize");
    GlobalStep.create(tf, minimize);
    return g;
  }

  private static Operand<TFloat32> logits(
      Ops tf, Operand<TFloat32> x, Variable<TFloat32> w, Variable<TFloat32> b) {
    // identity: tensorflow-java's gradient code must not see the raw VariableV2 output.
    return tf.math.add(tf.linalg.matMul(x, tf.identity(w)), tf.identity(b));
  }

  private static Operand<TFloat32> crossEntropy(
      Ops tf, String name, Operand<TFloat32> logits, Operand<TFloat32> y) {
    Operand<TFloat32> p = tf.math.sigmoid(logits);
    Operand<TFloat32> eps = tf.constant(EPS);
    Operand<TFloat32> one = tf.constant(1f);
    Operand<TFloat32> pos = tf.math.mul(y, tf.math.log(tf.math.add(p, eps)));
    Operand<TFloat32> neg =
        tf.math.mul(tf.math.sub(one, y), tf.math.log(tf.math.add(tf.math.sub(one, p), eps)));
    Operand<TFloat32> mean = tf.math.mean(tf.math.add(pos, neg), tf.constant(new int[] {0, 1}));
    return tf.withName(name).math.neg(mean);
  }
}
