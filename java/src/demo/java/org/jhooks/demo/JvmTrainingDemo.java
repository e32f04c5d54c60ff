package org.jhooks.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.Logs;
import org.jhooks.ModelInstance;
import org.jhooks.hooks.AsyncCheckpointSaverHook;
import org.jhooks.python.PythonHooks;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;
import org.jhooks.tf.TfSession;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArray;

/**
 * The JVM half of the jhooks demo: trains {@link DemoModel} on a CSV under a jhooks {@link
 * MonitoredTrainingSession}, restoring the latest checkpoint of the checkpoint dir first.
 *
 * <pre>
 *   JvmTrainingDemo CSV [--steps N] [--checkpoint-dir DIR] [--learning-rate LR] [--save-steps N]
 * </pre>
 *
 * <p>Hooks: started by the jhooks launcher ({@code python -m jhooks java ... --hook ...}, or {@code
 * python -m jhooks demo}), the Python hooks of {@link PythonHooks#fromCommandLine()} — they decide
 * what is logged and saved; the session only restores from the checkpoint dir. Started as a plain
 * Java program, Java hooks: an {@link AsyncCheckpointSaverHook} saving every variable (all
 * checkpoints kept) every {@code --save-steps} steps. The loop runs {@code train_step} until the
 * global step is {@code --steps} past the restored one or a hook asks to stop.
 */
public final class JvmTrainingDemo {
  private static final System.Logger LOG = Logs.get(JvmTrainingDemo.class.getName());

  /**
   * What ModelDependentHooks (such as a {@code --hook} one) get: the loss, train op and global
   * step.
   */
  public static final ModelInstance MODEL =
      ModelInstance.of(DemoModel.LOSS, DemoModel.TRAIN_OP, GlobalStep.TENSOR_NAME);

  private JvmTrainingDemo() {}

  /** What a training run did. */
  public static final class Result {
    public final long firstStep;
    public final long lastStep;
    public final float finalLoss;
    public final float heldOutAccuracy;

    Result(long firstStep, long lastStep, float finalLoss, float heldOutAccuracy) {
      this.firstStep = firstStep;
      this.lastStep = lastStep;
      this.finalLoss = finalLoss;
      this.heldOutAccuracy = heldOutAccuracy;
    }

    @Override
    public String toString() {
      return String.format(
          "global step %d -> %d, loss %.4f, held-out accuracy %.4f",
          firstStep, lastStep, finalLoss, heldOutAccuracy);
    }
  }

  /** The parsed command line. */
  public static final class Options {
    Path csv;
    int steps = 200;
    Path checkpointDir = Path.of("jvm-demo-checkpoints");
    float learningRate = DemoModel.DEFAULT_LEARNING_RATE;
    int saveSteps = 100;

    /**
     * @throws IllegalArgumentException an unknown flag, a missing value or no CSV path
     */
    public static Options parse(String... args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (!a.startsWith("--")) {
          if (o.csv != null) {
            throw new IllegalArgumentException("more than one CSV path: " + o.csv + " and " + a);
          }
          o.csv = Path.of(a);
          continue;
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        String v = args[++i];
        switch (a) {
          case "--steps":
            o.steps = Integer.parseInt(v);
            break;
          case "--checkpoint-dir":
            o.checkpointDir = Path.of(v);
            break;
          case "--learning-rate":
            o.learningRate = Float.parseFloat(v);
            break;
          case "--save-steps":
            o.saveSteps = Integer.parseInt(v);
            break;
          default:
            throw new IllegalArgumentException("unknown option " + a);
        }
      }
      if (o.csv == null) {
        throw new IllegalArgumentException(
            "usage: JvmTrainingDemo CSV [--steps N] [--checkpoint-dir DIR] [--learning-rate LR]"
                + " [--save-steps N]");
      }
      return o;
    }
  }

  public static void main(String[] args) throws IOException {
    Result r = run(Options.parse(args));
    System.out.println("JvmTrainingDemo: " + r);
  }

