package org.jhooks.bridgetest;

import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;

/** Requests a stop on the coordinator as soon as the session exists. */
public class StopOnCreate implements Hook {
  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    coord.requestStop();
  }
}
