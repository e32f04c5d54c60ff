package org.jhooks.examples;

import com.google.gson.Gson;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.ModelInstance;
import org.jhooks.SessionRunArgs;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.python.PythonHooks;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.framework.optimizers.Adam;
import org.tensorflow.framework.optimizers.GradientDescent;
import org.tensorflow.framework.optimizers.Optimizer;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * Trains {@code y = x·w + b} on a fixed batch (true {@code w = [2, -3]}, {@code b = 0.5}) under a
 * {@link MonitoredTrainingSession} that checkpoints to a dir and resumes from it.
 *
 * <p>Usage: {@code TrainLinearModel <checkpointDir> [totalSteps=200] [gd|adam] [saveSteps=50]}.
 * Prints {@code step <n> loss <l>} lines, then one JSON line: {@code global_step}, {@code loss},
 * {@code w} (2×1), {@code b} (1), {@code checkpoint} (the latest prefix). Variables are {@code
 * VariableV2} named {@code w}, {@code b}, {@code global_step} (plus the optimizer's slots).
 *
 * <p>Run by {@code python -m jhooks java org.jhooks.examples.TrainLinearModel --hook m:C -- DIR},
 * it also runs the Python hooks given with {@code --hook} ({@link PythonHooks}); the model instance
 * is {@code loss:0}, {@code train_step}, {@code global_step:0}.
 */
public final class TrainLinearModel {
  private static final float[][] X = {{1, 0}, {0, 1}, {1, 1}, {2, -1}, {-1, 2}, {0.5f, 0.5f}};

  private TrainLinearModel() {}

  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println(
          "usage: TrainLinearModel <checkpointDir> [totalSteps=200] [gd|adam] [saveSteps=50]");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    long totalSteps = args.length > 1 ? Long.parseLong(args[1]) : 200;
    String optimizer = args.length > 2 ? args[2] : "gd";
    int saveSteps = args.length > 3 ? Integer.parseInt(args[3]) : 50;
    System.out.println(new Gson().toJson(train(dir, totalSteps, optimizer, saveSteps)));
  }

  /** Trains until the global step reaches {@code totalSteps}; returns what {@link #main} prints. */
  public static Map<String, Object> train(
      Path dir, long totalSteps, String optimizerName, int saveSteps) {
    float[][] y = new float[X.length][1];
    for (int i = 0; i < X.length; i++) {
      y[i][0] = 2 * X[i][0] - 3 * X[i][1] + 0.5f;
    }
    try (Graph g = new Graph()) {
      Ops tf = Ops.create(g);
      Placeholder<TFloat32> x =
          tf.withName("x").placeholder(TFloat32.class, Placeholder.shape(Shape.of(-1, 2)));
      Placeholder<TFloat32> labels =
          tf.withName("y").placeholder(TFloat32.class, Placeholder.shape(Shape.of(-1, 1)));
      Variable<TFloat32> w = tf.withName("w").variable(tf.zeros(tf.array(2L, 1L), TFloat32.class));
      Variable<TFloat32> b = tf.withName("b").variable(tf.zeros(tf.array(1L), TFloat32.class));
      Operand<TFloat32> pred = tf.math.add(tf.linalg.matMul(x, w), b);
      // squaredDifference on pred, never Square on a raw variable (a gradient crash in TF 2.18's C
      // API)
      Operand<TFloat32> loss =
          tf.withName("loss")
              .math
              .mean(tf.math.squaredDifference(pred, labels), tf.constant(new int[] {0, 1}));
      Optimizer opt =
          optimizerName.equals("adam") ? new Adam(g, 0.05f) : new GradientDescent(g, 0.1f);
      Op minimize = opt.minimize(loss, "minimize");
      GlobalStep.create(
          tf, minimize); // after minimize: optimizers take gradients for every VariableV2

      Map<String, NdArray<?>> feeds =
          Map.of("x:0", StdArrays.ndCopyOf(X), "y:0", StdArrays.ndCopyOf(y));
      SessionRunArgs step =
          SessionRunArgs.of(
              List.of(GlobalStep.TRAIN_STEP, "loss:0", GlobalStep.TENSOR_NAME), feeds);
      Map<String, Object> out = new LinkedHashMap<>();
      try (MonitoredSession s =
          MonitoredTrainingSession.builder(g)
              .checkpointDir(dir)
              .saveCheckpointSteps(saveSteps)
              .logStepCountSteps(100)
              .modelInstance(
                  ModelInstance.of("loss:0", GlobalStep.TRAIN_STEP, GlobalStep.TENSOR_NAME))
              .hooks(PythonHooks.available() ? PythonHooks.fromCommandLine() : List.of())
              .build()) {
        long globalStep = s.session().globalStep();
        float lastLoss = Float.NaN;
        while (!s.shouldStop() && globalStep < totalSteps) {
          List<?> r = (List<?>) s.run(step);
          lastLoss = ((FloatNdArray) r.get(1)).getFloat();
          globalStep = s.session().globalStep();
          if (globalStep % 50 == 0) {
            System.out.println("step " + globalStep + " loss " + lastLoss);
          }
        }
        List<?> final_ =
            (List<?>)
                s.runWithoutHooks(
                    List.of("w:0", "b:0", "loss:0", GlobalStep.TENSOR_NAME), feeds, null);
        out.put("global_step", ((LongNdArray) final_.get(3)).getLong());
        out.put("loss", ((FloatNdArray) final_.get(2)).getFloat());
        out.put("w", StdArrays.array2dCopyOf((FloatNdArray) final_.get(0)));
        out.put("b", StdArrays.array1dCopyOf((FloatNdArray) final_.get(1)));
      }
      out.put("checkpoint", Checkpoints.latestCheckpoint(dir).orElse(null));
      return out;
    }
  }
}
