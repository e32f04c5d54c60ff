package org.jhooks;

/**
 * Callbacks around each checkpoint save, twin of TensorFlow's {@code CheckpointSaverListener}. All
 * default no-ops. Saver hooks call them on the training thread or on their writer thread; see
 * {@code docs/contract.md}.
 */
public interface CheckpointSaverListener {

  default void begin() {}

  /** Before the save labelled {@code globalStep} starts. */
  default void beforeSave(Session session, long globalStep) {}

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
