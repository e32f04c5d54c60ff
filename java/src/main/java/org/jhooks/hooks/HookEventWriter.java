package org.jhooks.hooks;

/**
 * The event file writer of a hook that writes summaries: the writer it was given (flushed at the
 * end, never closed), or its own for the output dir, opened in {@code begin()} and closed in {@code
 * end()}, so a hook used for another session opens a new one.
 */
final class HookEventWriter {
  private final EventFileWriter given;
  private final String outputDir;
  private EventFileWriter owned;

  /** {@code given} wins over {@code outputDir}; both {@code null}: no writer. */
  HookEventWriter(EventFileWriter given, String outputDir) {
    this.given = given;
    this.outputDir = outputDir;
  }

  /** In {@code begin()}: opens the hook's own writer if it needs one. */
  void open() {
    if (given == null && owned == null && outputDir != null) {
      owned = new EventFileWriter(outputDir);
    }
  }

  /** The writer to write to, or {@code null} when the hook has none. */
  EventFileWriter get() {
    return given != null ? given : owned;
  }

  /** In {@code end()}: flushes a given writer, closes the hook's own. */
  void end() {
    if (given != null) {
      given.flush();
    } else if (owned != null) {
      owned.close();
      owned = null;
    }
  }
}
