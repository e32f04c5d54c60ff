package org.jhooks.hooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.jhooks.tf.CheckpointState;
import org.jhooks.tf.Checkpoints;

/**
 * The checkpoints a saver hook keeps in its directory: names new prefixes and records a finished
 * save with {@link Checkpoints#recordCheckpoint} (state file replaced atomically, files beyond
 * {@code maxToKeep} deleted). The kept list is read from the state file each time, so a restarted
 * job keeps rotating the old checkpoints. Pure file handling; no TensorFlow runtime.
 */
final class CheckpointKeeper {
  private final Path dir;
  private final String basename;
  private final int maxToKeep;

  CheckpointKeeper(String checkpointDir, String basename, int maxToKeep) {
    this.dir = Paths.get(checkpointDir).toAbsolutePath();
    this.basename = basename;
    this.maxToKeep = maxToKeep;
  }

  /**
   * Creates the directory.
   *
   * @throws UncheckedIOException it cannot be created; the message says why (e.g. a file is there)
   */
  void open() {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      String why = Files.exists(dir) && !Files.isDirectory(dir) ? "it exists and is not a directory" : e.toString();
      throw new UncheckedIOException("cannot create checkpointDir " + dir + ": " + why, e);
    }
  }

  /** The absolute checkpoint prefix for {@code step}: {@code dir/basename-step}. */
  String prefixFor(long step) {
    return Checkpoints.prefixFor(dir, basename, step).toString();
  }

  /**
   * Records that the files of {@code prefix} are complete: the state file names it the latest,
   * then the checkpoints that fell out of the list are deleted.
   */
  synchronized void commit(String prefix) {
    Checkpoints.recordCheckpoint(dir, Paths.get(prefix), maxToKeep);
  }

  /** Whether the state file's latest checkpoint exists and is the one of {@code step}. */
  synchronized boolean latestIs(long step) {
    return Checkpoints.latestCheckpoint(dir).map(p -> p.equals(prefixFor(step))).orElse(false);
  }

  /** The kept prefixes as written in the state file, oldest first. */
  synchronized List<String> kept() {
    return Checkpoints.readState(dir).map(CheckpointState::allModelCheckpointPaths).orElse(List.of());
  }
}
