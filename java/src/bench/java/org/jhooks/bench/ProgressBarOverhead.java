package org.jhooks.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.jhooks.hooks.ProgressBarHook;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.framework.optimizers.GradientDescent;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * Benchmark P7: per-step time of the jhooks JVM {@link MonitoredSession} with a {@link
 * ProgressBarHook} (over {@code lastStep}, showing {@code tensor}, printing to a discarding stream:
 * the periodic lines of a non-terminal) divided by the same session without it, on the same graph.
 * Blocks alternate, the first of each is a warm-up.
 */
public final class ProgressBarOverhead {
  private ProgressBarOverhead() {}

  /**
   * @param graph the graph; {@code target} is an op name in it, {@code tensor} a scalar to show
   * @param steps steps per timed block
   * @param repeats timed blocks per variant, interleaved
   * @return {@code [with the bar ns/step of each repeat..., without ns/step of each repeat...]}
   */
  public static double[] measure(
      Graph graph, String target, String tensor, int steps, int repeats) {
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
    ProgressBarHook bar =
        new ProgressBarHook(
            (long) steps * (2L * repeats + 2), Map.of("value", tensor), null, discard);
    double[] out = new double[2 * repeats];
    MonitoredSession with = MonitoredSession.builder(graph).hooks(List.of(bar)).build();
    MonitoredSession without = MonitoredSession.builder(graph).build();
    try {
      block(with, target, steps);
      block(without, target, steps);
      for (int r = 0; r < repeats; r++) {
        if (r % 2 == 0) {
          out[r] = block(with, target, steps);
          out[repeats + r] = block(without, target, steps);
        } else {
          out[repeats + r] = block(without, target, steps);
          out[r] = block(with, target, steps);
        }
      }
    } finally {
      with.close();
      without.close();
    }
    return out;
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

  private static double block(MonitoredSession s, String target, int steps) {
    long t0 = System.nanoTime();
    for (int i = 0; i < steps; i++) {
      s.run(target);
    }
    return (System.nanoTime() - t0) / (double) steps;
  }
}
