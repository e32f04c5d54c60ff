package org.jhooks.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;
import org.jhooks.tf.ReplicaDeviceSetter;
import org.jhooks.tf.TfConfig;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArray;

/**
 * A JVM worker of {@code python -m jhooks cluster-demo}: starts this task's TensorFlow server in
 * the JVM, builds the demo graph placed by {@link ReplicaDeviceSetter} (variables on the ps) and
 * trains it between-graph under the jhooks {@link MonitoredTrainingSession} on its own server's
 * master, with the hooks it is given (Python hooks, from {@code jhooks/demo/cluster_task.py}),
 * until the shared global step reaches {@code lastStep}.
 */
public final class ClusterDemoTask {
  private ClusterDemoTask() {}

  /** What one worker did. */
  public static final class Result {
    /** Training runs of this task. */
    public final long localSteps;

    /**
     * Seconds from the end of the first training run (which waits for the chief, or a start
     * barrier) to the end of the last: the steps/s are {@code (localSteps - 1) / seconds}.
     */
    public final double seconds;

    /** Sessions re-created after ABORTED / UNAVAILABLE (a ps restart). */
    public final int recoveries;

    /** The held-out accuracy at the end ({@code accuracy:0}), on the chief; NaN elsewhere. */
    public final double accuracy;

    Result(long localSteps, double seconds, int recoveries, double accuracy) {
      this.localSteps = localSteps;
      this.seconds = seconds;
      this.recoveries = recoveries;
      this.accuracy = accuracy;
    }

    @Override
    public String toString() {
      return "Result(localSteps="
          + localSteps
          + ", seconds="
          + seconds
          + ", recoveries="
          + recoveries
          + ")";
    }
  }

  /**
   * Trains the task {@code task} (its cluster and role, e.g. {@link TfConfig#fromEnv()}); the chief
   * also restores or initializes the model and saves checkpoints every {@code saveSteps} in {@code
   * checkpointDir}.
   *
   * @param recoveryWaitSecs a non-chief's poll for the chief's initialization
   * @param maxWaitSecs a non-chief's bound on that wait
   */
  public static Result train(
      Path csv,
      TfConfig task,
      float learningRate,
      List<Hook> hooks,
      List<Hook> chiefOnlyHooks,
      Path checkpointDir,
      int saveSteps,
      double recoveryWaitSecs,
      double maxWaitSecs)
      throws IOException {
    boolean chief = task.isChief();
    DemoData data = DemoData.load(csv);
    try (Graph graph = DemoModel.build(data, learningRate, task.replicaDeviceSetter())) {
      MonitoredTrainingSession.Builder b =
          MonitoredTrainingSession.builder(graph)
              .tfConfig(task)
              .workerWait(recoveryWaitSecs, maxWaitSecs)
              .hooks(hooks)
              .chiefOnlyHooks(chiefOnlyHooks)
              .logStepCountSteps(0)
              .modelInstance(JvmTrainingDemo.MODEL);
      if (chief && checkpointDir != null) {
        b.checkpointDir(checkpointDir).saveCheckpointSteps(saveSteps).summaryDir(null);
      }
      long steps = 0;
      long start = 0;
      long end = 0;
      double accuracy = Double.NaN;
      MonitoredSession session = b.build();
      try {
        start = System.nanoTime();
        while (!session.shouldStop()) {
          if (session.run(DemoModel.TRAIN_OP) == null && session.reachedEndOfInput()) {
            break;
          }
          steps++;
          end = System.nanoTime();
          if (steps == 1) {
            start = end;
          }
        }
        if (chief) {
          NdArray<?> value =
              (NdArray<?>) session.runWithoutHooks(DemoModel.ACCURACY, Map.of(), null);
          accuracy = ((Number) value.getObject()).doubleValue();
        }
      } finally {
        session.close();
      }
      return new Result(steps, Math.max(0, end - start) / 1e9, session.recoveryCount(), accuracy);
    }
  }
}
