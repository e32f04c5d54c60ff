package org.jhooks.bridgetest;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.ModelInstance;
import org.jhooks.SessionRunArgs;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TBfloat16;
import org.tensorflow.types.TFloat16;
import org.tensorflow.types.TFloat32;

/**
 * Runs the JVM driver on a small real graph for the bridge tests.
 *
 * <p>Graph: float variable {@code v} bumped by 1 each step ({@code train_step} also adds 1 to
 * {@code global_step}); placeholder {@code x} with {@code double = 2x}; placeholder-with-default
 * {@code y} (0) with {@code y_times_3 = 3y}; {@code x_half}, {@code x_bfloat16}: x cast to float16
 * and bfloat16.
 */
public final class JvmDriver {
  private JvmDriver() {}

  /** The graph of the class doc (for tests that drive a MonitoredSession from Python). */
  public static Graph graph() {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Variable<TFloat32> v = tf.withName("v").variable(tf.constant(0f));
    var bump = tf.withName("bump").assignAdd(v, tf.constant(1f));
    Placeholder<TFloat32> x =
        tf.withName("x").placeholder(TFloat32.class, Placeholder.shape(Shape.scalar()));
    tf.withName("double").math.mul(x, tf.constant(2f));
    var y = tf.withName("y").placeholderWithDefault(tf.constant(0f), Shape.scalar());
    tf.withName("y_times_3").math.mul(y, tf.constant(3f));
    tf.withName("x_half").dtypes.cast(x, TFloat16.class);
    tf.withName("x_bfloat16").dtypes.cast(x, TBfloat16.class);
    GlobalStep.create(tf, bump);
    return g;
  }

  /** The session {@link #run} is driving (for hooks that misuse it). */
  public static volatile MonitoredSession current;

  /**
   * A plain MonitoredSession with {@code hooks}: runs {@code train_step} feeding x = 1, 2, ...
   * while it should not stop, at most {@code maxSteps} times.
   *
   * @return the number of runs made
   */
  public static int run(List<Hook> hooks, int maxSteps, ModelInstance model) {
    try (Graph g = graph()) {
      MonitoredSession.Builder b = MonitoredSession.builder(g).hooks(hooks);
      if (model != null) {
        b.modelInstance(model);
      }
      int runs = 0;
      try (MonitoredSession s = b.build()) {
        current = s;
        while (!s.shouldStop() && runs < maxSteps) {
          runs++;
          s.run(
              SessionRunArgs.of(
                  List.of(GlobalStep.TRAIN_STEP), Map.of("x:0", NdArrays.scalarOf((float) runs))));
        }
      }
      return runs;
    }
  }

  /**
   * {@link #run}, returning what it threw as a Java caller sees it ({@code null} when nothing was
   * thrown), so Python tests can look at the Java exception itself.
   */
  public static Throwable runCatching(List<Hook> hooks, int maxSteps) {
    try {
      run(hooks, maxSteps, null);
      return null;
    } catch (RuntimeException | Error e) {
      return e;
    }
  }

  /**
   * A MonitoredTrainingSession checkpointing to {@code dir} every {@code saveSteps} steps, with
   * {@code listeners}, for {@code steps} steps.
   */
  public static long train(
      Path dir,
      List<Hook> hooks,
      List<CheckpointSaverListener> listeners,
      int steps,
      int saveSteps) {
    try (Graph g = graph()) {
      try (MonitoredSession s =
          MonitoredTrainingSession.builder(g)
              .checkpointDir(dir)
              .saveCheckpointSteps(saveSteps)
              .checkpointSaverListeners(listeners.toArray(new CheckpointSaverListener[0]))
              .hooks(hooks)
              .build()) {
        for (int i = 0; i < steps && !s.shouldStop(); i++) {
          s.run(
              SessionRunArgs.of(
                  List.of(GlobalStep.TRAIN_STEP), Map.of("x:0", NdArrays.scalarOf(1f))));
        }
        return s.session().globalStep();
      }
    }
  }
}
