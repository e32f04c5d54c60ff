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

/**
 * A console progress bar over the global step, redrawn in place with {@code \r}. Twin of {@code
 * jhooks.hooks.ProgressBarHook} (which draws with tqdm); no TensorFlow counterpart.
 *
 * <p>Line: {@code "120/1000 [###---] 12% 45.3 step/s, loss=0.25"}; without {@code lastStep} the
 * total and bar are left out. Position = the global step (re-read with a raw run when drawing: a
 * value fetched with the train op may be read before or after its increment) minus the global step
 * at the first session creation. A newline is printed in {@code end()}.
 */
public final class ProgressBarHook implements Hook {
  private static final int WIDTH = 30;

  private final Long lastStep;
  private final Map<String, String> tensors;
  private final int everyNIter;
  private final PrintStream stream;
  private Long firstStep;
  private long position;
  private long iter;
  private long startNanos;
  private String lastLine = "";

  /**
   * @param lastStep the global step at which the bar is full, or {@code null} for a counter only
   * @param tensors a List of tensor names or Map tag to name shown after the rate, or {@code null}
   * @param everyNIter redraw every this many runs ({@code null}: 1)
   * @param stream where to draw ({@code null}: {@code System.err})
   * @throws IllegalArgumentException {@code everyNIter <= 0}
   */
  public ProgressBarHook(Long lastStep, Object tensors, Integer everyNIter, PrintStream stream) {
    int n = everyNIter == null ? 1 : everyNIter;
    if (n <= 0) {
      throw new IllegalArgumentException("invalid every_n_iter=" + n + ".");
    }
    this.lastStep = lastStep;
    this.tensors = tensors == null ? new LinkedHashMap<>() : TensorValues.tagged(tensors, "ProgressBarHook");
    this.everyNIter = n;
    this.stream = stream == null ? System.err : stream;
  }

  /** Steps done so far as last drawn. */
  public long position() {
    return position;
  }

  /** The last line drawn, without {@code \r}. */
  public String lastLine() {
    return lastLine;
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    if (firstStep == null) {
      firstStep = session.globalStep();
      startNanos = System.nanoTime();
    }
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return iter % everyNIter == 0 && !tensors.isEmpty() ? SessionRunArgs.of(new LinkedHashMap<>(tensors)) : null;
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    if (iter++ % everyNIter == 0) {
      position = runContext.session().globalStep() - firstStep;
      draw((Map<?, ?>) runValues.results());
    }
  }

  @Override
  public void end(Session session) {
    if (firstStep != null) {
      position = session.globalStep() - firstStep;
      draw(null);
    }
    stream.println();
    stream.flush();
  }

  private void draw(Map<?, ?> values) {
    StringBuilder line = new StringBuilder().append(position);
    if (lastStep != null) {
      long total = Math.max(1, lastStep - firstStep);
      double frac = Math.min(1.0, Math.max(0.0, position / (double) total));
      int filled = (int) Math.round(frac * WIDTH);
      line.append('/').append(total).append(" [")
          .append("#".repeat(filled)).append("-".repeat(WIDTH - filled)).append("] ")
          .append(String.format("%3d%%", (int) Math.floor(frac * 100)));
    }
    double secs = (System.nanoTime() - startNanos) / 1e9;
    line.append(String.format(" %.1f step/s", secs > 0 ? position / secs : 0.0));
    if (values != null) {
      for (Map.Entry<String, String> e : tensors.entrySet()) {
        line.append(", ").append(e.getKey()).append('=').append(TensorValues.format(values.get(e.getKey())));
      }
    }
    lastLine = line.toString();
    stream.print('\r' + lastLine);
    stream.flush();
  }
}
