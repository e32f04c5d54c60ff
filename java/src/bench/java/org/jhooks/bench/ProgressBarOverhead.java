package org.jhooks.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.hooks.ProgressBarHook;
import org.jhooks.tf.GlobalStep;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.framework.optimizers.GradientDescent;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * The parts of benchmark P9b (the JVM MonitoredSession with a {@link ProgressBarHook} / the same
 * session without it, timed by {@link HookSetOverhead}): the graph and the bar.
 */
public final class ProgressBarOverhead {
  private ProgressBarOverhead() {}

  /**
   * A progress bar over {@code lastStep} showing {@code tensor}, printing to a discarding stream
   * (the periodic lines of a non-terminal).
   */
  public static Hook bar(long lastStep, String tensor) {
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
    return new ProgressBarHook(lastStep, Map.of("value", tensor), null, discard);
  }

  /**
   * One dense layer trained by gradient descent: {@code loss = mean((x w)^2)} with constant {@code
   * x} [batch, width] (0.01) and variable {@code w} [width, width] (0.01); op {@code train_step}
   * (minimize, then the global step's increment), tensor {@code loss:0}.
   */
  public static Graph layerGraph(int batch, int width) {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    float[][] x = new float[batch][width];
    float[][] w0 = new float[width][width];
    for (float[] row : x) {
      java.util.Arrays.fill(row, 0.01f);
    }
    for (float[] row : w0) {
      java.util.Arrays.fill(row, 0.01f);
    }
    Variable<TFloat32> w = tf.withName("w").variable(tf.constant(w0));
    Operand<TFloat32> y = tf.linalg.matMul(tf.constant(x), tf.identity(w));
    Operand<TFloat32> loss =
        tf.withName("loss").math.mean(tf.math.square(y), tf.constant(new int[] {0, 1}));
    Op minimize = new GradientDescent(g, 0.001f).minimize(loss, "minimize");
    GlobalStep.create(tf, minimize);
    return g;
  }
}
