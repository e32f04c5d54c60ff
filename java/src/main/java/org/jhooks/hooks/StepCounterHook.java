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
 * summary at the global step. The tag is TF's: the global step's op name and {@code /sec} ({@code
 * global_step/sec}; {@code bar/foo/sec} for a global step variable {@code bar/foo}). Twin of
 * TensorFlow's {@code tf.compat.v1.train.StepCounterHook} and of {@code
 * jhooks.hooks.StepCounterHook}.
 *
 * <p>Each run fetches the global step; when the timer would fire for {@code fetched + 1} the step
 * is re-read raw, and the rate is (steps since last trigger) / (seconds since last trigger).
 *
 * <p>As TF's hook it warns (WARNING, {@link #NOT_INCREASED} with the two values, TF's text) when
 * the global step fetched with a run equals the one fetched with the previous run, the first {@link
 * #MAX_NOT_INCREASED_WARNINGS} times; TF counts them per process ({@code log_first_n}), jhooks per
 * hook. No other standard hook warns about it, as in TF.
 */
public final class StepCounterHook implements Hook {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.StepCounterHook");

  /** TF's warning text; {@code %s} are the fetched value and the previous fetched value. */
  public static final String NOT_INCREASED =
      "It seems that global step (tf.train.get_global_step) has not been increased. Current value"
          + " (could be stable): %s vs previous value: %s. You could increase the global step by"
          + " passing tf.train.get_global_step() to Optimizer.apply_gradients or"
          + " Optimizer.minimize.";

  /** How many times one hook logs {@link #NOT_INCREASED} (TF: 5 per process). */
  public static final int MAX_NOT_INCREASED_WARNINGS = 5;

  private final SecondOrStepTimer timer;
  private final HookEventWriter writer;
  private Double lastRate;
  private Long lastFetched;
  private int notIncreasedWarnings;

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
    // TF's condition: the fetched value against the previous fetched value (it may be read before
    // the run's increment; some optimizers, e.g. SyncReplicas, do not increase it by design)
    if (lastFetched != null
        && stale == lastFetched
        && notIncreasedWarnings < MAX_NOT_INCREASED_WARNINGS) {
      notIncreasedWarnings++;
      long previous = lastFetched;
      LOG.log(System.Logger.Level.WARNING, () -> String.format(NOT_INCREASED, stale, previous));
    }
    lastFetched = stale;
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
