package org.jhooks;

/**
 * Callbacks around each checkpoint save, twin of TensorFlow's {@code CheckpointSaverListener}. All
 * default no-ops. Saver hooks call them on the training thread or on their writer thread; see
 * {@code docs/contract.md}.
 */
public interface CheckpointSaverListener {

  default void begin() {}

  /** Before the save labelled {@code globalStep} starts (see {@link #decideSave}). */
  default void beforeSave(Session session, long globalStep) {}

  /**
   * Before the save labelled {@code globalStep} starts: whether it may go ahead. The savers call
   * this (on the training thread), for every listener in order; if any returns {@link
   * SaveDecision#SKIP} the save writes no files, leaves the {@code checkpoint} state file untouched
   * and calls no {@code afterSave}. The default calls {@link #beforeSave} and returns {@link
   * SaveDecision#SAVE}, so listeners that only implement {@code beforeSave} keep working. Twin of
   * Python's {@code beforeSave} returning {@code SaveDecision.SKIP}; TensorFlow's listeners cannot
   * skip a save (TF #20992).
   *
   * @return {@link SaveDecision#SAVE} or {@link SaveDecision#SKIP}; {@code null} counts as SAVE
   */
  default SaveDecision decideSave(Session session, long globalStep) {
    beforeSave(session, globalStep);
    return SaveDecision.SAVE;
  }

  /**
   * After the checkpoint files and the {@code checkpoint} state file are on disk.
   *
   * @return {@code true} to ask training to stop
   */
  default boolean afterSave(Session session, long globalStep) {
    return false;
  }

  /** Once, after the final save. */
  default void end(Session session, long globalStep) {}
}
