package org.jhooks.bridge;

import org.jhooks.CheckpointSaverListener;
import org.jhooks.SaveDecision;
import org.jhooks.Session;

/**
 * A Python {@code jhooks.CheckpointSaverListener} on the JVM; callbacks go to the Python listener's
 * proxy and may come from any Java thread (a saver's writer thread, for example). Made by {@code
 * jhooks.bridge.as_java_listener}.
 */
public final class PythonCheckpointSaverListener implements CheckpointSaverListener {
  private final CheckpointSaverListener delegate;
  private final String pythonName;

  public PythonCheckpointSaverListener(CheckpointSaverListener delegate, String pythonName) {
    this.delegate = delegate;
    this.pythonName = pythonName;
  }

  @Override
  public void begin() {
    delegate.begin();
  }

  @Override
  public void beforeSave(Session session, long globalStep) {
    delegate.beforeSave(session, globalStep);
  }

  /** The Python listener's decision ({@code beforeSave} returning {@code SaveDecision.SKIP}). */
  @Override
  public SaveDecision decideSave(Session session, long globalStep) {
    SaveDecision decision = delegate.decideSave(session, globalStep);
    return decision == null ? SaveDecision.SAVE : decision;
  }

  @Override
  public boolean afterSave(Session session, long globalStep) {
    return delegate.afterSave(session, globalStep);
  }

  @Override
  public void end(Session session, long globalStep) {
    delegate.end(session, globalStep);
  }

  @Override
  public String toString() {
    return pythonName + " (Python)";
  }
}
