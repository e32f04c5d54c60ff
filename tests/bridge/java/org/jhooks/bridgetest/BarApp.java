package org.jhooks.bridgetest;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.demo.DemoData;
import org.jhooks.demo.DemoModel;
import org.jhooks.hooks.LoggingTensorHook;
import org.jhooks.hooks.ProgressBarHook;
import org.jhooks.python.PythonHooks;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.tensorflow.Graph;

/**
 * Trains the demo graph with a progress bar and a LoggingTensorHook (tests of the bars' output):
 * {@code BarApp CSV STEPS LOG_EVERY java|python}; the bar is the Java one or (under the launcher)
 * the Python one. Prints {@code elapsed SECONDS} of the training loop on stdout.
 */
public final class BarApp {
  private BarApp() {}

  public static void main(String[] args) throws Exception {
    int steps = Integer.parseInt(args[1]);
    int logEvery = Integer.parseInt(args[2]);
    Hook bar =
        args[3].equals("java")
            ? new ProgressBarHook((long) steps, Map.of("loss", DemoModel.LOSS), null, null)
            : PythonHooks.load("jhooks.hooks.progress_bar:ProgressBarHook", (long) steps);
    Hook log =
        new LoggingTensorHook(Map.of("step", GlobalStep.TENSOR_NAME), logEvery, null, false, null);
    try (Graph g = DemoModel.build(DemoData.load(Path.of(args[0])), 0.01f)) {
      long t0 = System.nanoTime();
      try (MonitoredSession s = MonitoredSession.builder(g).hooks(List.of(bar, log)).build()) {
        for (int i = 0; i < steps; i++) {
          s.run(DemoModel.TRAIN_OP);
        }
      }
      System.out.println("elapsed " + (System.nanoTime() - t0) / 1e9);
    }
  }
}
