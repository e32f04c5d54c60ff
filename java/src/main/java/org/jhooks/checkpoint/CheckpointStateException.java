package org.jhooks.checkpoint;

/**
 * The {@code checkpoint} state file exists but cannot be read or is not a CheckpointState text
 * proto (binary garbage, a line that is no {@code name: "value"} field, no {@code
 * model_checkpoint_path}). TensorFlow's {@code get_checkpoint_state} logs and ignores such a file
 * and then overwrites the checkpoints it no longer knows; jhooks refuses it: savers throw a {@link
 * org.jhooks.HookException} naming the hook in {@code begin()} and write or delete nothing, and the
 * JVM driver's restoring session creator fails. Twin of {@code
 * jhooks.checkpoint.errors.CheckpointStateError}.
 */
public class CheckpointStateException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String path;

  public CheckpointStateException(String path, String problem, Throwable cause) {
    super("checkpoint state file " + path + ": " + problem, cause);
    this.path = path;
  }

  /** The state file. */
  public String path() {
    return path;
  }
}
