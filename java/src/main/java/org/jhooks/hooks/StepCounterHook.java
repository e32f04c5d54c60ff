package org.jhooks.hooks;

import java.util.OptionalLong;
import org.jhooks.Hook;
import org.jhooks.Logs;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * Measures global steps per second and logs it ({@code "global_step/sec: 12.5"}, INFO, logger
 * {@code org.jhooks.hooks.StepCounterHook}); with an output dir or writer also writes the scalar
 * summary {@code global_step/sec} at the global step. Twin of TensorFlow's {@code
 * tf.compat.v1.train.StepCounterHook} and of {@code jhooks.hooks.StepCounterHook}.
 *
 * <p>Each run fetches the global step; when the timer would fire for {@code fetched + 1} the step
 * is re-read raw, and the rate is (steps since last trigger) / (seconds since last trigger).
 */
public final class StepCounterHook implements Hook {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.StepCounterHook");

  private final SecondOrStepTimer timer;
  private final HookEventWriter writer;
  private Double lastRate;

  /**
   * @param everyNSteps measure every this many global steps (TF's default 100), or {@code null}
   * @param everyNSecs measure every this many seconds, or {@code null}
   * @param outputDir where to write the summary, or {@code null}
   * @param summaryWriter the writer to use instead of one for {@code outputDir}, or {@code null}
   * @throws IllegalArgumentException not exactly one of everyNSteps/everyNSecs (TF's message)
   */
  public StepCounterHook(
      Integer everyNSteps, Double everyNSecs, String outputDir, EventFileWriter summaryWriter) {
    if ((everyNSteps == null) == (everyNSecs == null)) {
      throw new IllegalArgumentException(
          "exactly one of every_n_steps and every_n_secs should be provided.");
    }
    this.timer =
        new SecondOrStepTimer(everyNSecs, everyNSteps == null ? null : (long) (int) everyNSteps);
    this.writer = new HookEventWriter(summaryWriter, outputDir);
  }

  /** Every 100 steps, log only: TF's defaults. */
  public StepCounterHook() {
    this(100, null, null, null);
  }

  /** The last measured rate in global steps per second, or {@code null}. */
  public Double lastRate() {
    return lastRate;
  }

  @Override
  public void begin() {
    writer.open();
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return SessionRunArgs.of(runContext.session().globalStepTensorName());
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    long stale = ((Number) ((NdArray<?>) runValues.results()).getObject()).longValue();
    Session session = runContext.session();
    OptionalLong due = timer.dueStep(session, stale);
    if (due.isPresent()) {
      long step = due.getAsLong();
      double[] elapsed = timer.updateLastTriggeredStep(step);
      if (elapsed != null && elapsed[0] > 0) {
        record(elapsed[1] / elapsed[0], step, tag(session));
      }
    }
  }

  private void record(double stepsPerSec, long step, String tag) {
    lastRate = stepsPerSec;
    if (writer.get() != null) {
      writer.get().addScalar(tag, stepsPerSec, step);
    }
    LOG.log(System.Logger.Level.INFO, () -> tag + ": " + formatG(stepsPerSec));
  }

  @Override
  public void end(Session session) {
    writer.end();
  }

  private static String tag(Session session) {
    String name = session.globalStepTensorName();
    int colon = name.lastIndexOf(':');
    return (colon > 0 ? name.substring(0, colon) : name) + "/sec";
  }

  /** Python's {@code %g}: 6 significant digits, no trailing zeros. */
  static String formatG(double v) {
    String s = String.format("%.6g", v);
    if (s.contains("e")) {
      String[] parts = s.split("e");
      String mant =
          parts[0].contains(".") ? parts[0].replaceAll("0+$", "").replaceAll("\\.$", "") : parts[0];
      return mant + "e" + parts[1];
    }
    return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }
}
