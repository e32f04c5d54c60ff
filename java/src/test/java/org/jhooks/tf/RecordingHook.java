package org.jhooks.tf;

import java.util.List;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * Appends each callback to a shared list: {@code begin}, {@code afterCreateSession}, {@code
 * before:<g>}, {@code after:<g>}, {@code end}, where {@code <g>} is the global step read with a raw
 * run in {@code beforeSessionRun} (so a retried step shows the same number). An optional prefix
 * tells hooks apart.
 */
class RecordingHook implements Hook {
  final List<String> calls;
  final String prefix;
  Coordinator coord;
  SessionRunContext lastContext;
  SessionRunValues lastValues;
  private long step;

  RecordingHook(List<String> calls) {
    this(calls, "");
  }

  RecordingHook(List<String> calls, String prefix) {
    this.calls = calls;
    this.prefix = prefix;
  }

  @Override
  public void begin() {
    calls.add(prefix + "begin");
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    this.coord = coord;
    calls.add(prefix + "afterCreateSession");
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    step = runContext.session().globalStep();
    calls.add(prefix + "before:" + step);
    lastContext = runContext;
    return fetches(runContext);
  }

  /** What to ask for; none by default. */
  SessionRunArgs fetches(SessionRunContext runContext) {
    return null;
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    lastValues = runValues;
    calls.add(prefix + "after:" + step);
    afterRecorded(runContext, step);
  }

  /** Runs after {@code after:<g>} is recorded. */
  void afterRecorded(SessionRunContext runContext, long step) {}

  @Override
  public void end(Session session) {
    calls.add(prefix + "end");
  }
}
