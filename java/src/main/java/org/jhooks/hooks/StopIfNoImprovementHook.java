package org.jhooks.hooks;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.jhooks.Hook;
import org.jhooks.Logs;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.tf.TensorValues;
import org.tensorflow.ndarray.NdArray;

/**
 * Requests a stop when a fetched metric has not improved for {@code patience} evaluations. Like
 * Keras' {@code EarlyStopping(monitor, min_delta, patience, mode)} and TF Estimator's {@code
 * stop_if_no_decrease_hook} / {@code stop_if_no_increase_hook}, on a tensor fetched with the
 * training runs instead of an evaluation directory. Twin of {@code
 * jhooks.hooks.StopIfNoImprovementHook}.
 *
 * <p>Each run fetches the global step and {@code metric}; when the step timer fires (first run,
 * then every {@code everyNSteps} global steps, the global step re-read with a raw run) the metric
 * value of that run is one evaluation. It improves when it is below {@code best - minDelta} ({@code
 * mode="min"}) or above {@code best + minDelta} ({@code "max"}); the first evaluation always
 * improves, a NaN never does. After {@code patience} evaluations in a row without improvement the
 * hook calls {@code runContext.requestStop()} and logs INFO {@code "Requesting early stopping at
 * global step S: <metric> did not improve for N evaluations (best B at global step T)."}.
 */
public final class StopIfNoImprovementHook implements Hook {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.StopIfNoImprovementHook");

  private final String metric;
  private final boolean minimize;
  private final int patience;
  private final double minDelta;
  private final SecondOrStepTimer timer;
  private Double best;
  private Long bestStep;
  private int waited;

  /**
   * @param metric tensor name {@code "op:N"} of a numeric scalar (any float or integer dtype; a
   *     one-element array is accepted)
   * @param mode {@code "min"} (lower is better) or {@code "max"}; {@code null} means "min"
   * @param patience evaluations without improvement before stopping ({@code >= 1}); {@code null}
   *     means 1
   * @param minDelta smallest change that counts as an improvement ({@code >= 0}); {@code null}
   *     means 0
   * @param everyNSteps global steps between evaluations ({@code >= 1}); {@code null} means 1
   * @throws IllegalArgumentException a null or empty metric, a bad mode, patience, minDelta or
   *     everyNSteps
   */
  public StopIfNoImprovementHook(
      String metric, String mode, Integer patience, Double minDelta, Integer everyNSteps) {
    if (metric == null || metric.isEmpty()) {
      throw new IllegalArgumentException(
          "StopIfNoImprovementHook: metric must be a tensor name (str), got "
              + (metric == null ? "null" : "''"));
    }
    String m = mode == null ? "min" : mode;
    if (!m.equals("min") && !m.equals("max")) {
      throw new IllegalArgumentException(
          "StopIfNoImprovementHook: mode must be 'min' or 'max', got '" + mode + "'");
    }
    int p = patience == null ? 1 : patience;
    if (p < 1) {
      throw new IllegalArgumentException(
          "StopIfNoImprovementHook: patience must be >= 1, got " + patience);
    }
    double d = minDelta == null ? 0.0 : minDelta;
    if (!(d >= 0)) {
      throw new IllegalArgumentException(
          "StopIfNoImprovementHook: minDelta must be >= 0, got " + minDelta);
    }
    int every = everyNSteps == null ? 1 : everyNSteps;
    if (every < 1) {
      throw new IllegalArgumentException(
          "StopIfNoImprovementHook: everyNSteps must be >= 1, got " + everyNSteps);
    }
    this.metric = metric;
    this.minimize = m.equals("min");
    this.patience = p;
    this.minDelta = d;
    this.timer = new SecondOrStepTimer(null, (long) every);
  }

  /** The best metric value so far, or {@code null} before the first evaluation. */
  public Double best() {
    return best;
  }

  /** The global step of the best value, or {@code null} before the first evaluation. */
  public Long bestStep() {
    return bestStep;
  }

  /** Evaluations in a row that did not improve on the best value. */
  public int evaluationsWithoutImprovement() {
    return waited;
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    Map<String, String> fetches = new LinkedHashMap<>();
    fetches.put("step", runContext.session().globalStepTensorName());
    fetches.put("metric", metric);
    return SessionRunArgs.of(fetches);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    Map<?, ?> results = (Map<?, ?>) runValues.results();
    long fetched = ((Number) ((NdArray<?>) results.get("step")).getObject()).longValue();
    OptionalLong due = timer.dueStep(runContext.session(), fetched);
    if (due.isEmpty()) {
      return;
    }
    long step = due.getAsLong();
    timer.updateLastTriggeredStep(step);
    double value = scalar((NdArray<?>) results.get("metric"));
    if (improves(value)) {
      best = value;
      bestStep = step;
      waited = 0;
      return;
    }
    waited++;
    if (waited >= patience) {
      LOG.log(
          System.Logger.Level.INFO,
          () ->
              "Requesting early stopping at global step "
                  + step
                  + ": "
                  + metric
                  + " did not improve for "
                  + waited
                  + " evaluations (best "
                  + best
                  + " at global step "
                  + bestStep
                  + ").");
      runContext.requestStop();
    }
  }

  private boolean improves(double value) {
    if (Double.isNaN(value)) {
      return false;
    }
    if (best == null) {
      return true;
    }
    return minimize ? value < best - minDelta : value > best + minDelta;
  }

  private double scalar(NdArray<?> value) {
    Object v = value.size() == 1 ? value.getObject(new long[value.rank()]) : null;
    Double asDouble = TensorValues.scalarAsDouble(value); // a uint8 240 is 240, not the byte's -16
    if (v instanceof Number && asDouble != null) {
      return asDouble;
    }
    if (v instanceof Boolean) {
      return ((Boolean) v) ? 1.0 : 0.0;
    }
    throw new IllegalArgumentException(
        "StopIfNoImprovementHook: metric '"
            + metric
            + "' must be a numeric scalar, got shape "
            + value.shape()
            + (v == null ? "" : " of " + v.getClass().getSimpleName()));
  }
}
