package org.jhooks.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jhooks.Hook;
import org.jhooks.hooks.AsyncCheckpointSaverHook;
import org.jhooks.hooks.CheckpointSaverHook;
import org.jhooks.testing.KillableTraining;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;

/**
 * Measures the training-thread cost of the checkpoint saver hooks on {@link KillableTraining}'s
 * graph: milliseconds per step with no saver, with {@link CheckpointSaverHook} and with {@link
 * AsyncCheckpointSaverHook}, saving every {@code saveSteps} steps, and the async overlap count.
 *
 * <p>Usage: {@code SaverOverhead <wSize> <steps> <saveSteps>}.
 */
public final class SaverOverhead {
  private SaverOverhead() {}

  public static void main(String[] args) throws Exception {
    int wSize = Integer.parseInt(args[0]);
    int steps = Integer.parseInt(args[1]);
    int saveSteps = Integer.parseInt(args[2]);
    for (String kind : new String[] {"none", "sync", "async", "none", "sync", "async"}) {
      Path dir = Files.createTempDirectory("saver-overhead");
      Hook hook =
          kind.equals("sync")
              ? CheckpointSaverHook.builder(dir.toString()).saveSteps(saveSteps).build()
              : kind.equals("async")
                  ? AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(saveSteps).build()
                  : null;
      long t0;
      long t1;
      try (Graph g = KillableTraining.graph(wSize);
          MonitoredSession s =
              (hook == null ? MonitoredSession.builder(g) : MonitoredSession.builder(g).hooks(hook))
                  .build()) {
        t0 = System.nanoTime();
        for (int i = 0; i < steps; i++) {
          s.run(GlobalStep.TRAIN_STEP);
        }
        t1 = System.nanoTime();
      }
      String extra =
          hook instanceof AsyncCheckpointSaverHook
              ? " overlaps=" + ((AsyncCheckpointSaverHook) hook).overlapCount()
              : "";
      System.out.printf(
          "%-5s wSize=%d saveSteps=%d: %.2f ms/step%s%n",
          kind, wSize, saveSteps, (t1 - t0) / 1e6 / steps, extra);
    }
  }
}
