package org.jhooks.hooks;

/**
 * The event file writer of a hook that writes summaries: the writer it was given (flushed at the
 * end, never closed), or the shared writer of the output dir ({@link EventFileWriter#acquire}),
 * acquired in {@code begin()} and released in {@code end()}, so a hook used for another session
 * acquires it again. Twin of Python's {@code jhooks.hooks.hook_event_writer.HookEventWriter}.
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

  /** In {@code begin()}: acquires the output dir's writer if the hook needs one. */
  void open() {
    if (given == null && owned == null && outputDir != null) {
      owned = EventFileWriter.acquire(outputDir);
    }
  }

  /** The writer to write to, or {@code null} when the hook has none. */
  EventFileWriter get() {
    return given != null ? given : owned;
  }

  /** In {@code end()}: flushes a given writer, releases an acquired one. */
  void end() {
    if (given != null) {
      given.flush();
    } else if (owned != null) {
      EventFileWriter.release(owned);
      owned = null;
    }
  }
}
