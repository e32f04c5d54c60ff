package org.jhooks.hooks;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.bridge.PythonConsole;

/**
 * Training progress over the global step: a bar redrawn in place on a terminal, periodic log-style
 * lines elsewhere. Twin of {@code jhooks.hooks.ProgressBarHook} (which draws with tqdm); no
 * TensorFlow counterpart. The rules, the same in both languages (docs/standard-hooks.md, "Progress
 * bars"):
 *
 * <ul>
 *   <li>progress is sampled (global step and {@code tensors}) at most every {@link
 *       #MIN_INTERVAL_SECS} (0.2 s), on the first run and in {@code end()}; a run between samples
 *       costs one clock read;
 *   <li>on a terminal the bar ({@code "120/1000 [###---] 12% 45.3 step/s, loss=0.25"}; without
 *       {@code lastStep} no total and no bar) is redrawn in place at each sample, and cleared while
 *       a {@code java.util.logging} console record (the default {@link System.Logger} backend) is
 *       printed, so a record never lands on its line;
 *   <li>elsewhere (a pipe, a file, a CI log, any {@code stream} given) a line such as {@code
 *       "200/2000 steps (10%), 1.6 s, 125.0 step/s, loss=0.25"} is printed when a sample reaches
 *       the next 10 % of the total, when 30 s passed since the last line, and in {@code end()}.
 * </ul>
 *
 * <p>In a JVM that Python drives (a Python session, or {@code python -m jhooks java}) a bar on the
 * default stream is drawn by Python's {@code jhooks.hooks.progress_bar.BarDisplay}, where log
 * records of both languages arrive ({@link PythonConsole}).
 *
 * <p>Position = the global step (re-read with a raw run at each sample: a value fetched with the
 * train op may be read before or after its increment) minus the global step at the first session
 * creation.
 */
public final class ProgressBarHook implements Hook {
  /** Least time between two samples (and so redraws) of a bar, both languages. */
  public static final double MIN_INTERVAL_SECS = 0.2;

  static final String PYTHON_DISPLAY = "jhooks.hooks.progress_bar:BarDisplay";

  /** How a bar is shown: {@code show} at each sample, {@code close} once at the end. */
  public interface Display {
    /** Moves to {@code position} steps done, with {@code postfix} ("loss=0.25", or empty). */
    void show(long position, String postfix);

    /** Draws the last state and releases the output. */
    void close();
  }

  private final Long lastStep;
  private final Map<String, String> tensors;
  private final int everyNIter;
  private final PrintStream stream;
  private Display display;
  private Long firstStep;
  private long position;
  private long iter;
  private long lastSampleNanos;
  private boolean sampling;
  private String postfix = "";

  /**
   * @param lastStep the global step at which the bar is full, or {@code null} for a counter only
   * @param tensors a List of tensor names or Map tag to name shown after the rate, or {@code null}
   * @param everyNIter sample at most every this many runs ({@code null}: 1), and at most every
   *     {@link #MIN_INTERVAL_SECS}
   * @param stream where to draw ({@code null}: {@code System.err}, or Python's {@code sys.stderr}
   *     when Python drives this JVM); a given stream gets the periodic lines
   * @throws IllegalArgumentException {@code everyNIter <= 0}
   */
  public ProgressBarHook(Long lastStep, Object tensors, Integer everyNIter, PrintStream stream) {
    int n = everyNIter == null ? 1 : everyNIter;
    if (n <= 0) {
      throw new IllegalArgumentException("invalid every_n_iter=" + n + ".");
    }
    this.lastStep = lastStep;
    this.tensors =
        tensors == null ? new LinkedHashMap<>() : TaggedTensors.tagged(tensors, "ProgressBarHook");
    this.everyNIter = n;
    this.stream = stream;
  }

  /** Steps done so far as last shown. */
  public long position() {
    return position;
  }

  /** The text last shown on a terminal or in a line (empty before the first). */
  public String lastLine() {
    return display instanceof TextBarDisplay ? ((TextBarDisplay) display).lastText() : "";
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    if (firstStep == null) {
      firstStep = session.globalStep();
      Long total = lastStep == null ? null : Math.max(0, lastStep - firstStep);
      display =
          stream == null && PythonConsole.installed()
              ? PythonConsole.create(PYTHON_DISPLAY, Display.class, total)
              : new TextBarDisplay(total, stream);
      lastSampleNanos = System.nanoTime() - (long) (MIN_INTERVAL_SECS * 2e9);
    }
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    long now = System.nanoTime();
    sampling = iter % everyNIter == 0 && now - lastSampleNanos >= MIN_INTERVAL_SECS * 1e9;
    if (!sampling) {
      return null;
    }
    lastSampleNanos = now;
    return tensors.isEmpty() ? null : SessionRunArgs.of(new LinkedHashMap<>(tensors));
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    iter++;
    if (!sampling || display == null) {
      return;
    }
    sampling = false;
    Map<?, ?> values = (Map<?, ?>) runValues.results();
    if (values != null) {
      StringBuilder text = new StringBuilder();
      for (Map.Entry<String, String> e : tensors.entrySet()) {
        text.append(text.length() == 0 ? "" : ", ")
            .append(e.getKey())
            .append('=')
            .append(TaggedTensors.format(values.get(e.getKey())));
      }
      postfix = text.toString();
    }
    position = Math.max(position, runContext.session().globalStep() - firstStep);
    display.show(position, postfix);
  }

  @Override
  public void end(Session session) {
    if (display == null) {
      return;
    }
    position = Math.max(position, session.globalStep() - firstStep);
    display.show(position, postfix);
    display.close();
  }
}
