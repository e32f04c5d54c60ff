package org.jhooks.bridgetest;

import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * Overrides only afterCreateSession (keeping the coordinator) and afterSessionRun, logging into
 * {@link RecordingHook#LOG}: beforeSessionRun is the Hook default, which the bridge need not call.
 */
public class AfterOnlyHook implements Hook {
  private final String name;
  public volatile Coordinator coord;

  public AfterOnlyHook(String name) {
    this.name = name;
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    this.coord = coord;
    RecordingHook.LOG.add(name + ".afterCreateSession");
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    RecordingHook.LOG.add(name + ".afterSessionRun results=" + runValues.results());
  }
}
