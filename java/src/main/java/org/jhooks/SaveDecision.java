package org.jhooks;

/**
 * What a {@link CheckpointSaverListener} decides before a save ({@link
 * CheckpointSaverListener#decideSave}); twin of {@code jhooks.api.listener.SaveDecision}.
 * TensorFlow's listeners cannot skip a save (TF #20992).
 */
public enum SaveDecision {
  /** Let the save go ahead (the default). */
  SAVE,
  /**
   * Skip this save: no checkpoint files, the {@code checkpoint} state file untouched, no listener's
   * {@code afterSave}.
   */
  SKIP
}
