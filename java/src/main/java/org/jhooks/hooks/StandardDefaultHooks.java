package org.jhooks.hooks;

import java.util.List;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.tf.DefaultHooks;

/**
 * TensorFlow's default hooks of a {@link org.jhooks.tf.MonitoredTrainingSession} made from the
 * standard hooks, as TensorFlow's {@code MonitoredTrainingSession} makes them from {@code
 * basic_session_run_hooks}: {@link StepCounterHook}, {@link SummarySaverHook}, {@link
 * CheckpointSaverHook}. Registered as the {@link DefaultHooks} service of the jhooks jar.
 */
public final class StandardDefaultHooks implements DefaultHooks {
  /** The service's constructor ({@link java.util.ServiceLoader}). */
  public StandardDefaultHooks() {}

  @Override
  public Hook stepCounter(int everySteps, String outputDir) {
    return new StepCounterHook(everySteps, null, outputDir, null);
  }

  @Override
  public Hook summarySaver(Integer saveSteps, Double saveSecs, String outputDir, Object summaryOp) {
    return new SummarySaverHook(saveSteps, saveSecs, outputDir, null, null, summaryOp);
  }

  @Override
  public Hook checkpointSaver(
      String checkpointDir,
      Integer saveSteps,
      Double saveSecs,
      int maxToKeep,
      List<CheckpointSaverListener> listeners) {
    var saver =
        CheckpointSaverHook.builder(checkpointDir).maxToKeep(maxToKeep).listeners(listeners);
    if (saveSecs != null) {
      saver.saveSecs(saveSecs);
    } else {
      saver.saveSteps(saveSteps);
    }
    return saver.build();
  }
}
