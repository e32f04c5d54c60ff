package org.jhooks.testing;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import org.jhooks.hooks.AsyncCheckpointSaverHook;
import org.jhooks.hooks.StepCounterHook;
import org.jhooks.hooks.StopAtStepHook;
import org.jhooks.hooks.SummarySaverHook;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * A small training job that resumes from its checkpoint dir, for crash tests (it is meant to be
 * killed with SIGKILL while asynchronous saves are in flight) and for checking Java-written files
 * from Python. Test support (package {@code org.jhooks.testing}), not API.
 *
 * <p>Graph: float scalar {@code v} and float vector {@code w} of {@code wSize} elements, both
 * starting at 0; {@code train_step} adds 1 to {@code v} and to every element of {@code w}, then 1
 * to {@code global_step}. So a consistent checkpoint has {@code v == global_step == w[i]} for all
 * i. Hooks: {@link AsyncCheckpointSaverHook} every {@code saveSteps} steps (keeps 3), {@link
 * StopAtStepHook} at {@code lastStep}, and, when {@code eventDir} is given, {@link
 * SummarySaverHook} (scalar {@code v} every 10 steps) and {@link StepCounterHook} (every 10 steps).
 *
 * <p>Usage: {@code KillableTraining <checkpointDir> <lastStep> <saveSteps> <wSize> [eventDir]}.
 * Prints {@code RESUMED <step>} once the session exists and {@code DONE <step>} at the end.
 */
public final class KillableTraining {
  private KillableTraining() {}

  public static void main(String[] args) {
    Path dir = Paths.get(args[0]);
    long lastStep = Long.parseLong(args[1]);
    int saveSteps = Integer.parseInt(args[2]);
    int wSize = Integer.parseInt(args[3]);
    String eventDir = args.length > 4 ? args[4] : null;
    try (Graph g = graph(wSize)) {
      AsyncCheckpointSaverHook saver =
          AsyncCheckpointSaverHook.builder(dir.toString())
              .saveSteps(saveSteps)
              .maxToKeep(3)
              .build();
      MonitoredSession.Builder b =
          MonitoredSession.builder(g)
              .sessionCreator(new CheckpointRestoringSessionCreator(dir))
              .hooks(saver, StopAtStepHook.ofLastStep(lastStep));
      if (eventDir != null) {
        b.hooks(
            new SummarySaverHook(10, null, eventDir, null, null, Map.of("v", "v:0")),
            new StepCounterHook(10, null, eventDir, null));
      }
      try (MonitoredSession s = b.build()) {
        System.out.println("RESUMED " + s.session().globalStep());
        System.out.flush();
        while (!s.shouldStop()) {
          s.run(GlobalStep.TRAIN_STEP);
        }
        System.out.println("DONE " + s.session().globalStep());
      }
    }
  }

  /** The graph described in the class doc. */
  public static Graph graph(int wSize) {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Variable<TFloat32> v = tf.withName("v").variable(tf.constant(0f));
    Variable<TFloat32> w =
        tf.withName("w").variable(tf.fill(tf.constant(new int[] {wSize}), tf.constant(0f)));
    var bumpV = tf.assignAdd(v, tf.constant(1f));
    var bumpW = tf.assignAdd(w, tf.fill(tf.constant(new int[] {wSize}), tf.constant(1f)));
    var both = tf.withName("bump").withControlDependencies(java.util.List.of(bumpV, bumpW)).noOp();
    GlobalStep.create(tf, both);
    return g;
  }
}
