package org.jhooks.checkpoint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The checkpoints one saver keeps, newest last (TensorFlow Saver's {@code max_to_keep}). Twin of
 * {@code jhooks.checkpoint.rotation.CheckpointRotation}.
 *
 * <p>Seeded from an existing state file: only its entries that are this saver's checkpoints ({@code
 * <dir>/<basename>-<step>}, {@link Checkpoints#isOwnCheckpoint}) and whose files exist, so a
 * restarted job keeps rotating its old checkpoints. Entries of another directory (TensorFlow's
 * Saver writes absolute paths: a copied run dir names the source run's files) or of another
 * basename are never deleted; the state file this saver writes lists only its own kept checkpoints.
 * Not thread-safe: one saver, one caller at a time.
 */
public final class CheckpointRotation {
  private final Path dir;
  private final String basename;
  private final int maxToKeep;
  private List<String> kept;

  /**
   * @param checkpointDir the saver's directory
   * @param checkpointBasename the saver's checkpoints are {@code <checkpointBasename>-<step>}
   * @param maxToKeep checkpoints kept; 0 or less keeps all
   */
  public CheckpointRotation(Path checkpointDir, String checkpointBasename, int maxToKeep) {
    this.dir = checkpointDir.toAbsolutePath().normalize();
    this.basename = checkpointBasename;
    this.maxToKeep = maxToKeep;
  }

  /** The saver's directory, absolute. */
  public Path checkpointDir() {
    return dir;
  }

  /** The checkpoints' basename. */
  public String checkpointBasename() {
    return basename;
  }

  /** Checkpoints kept; 0 or less keeps all. */
  public int maxToKeep() {
    return maxToKeep;
  }

  /**
   * The kept prefixes (absolute), oldest first.
   *
   * @throws CheckpointStateException a garbage or unreadable state file
   */
  public List<String> kept() {
    if (kept == null) {
      List<String> own = new ArrayList<>();
      for (String p : Checkpoints.allCheckpoints(dir)) {
        if (Checkpoints.isOwnCheckpoint(dir, basename, Path.of(p))
            && Checkpoints.checkpointExists(p)) {
          own.add(p);
        }
      }
      kept = own;
    }
    return List.copyOf(kept);
  }

  /**
   * Adds {@code prefix} (already on disk) as the latest, replaces the state file, then deletes the
   * checkpoints that fell out (after the state file, so it never names a deleted checkpoint).
   *
   * @return the deleted prefixes
   * @throws java.io.UncheckedIOException the state file or a deletion failed
   */
  public List<String> record(String prefix) {
    String abs = Path.of(prefix).toAbsolutePath().normalize().toString();
    List<String> next = new ArrayList<>(kept());
    next.remove(abs);
    next.add(abs);
    List<String> dropped = new ArrayList<>();
    while (maxToKeep > 0 && next.size() > maxToKeep) {
      dropped.add(next.remove(0));
    }
    List<String> names = new ArrayList<>();
    for (String p : next) {
      names.add(Checkpoints.relativeName(dir, p));
    }
    Checkpoints.writeState(dir, new CheckpointState(names.get(names.size() - 1), names));
    kept = next;
    for (String p : dropped) {
      Checkpoints.deleteCheckpoint(dir, basename, Path.of(p));
    }
    return dropped;
  }
}