  /** Trains with the launcher's Python hooks, or the Java hooks when not launched from Python. */
  public static Result run(Options o) throws IOException {
    List<Hook> hooks = PythonHooks.available() ? PythonHooks.fromCommandLine() : javaHooks(o);
    return train(o, hooks);
  }

  /** The hooks of a plain Java run: asynchronous checkpoints of the model every save steps. */
  public static List<Hook> javaHooks(Options o) {
    List<Hook> hooks = new ArrayList<>();
    hooks.add(
        AsyncCheckpointSaverHook.builder(o.checkpointDir.toString())
            .saveSteps(o.saveSteps)
            .maxToKeep(0)
            .build());
    return hooks;
  }

  /** Trains with exactly {@code hooks}; restores the latest checkpoint of the checkpoint dir. */
  public static Result train(Options o, List<Hook> hooks) throws IOException {
    DemoData data = DemoData.load(o.csv);
    try (Graph graph = DemoModel.build(data, o.learningRate)) {
      MonitoredSession session =
          MonitoredTrainingSession.builder(graph)
              .hooks(hooks)
              .modelInstance(MODEL)
              .logStepCountSteps(0)
              .sessionCreator(new CheckpointRestoringSessionCreator(o.checkpointDir))
              .build();
      long first;
      long step;
      try {
        first = session.session().globalStep();
        step = first;
        LOG.log(
            System.Logger.Level.INFO,
            "JvmTrainingDemo: training from global step " + first + " for " + o.steps + " steps");
        while (!session.shouldStop() && step < first + o.steps) {
          @SuppressWarnings("unchecked")
          List<Object> out =
              (List<Object>) session.run(List.of(DemoModel.TRAIN_OP, GlobalStep.TENSOR_NAME));
          if (out == null) {
            break;
          }
          // train_step's value is the step after the increment.
          step = ((Number) ((NdArray<?>) out.get(1)).getObject()).longValue();
        }
        @SuppressWarnings("unchecked")
        Map<String, NdArray<?>> end =
            (Map<String, NdArray<?>>)
                session.runWithoutHooks(
                    Map.of(
                        "loss",
                        DemoModel.LOSS,
                        "accuracy",
                        DemoModel.ACCURACY,
                        "step",
                        GlobalStep.TENSOR_NAME),
                    Map.of(),
                    null);
        Result r =
            new Result(
                first,
                ((Number) end.get("step").getObject()).longValue(),
                ((Number) end.get("loss").getObject()).floatValue(),
                ((Number) end.get("accuracy").getObject()).floatValue());
        return r;
      } finally {
        session.close();
      }
    }
  }

  /**
   * Restores the checkpoint at {@code prefix} into a fresh demo graph for {@code csv} and returns
   * the model variables ({@link DemoModel#VARIABLES}) as doubles, flattened in row-major order:
   * {@code w} (features values), {@code b} (1), {@code global_step} (1). Used to check that the JVM
   * reads checkpoints written by Python.
   *
   * @throws org.tensorflow.exceptions.TensorFlowException the checkpoint is missing or lacks a
   *     variable
   */
  public static Map<String, double[]> restoreVariables(String csv, String prefix)
      throws IOException {
    DemoData data = DemoData.load(Path.of(csv));
    try (Graph graph = DemoModel.build(data, DemoModel.DEFAULT_LEARNING_RATE);
        TfSession session = new TfSession(new org.tensorflow.Session(graph), graph)) {
      session.restore(prefix);
      Map<String, double[]> out = new LinkedHashMap<>();
      for (String name : DemoModel.VARIABLES) {
        NdArray<?> value = (NdArray<?>) session.run(name + ":0");
        double[] flat = new double[(int) value.size()];
        int[] i = {0};
        value.scalars().forEach(s -> flat[i[0]++] = ((Number) s.getObject()).doubleValue());
        out.put(name, flat);
      }
      return out;
    }
  }
}
