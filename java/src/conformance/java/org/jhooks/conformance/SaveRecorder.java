package org.jhooks.conformance;

import org.jhooks.CheckpointSaverListener;
import org.jhooks.Session;

/**
 * The runner's own listener, added last to every checkpoint saver: records each finished save's
 * global step ({@link Recorder#saved}), which gives a scenario's {@code checkpoints.saves}.
 */
public final class SaveRecorder implements CheckpointSaverListener {
  private final Recorder recorder;

  public SaveRecorder(Recorder recorder) {
    this.recorder = recorder;
  }

  @Override
  public boolean afterSave(Session session, long globalStep) {
    recorder.saved(globalStep);
    return false;
  }
}
