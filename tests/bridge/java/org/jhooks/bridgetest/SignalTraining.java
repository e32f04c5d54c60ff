package org.jhooks.bridgetest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.python.PythonHooks;
import org.jhooks.testing.KillableTraining;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;

/**
 * Endless training for the signal tests, with Python hooks busy on Java threads: the training loop
 * runs on a Java thread (so every hook callback does), and {@link #busy} more Java threads call a
 * Python hook's {@code afterSessionRun} without pause. Prints {@code READY} once a few steps are
 * done, then trains until the process is signalled.
 *
 * <p>Launcher use: {@code python -m jhooks java org.jhooks.bridgetest.SignalTraining --hook <saver
 * factory> --hook <busy hook> -- <checkpointDir> <wSize>}: the first command-line hook (a
 * checkpoint saver) trains with the graph, the second is called from the busy threads.
 */
public final class SignalTraining {
  private SignalTraining() {}

  public static void main(String[] args) throws InterruptedException {
    List<Hook> hooks = PythonHooks.fromCommandLine();
    Path dir = Path.of(args[0]);
    int wSize = Integer.parseInt(args[1]);
    busy(hooks.get(1), 2);
    Thread training = new Thread(() -> train(dir, wSize, List.of(hooks.get(0))), "training");
    training.start();
    training.join();
  }

  /**
   * Starts {@code threads} non-daemon Java threads calling {@code hook.afterSessionRun} forever.
   */
  public static List<Thread> busy(Hook hook, int threads) {
    List<Thread> out = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread t =
          new Thread(
              () -> {
                SessionRunValues values = new SessionRunValues(null, null, null);
                while (true) {
                  hook.afterSessionRun(new SessionRunContext(null, null), values);
                }
              },
              "busy-" + i);
      t.start();
      out.add(t);
    }
    return out;
  }

  /** A monitored session on {@link KillableTraining#graph}, restoring from {@code dir}. */
  public static MonitoredSession session(Graph g, Path dir, List<Hook> hooks) {
    return MonitoredSession.builder(g)
        .sessionCreator(new CheckpointRestoringSessionCreator(dir))
        .hooks(hooks)
        .build();
  }

  static void train(Path dir, int wSize, List<Hook> hooks) {
    try (Graph g = KillableTraining.graph(wSize);
        MonitoredSession s = session(g, dir, hooks)) {
      for (int i = 0; !s.shouldStop(); i++) {
        s.run(GlobalStep.TRAIN_STEP);
        if (i == 5) {
          System.out.println("READY");
          System.out.flush();
        }
      }
    }
  }
}
