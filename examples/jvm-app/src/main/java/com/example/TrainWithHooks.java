package com.example;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.hooks.LoggingTensorHook;
import org.jhooks.hooks.StopAtStepHook;
import org.jhooks.python.PythonHooks;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.framework.optimizers.GradientDescent;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * Fits {@code y = 3x - 1} with tensorflow-java under the jhooks MonitoredTrainingSession, with two
 * standard Java hooks (stop at a step, log the loss) and one of its own ({@link LastLoss}),
 * checkpointing every 50 steps.
 *
 * <p>Usage: {@code TrainWithHooks <checkpointDir> [steps=200] [module:Class ...]}. Each {@code
 * module:Class} is a Python hook loaded with {@link PythonHooks#load}: in a JVM started by plain
 * {@code java} (or Gradle {@code run}) that needs jep's jar of the Python environment on the
 * classpath and the options {@code python -m jhooks jvm-options} prints (see build.gradle and
 * docs/bridge.md, "Backends"). It resumes from the newest checkpoint in the directory and trains
 * {@code steps} steps on from there (a second run in the same directory ends at twice as many),
 * then prints one line: {@code trained: global_step=<n> loss=<float> w=<float> b=<float>
 * checkpoints=<the .index files>}.
 */
public final class TrainWithHooks {
  private static final float[][] X = {{-1}, {0}, {1}, {2}, {3}, {0.5f}, {-0.5f}, {1.5f}};

  private TrainWithHooks() {}

  /** A hook of our own: fetches the loss at every step and keeps the last value. */
  static final class LastLoss implements Hook {
    float value = Float.NaN;

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      return SessionRunArgs.of("loss:0");
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      value = ((FloatNdArray) runValues.results()).getFloat();
    }
  }

  public static void main(String[] args) throws IOException {
    Path checkpointDir = Path.of(args.length > 0 ? args[0] : "checkpoints");
    long steps = args.length > 1 ? Long.parseLong(args[1]) : 200;
    // Python hooks first, before TensorFlow loads: a JVM started without the runtime options of
    // `python -m jhooks jvm-options` is then told so by jhooks, naming them.
    List<Hook> pythonHooks = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      pythonHooks.add(PythonHooks.load(args[i])); // a Python hook, e.g. loss_hooks:LossLogger
    }
    float[][] y = new float[X.length][1];
    for (int i = 0; i < X.length; i++) {
      y[i][0] = 3 * X[i][0] - 1;
    }
    try (Graph graph = new Graph()) {
      Ops tf = Ops.create(graph);
      Variable<TFloat32> w = tf.withName("w").variable(tf.zeros(tf.array(1L, 1L), TFloat32.class));
      Variable<TFloat32> b = tf.withName("b").variable(tf.zeros(tf.array(1L), TFloat32.class));
      Operand<TFloat32> prediction = tf.math.add(tf.linalg.matMul(tf.constant(X), w), b);
      tf.withName("loss")
          .math
          .mean(
              tf.math.squaredDifference(prediction, tf.constant(y)), tf.constant(new int[] {0, 1}));
      Op minimize = new GradientDescent(graph, 0.1f).minimize(graph.operation("loss").output(0));
      GlobalStep.create(
          tf, minimize); // after minimize: the optimizer differentiates every variable

      LastLoss lastLoss = new LastLoss();
      List<Hook> hooks = new ArrayList<>();
      hooks.add(new StopAtStepHook(steps, null)); // numSteps: on from the restored step
      hooks.add(
          new LoggingTensorHook(List.of("loss:0", GlobalStep.TENSOR_NAME), 50, null, false, null));
      hooks.add(lastLoss);
      hooks.addAll(pythonHooks);
      try (MonitoredSession session =
          MonitoredTrainingSession.builder(graph)
              .checkpointDir(checkpointDir)
              .saveCheckpointSteps(50)
              .hooks(hooks)
              .build()) {
        while (!session.shouldStop()) {
          session.run(SessionRunArgs.of(GlobalStep.TRAIN_STEP));
        }
        List<?> last =
            (List<?>)
                session.runWithoutHooks(List.of("w:0", "b:0", "global_step:0"), Map.of(), null);
        System.out.printf(
            "trained: global_step=%d loss=%s w=%s b=%s checkpoints=%s%n",
            ((LongNdArray) last.get(2)).getLong(),
            lastLoss.value,
            ((FloatNdArray) last.get(0)).getFloat(0, 0),
            ((FloatNdArray) last.get(1)).getFloat(0),
            indexFiles(checkpointDir));
      }
    }
  }

  private static List<String> indexFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".index"))
          .sorted()
          .collect(Collectors.toList());
    }
  }
}
