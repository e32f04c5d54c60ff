package org.jhooks.hooks;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * {@link ProgressBarHook}'s own display (a JVM that Python does not drive, or a given stream): a
 * text bar redrawn in place on a terminal of a known width (cut to that width), periodic lines
 * elsewhere (a terminal that reports 0 columns or none included), by the rules of the hook's doc.
 * While a terminal bar is open, the console handlers of {@code java.util.logging}'s root logger
 * clear the bar before a record and redraw it after.
 */
final class TextBarDisplay implements ProgressBarHook.Display {
  static final double LINE_FRACTION = 0.1;
  static final double LINE_INTERVAL_SECS = 30.0;
  private static final int WIDTH = 30;

  private static TextBarDisplay consoleOwner;

  private final Long total;
  private final PrintStream out;
  private final boolean terminal;
  private final int columns;
  private final long began = System.nanoTime();
  private long position;
  private String postfix = "";
  private String lastText = "";
  private int drawnLength;
  private Long linePosition;
  private long lineNanos = began;
  private double nextFraction = LINE_FRACTION;
  private boolean closed;

  TextBarDisplay(Long total, PrintStream stream) {
    this.total = total;
    this.out = stream == null ? System.err : stream;
    int fd = out == System.err ? 2 : out == System.out ? 1 : -1;
    this.columns = fd > 0 && isTerminal(fd) ? columns(fd) : 0;
    this.terminal = columns > 0;
    if (terminal) {
      takeConsole(this);
    }
  }

  /** Whether file descriptor {@code fd} of this process is a terminal (Linux: /proc/self/fd). */
  static boolean isTerminal(int fd) {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (Exception e) {
      return false; // no /proc (not Linux) or no such descriptor: draw lines, never garbage
    }
  }

  /**
   * The width of terminal {@code fd}, as {@code stty size} reports it; 0 when it reports 0 (a
   * pseudo-terminal without a size) or cannot say. Java has no call for it; this runs once per bar.
   */
  static int columns(int fd) {
    try {
      String tty = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      Process stty =
          new ProcessBuilder("stty", "-F", tty, "size")
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.PIPE)
              .start();
      String out = new String(stty.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      if (!stty.waitFor(5, TimeUnit.SECONDS) || stty.exitValue() != 0) {
        stty.destroyForcibly();
        return 0;
      }
      String[] rowsColumns = out.trim().split("\\s+");
      return rowsColumns.length == 2 ? Integer.parseInt(rowsColumns[1]) : 0;
    } catch (Exception e) {
      return 0; // no /proc, no stty, or an answer it cannot read: lines, never garbage
    }
  }

  String lastText() {
    return lastText;
  }

  @Override
  public synchronized void show(long position, String postfix) {
    this.position = position;
    this.postfix = postfix == null ? "" : postfix;
    long now = System.nanoTime();
    if (terminal) {
      lastText = barText(now);
      redraw();
      return;
    }
    boolean due =
        (now - lineNanos) / 1e9 >= LINE_INTERVAL_SECS
            && (linePosition == null || position != linePosition);
    if (total != null && total > 0) {
      double fraction = position / (double) total;
      if (fraction >= nextFraction) {
        due = true;
        nextFraction = (Math.floor(fraction / LINE_FRACTION + 1e-9) + 1) * LINE_FRACTION;
      }
    }
    if (due) {
      line(now);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (terminal) {
      lastText = barText(System.nanoTime());
      redraw();
      out.println();
      out.flush();
      releaseConsole(this);
    } else if (linePosition == null || position != linePosition) {
      line(System.nanoTime());
    }
  }

  synchronized void clearLine() {
    if (drawnLength > 0) {
      out.print('\r' + " ".repeat(drawnLength) + '\r');
      out.flush();
    }
  }

  synchronized void redraw() {
    if (closed && drawnLength == 0) {
      return;
    }
    // one column short of the width: a full line would wrap the cursor to the next one
    String text = lastText.length() < columns ? lastText : lastText.substring(0, columns - 1);
    StringBuilder s = new StringBuilder().append('\r').append(text);
    if (drawnLength > text.length()) {
      s.append(" ".repeat(drawnLength - text.length()));
    }
    out.print(s);
    out.flush();
    drawnLength = text.length();
  }

  private String barText(long now) {
    StringBuilder s = new StringBuilder().append(position);
    if (total != null) {
      long t = Math.max(1, total);
      double frac = Math.min(1.0, Math.max(0.0, position / (double) t));
      int filled = (int) Math.round(frac * WIDTH);
      s.append('/')
          .append(total)
          .append(" [")
          .append("#".repeat(filled))
          .append("-".repeat(WIDTH - filled))
          .append("] ")
          .append(String.format("%3d%%", (int) Math.floor(frac * 100)));
    }
    s.append(String.format(" %.1f step/s", rate(now)));
    if (!postfix.isEmpty()) {
      s.append(", ").append(postfix);
    }
    return s.toString();
  }

  private void line(long now) {
    StringBuilder s = new StringBuilder().append(position);
    if (total != null && total > 0) {
      s.append('/')
          .append(total)
          .append(" steps (")
          .append((int) Math.floor(100.0 * position / total))
          .append("%)");
    } else {
      s.append(" steps");
    }
    s.append(String.format(", %.1f s, %.1f step/s", (now - began) / 1e9, rate(now)));
    if (!postfix.isEmpty()) {
      s.append(", ").append(postfix);
    }
    lastText = s.toString();
    out.println(lastText);
    out.flush();
    linePosition = position;
    lineNanos = now;
  }

  private double rate(long now) {
    double secs = (now - began) / 1e9;
    return secs > 0 ? position / secs : 0.0;
  }

  private static synchronized void takeConsole(TextBarDisplay bar) {
    if (consoleOwner != null) {
      return; // one bar owns the console handlers at a time
    }
    consoleOwner = bar;
    Logger root = LogManager.getLogManager().getLogger("");
    for (Handler h : root.getHandlers()) {
      if (h instanceof ConsoleHandler) {
        root.removeHandler(h);
        root.addHandler(new AroundBar(h, bar));
      }
    }
  }

  private static synchronized void releaseConsole(TextBarDisplay bar) {
    if (consoleOwner != bar) {
      return;
    }
    consoleOwner = null;
    Logger root = LogManager.getLogManager().getLogger("");
    for (Handler h : root.getHandlers()) {
      if (h instanceof AroundBar && ((AroundBar) h).bar == bar) {
        root.removeHandler(h);
        root.addHandler(((AroundBar) h).delegate);
      }
    }
  }

  /** A console handler that clears the bar before its record and redraws it after. */
  private static final class AroundBar extends Handler {
    final Handler delegate;
    final TextBarDisplay bar;

    AroundBar(Handler delegate, TextBarDisplay bar) {
      this.delegate = delegate;
      this.bar = bar;
    }

    @Override
    public void publish(LogRecord record) {
      if (!delegate.isLoggable(record)) {
        return;
      }
      synchronized (bar) {
        bar.clearLine();
        delegate.publish(record);
        delegate.flush();
        bar.redraw();
      }
    }

    @Override
    public void flush() {
      delegate.flush();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
