package org.jhooks.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The savers' shared core: one saver's checkpoint directory. Checks the basename, opens the
 * directory (creates it, reads the state file, removes a killed save's temporaries), names new
 * prefixes and records a finished save with a {@link CheckpointRotation} (state file replaced
 * atomically, this saver's files beyond {@code maxToKeep} deleted, nothing else touched). Used by
 * both standard saver hooks (and so by the JVM {@code MonitoredTrainingSession}'s default saver).
 * Pure file handling; no TensorFlow runtime. Thread-safe. Twin of {@code
 * jhooks.checkpoint.keeper.CheckpointKeeper}.
 */
public final class CheckpointKeeper {
  private final String checkpointDir;
  private final Path dir;
  private final String basename;
  private final CheckpointRotation rotation;

  /**
   * @param hook the saver's name, for errors
   * @param maxToKeep checkpoints kept; 0 or less keeps all
   * @throws IllegalArgumentException a basename with a path separator or {@code ..} ({@link
   *     Checkpoints#validateBasename})
   */
  public CheckpointKeeper(
      String hook, String checkpointDir, String checkpointBasename, int maxToKeep) {
    Checkpoints.validateBasename(hook, checkpointBasename);
    this.checkpointDir = checkpointDir;
    this.dir = Paths.get(checkpointDir).toAbsolutePath().normalize();
    this.basename = checkpointBasename;
    this.rotation = new CheckpointRotation(dir, checkpointBasename, maxToKeep);
  }

  /** The checkpoint directory, as given. */
  public String checkpointDir() {
    return checkpointDir;
  }

  /** The checkpoints' basename. */
  public String checkpointBasename() {
    return basename;
  }

  /**
   * Creates the directory, reads an existing state file (so rotation continues) and deletes what a
   * killed save left: its temporaries and the checkpoints its rotation had dropped but not yet
   * deleted ({@link CheckpointRotation#finishInterruptedRotation}).
   *
   * @throws UncheckedIOException it cannot be created (the message says why, e.g. a file is there),
   *     or a file cannot be deleted
   * @throws CheckpointStateException a garbage or unreadable state file
   */
  public synchronized void open() {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      String why =
          Files.exists(dir) && !Files.isDirectory(dir)
              ? "it exists and is not a directory"
              : e.toString();
      throw new UncheckedIOException("cannot create checkpointDir " + dir + ": " + why, e);
    }
    rotation.kept();
    Checkpoints.cleanStaleTemporaries(dir, basename);
    rotation.finishInterruptedRotation();
  }

  /** After a failed save: removes the temporaries it left (TF's bundle writer keeps them). */
  public synchronized void discardTemporaries() {
    try {
      Checkpoints.cleanStaleTemporaries(dir, basename);
    } catch (UncheckedIOException e) {
      // the save's own failure is being reported; the next saver retries the cleanup
    }
  }

  /** The absolute checkpoint prefix for {@code step}: {@code dir/basename-step}. */
  public String prefixFor(long step) {
    return Checkpoints.checkpointPrefix(dir, basename, step).toString();
  }

  /**
   * Records that the files of {@code prefix} are complete (its {@code .index} and {@code .data-*}
   * exist, else UncheckedIOException): the state file names it the latest, then the checkpoints
   * that fell out of the list are deleted.
   */
  public synchronized void commit(String prefix) {
    if (!Checkpoints.checkpointExists(prefix)) {
      throw new UncheckedIOException(
          new IOException("no " + prefix + ".index / " + prefix + ".data-* after the save"));
    }
    rotation.record(prefix);
  }

  /** Whether the state file's latest checkpoint exists and is the one of {@code step}. */
  public synchronized boolean latestIs(long step) {
    return Checkpoints.latestCheckpoint(dir).map(p -> p.equals(prefixFor(step))).orElse(false);
  }

  /**
   * The kept checkpoints' names as the state file lists them (relative to the dir), oldest first.
   */
  public synchronized List<String> kept() {
    List<String> names = new ArrayList<>();
    for (String p : rotation.kept()) {
      names.add(Paths.get(p).getFileName().toString());
    }
    return names;
  }
}
