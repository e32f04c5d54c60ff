package org.jhooks.bridgetest;

import org.jhooks.CheckpointSaverListener;
import org.jhooks.Session;

/** Logs "listener.callback globalStep step=<session's global step>". */
public class RecordingListener implements CheckpointSaverListener {
  @Override
  public void beforeSave(Session session, long globalStep) {
    RecordingHook.LOG.add("listener.beforeSave " + globalStep + " step=" + session.globalStep());
  }

  @Override
  public boolean afterSave(Session session, long globalStep) {
    RecordingHook.LOG.add("listener.afterSave " + globalStep + " step=" + session.globalStep());
    return false;
  }
}
