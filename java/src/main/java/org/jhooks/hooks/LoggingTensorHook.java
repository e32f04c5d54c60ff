package org.jhooks.hooks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jhooks.Hook;
import org.jhooks.Logs;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * Logs tensor values every N runs, every N seconds and/or at the end, at INFO on logger {@code
 * org.jhooks.hooks.LoggingTensorHook}. Twin of TensorFlow's {@code
 * tf.compat.v1.train.LoggingTensorHook} and of {@code jhooks.hooks.LoggingTensorHook}.
 *
 * <p>Runs are counted from 0 from {@code begin()}; the tensors are fetched on run 0 and then when
 * the timer fires. The line is {@code "tag = value, tag2 = value2"} plus {@code " (0.123 sec)"}
 * since the previous line, or the formatter's string. Scalars print as their number, arrays as
 * nested {@code [a b]} rows.
 */
public final class LoggingTensorHook implements Hook {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.LoggingTensorHook");

  private final Map<String, String> tensors;
  private final SecondOrStepTimer timer;
  private final boolean atEnd;
  private final Function<Map<String, NdArray<?>>, String> formatter;
  private final List<String> lines = new ArrayList<>();
  private long iterCount;
  private boolean shouldTrigger;

  /**
   * @param tensors a List of tensor names (tag = name) or a Map tag to tensor name (logged in
   *     sorted tag order, as TF)
   * @param everyNIter log every this many runs, or {@code null}
   * @param everyNSecs log every this many seconds, or {@code null}
   * @param atEnd also log once in {@code end()}
   * @param formatter builds the line from tag to value, or {@code null} for the default line
   * @throws IllegalArgumentException unless only atEnd, not exactly one of everyNIter/everyNSecs;
   *     or {@code everyNIter <= 0} (TF's messages)
   */
  public LoggingTensorHook(
      Object tensors,
      Integer everyNIter,
      Double everyNSecs,
      boolean atEnd,
      Function<Map<String, NdArray<?>>, String> formatter) {
    boolean onlyAtEnd = atEnd && everyNIter == null && everyNSecs == null;
    if (!onlyAtEnd && (everyNIter == null) == (everyNSecs == null)) {
      throw new IllegalArgumentException(
          "either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.");
    }
    if (everyNIter != null && everyNIter <= 0) {
      throw new IllegalArgumentException("invalid every_n_iter=" + everyNIter + ".");
    }
    this.tensors = TaggedTensors.tagged(tensors, "LoggingTensorHook");
    this.timer =
        onlyAtEnd
            ? null
            : new SecondOrStepTimer(
                everyNSecs, everyNIter == null ? null : (long) (int) everyNIter);
    this.atEnd = atEnd;
    this.formatter = formatter;
  }

  /** Logs every {@code everyNIter} runs with the default line. */
  public static LoggingTensorHook everyNIter(Object tensors, int everyNIter) {
    return new LoggingTensorHook(tensors, everyNIter, null, false, null);
  }

  /** The lines logged so far, in order. */
  public List<String> loggedLines() {
    return new ArrayList<>(lines);
  }

  @Override
  public void begin() {
    if (timer != null) {
      timer.reset();
    }
    iterCount = 0;
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    shouldTrigger = timer != null && timer.shouldTriggerForStep(iterCount);
    return shouldTrigger ? SessionRunArgs.of(new java.util.LinkedHashMap<>(tensors)) : null;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    if (shouldTrigger) {
      log((Map<String, NdArray<?>>) runValues.results());
    }
    iterCount++;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void end(Session session) {
    if (atEnd) {
      log((Map<String, NdArray<?>>) session.run(new java.util.LinkedHashMap<>(tensors)));
    }
  }

  private void log(Map<String, NdArray<?>> values) {
    double[] elapsed = timer == null ? null : timer.updateLastTriggeredStep(iterCount);
    String line;
    if (formatter != null) {
      line = formatter.apply(values);
    } else {
      List<String> stats = new ArrayList<>();
      for (String tag : tensors.keySet()) {
        stats.add(tag + " = " + TaggedTensors.format(values.get(tag)));
      }
      line = String.join(", ", stats);
      if (elapsed != null) {
        line += String.format(" (%.3f sec)", elapsed[0]);
      }
    }
    lines.add(line);
    LOG.log(System.Logger.Level.INFO, line);
  }
}
