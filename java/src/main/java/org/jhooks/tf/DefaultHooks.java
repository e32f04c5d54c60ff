package org.jhooks.tf;

import java.util.List;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;

/**
 * Makes TensorFlow's default hooks of a {@link MonitoredTrainingSession} on the chief: the step
 * counter, the summary saver and the checkpoint saver, as TensorFlow's {@code
 * MonitoredTrainingSession} makes them from {@code basic_session_run_hooks}. {@link
 * MonitoredTrainingSession} decides which of them run and with which settings; an implementation
 * only constructs them.
 *
 * <p>The standard implementation, {@code org.jhooks.hooks.StandardDefaultHooks}, builds them from
 * the standard hooks ({@code StepCounterHook}, {@code SummarySaverHook}, {@code
 * CheckpointSaverHook}). The JVM driver sits below the standard hooks, so it finds that
 * implementation with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/org.jhooks.tf.DefaultHooks} in the jhooks jar) unless the builder is given one
 * ({@link MonitoredTrainingSession.Builder#defaultHooks}).
 */
public interface DefaultHooks {
  /**
   * A hook that logs the global steps per second every {@code everySteps} global steps
   * (TensorFlow's {@code StepCounterHook(every_n_steps=..., output_dir=...)}).
   *
   * @param everySteps more than 0
   * @param outputDir where the rate is also written as the summary {@code global_step/sec}, or
   *     {@code null} to only log it
   */
  Hook stepCounter(int everySteps, String outputDir);

  /**
   * A hook that writes {@code summaryOp} to {@code outputDir} (TensorFlow's {@code
   * SummarySaverHook}); exactly one of {@code saveSteps} and {@code saveSecs} is non-null.
   *
   * @param summaryOp a serialized {@code Summary} tensor name or a map tag to scalar tensor name
   */
  Hook summarySaver(Integer saveSteps, Double saveSecs, String outputDir, Object summaryOp);

  /**
   * A hook that saves checkpoints of the graph's variables in {@code checkpointDir} (TensorFlow's
   * {@code CheckpointSaverHook}); exactly one of {@code saveSteps} and {@code saveSecs} is
   * non-null.
   *
   * @param maxToKeep how many recent checkpoints the saver keeps
   * @param listeners called around each save, in order
   */
  Hook checkpointSaver(
      String checkpointDir,
      Integer saveSteps,
      Double saveSecs,
      int maxToKeep,
      List<CheckpointSaverListener> listeners);
}
