package org.jhooks.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jhooks.Logs;

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
 *
 * <p>Crash-safe: the checkpoints a save drops are listed in {@link #ROTATION_FILE} before the state
 * file is replaced and deleted after it; a process killed in between leaves that list, and {@link
 * #finishInterruptedRotation} (the savers' {@code begin}) deletes what it names and the state file
 * no longer lists. TensorFlow's Saver keeps no such list: its kill there leaves the dropped
 * checkpoint's files forever.
 */
public final class CheckpointRotation {
  /**
   * The rotation's journal in the checkpoint dir: the checkpoints a save dropped, one state-file
   * name per line (UTF-8), written before the state file and removed once they are deleted.
   */
  public static final String ROTATION_FILE = Checkpoints.STATE_FILE + ".rotation";

  private static final System.Logger LOG = Logs.get(CheckpointRotation.class.getName());

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
    if (!dropped.isEmpty()) {
      List<String> droppedNames = new ArrayList<>();
      for (String p : dropped) {
        droppedNames.add(Checkpoints.relativeName(dir, p));
      }
      writeJournal(droppedNames);
    }
    Checkpoints.writeState(dir, new CheckpointState(names.get(names.size() - 1), names));
    kept = next;
    for (String p : dropped) {
      Checkpoints.deleteCheckpoint(dir, basename, Path.of(p));
    }
    if (!dropped.isEmpty()) {
      try {
        Files.delete(dir.resolve(ROTATION_FILE));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot remove " + dir.resolve(ROTATION_FILE), e);
      }
    }
    return dropped;
  }

  /**
   * Deletes the checkpoints a killed save had dropped ({@link #ROTATION_FILE}'s names that are this
   * saver's checkpoints and that the state file does not list), then the journal. Without a journal
   * nothing is deleted.
   *
   * @return the prefixes whose files it deleted (absolute)
   * @throws CheckpointStateException a garbage or unreadable state file
   * @throws UncheckedIOException the journal cannot be read or a file cannot be deleted
   */
  public List<String> finishInterruptedRotation() {
    Path journal = dir.resolve(ROTATION_FILE);
    List<String> names;
    try {
      names = Files.readAllLines(journal, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + journal, e);
    }
    Set<String> listed = new HashSet<>(Checkpoints.allCheckpoints(dir));
    List<String> deleted = new ArrayList<>();
    for (String name : names) {
      Path prefix = dir.resolve(name).normalize();
      if (!name.isEmpty()
          && !listed.contains(prefix.toString())
          && Checkpoints.isOwnCheckpoint(dir, basename, prefix)
          && !Checkpoints.deleteCheckpoint(dir, basename, prefix).isEmpty()) {
        deleted.add(prefix.toString());
      }
    }
    try {
      Files.delete(journal);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + journal, e);
    }
    if (!deleted.isEmpty()) {
      LOG.log(
          System.Logger.Level.INFO,
          "Finished the rotation an interrupted save began in " + dir + ": deleted " + deleted);
    }
    return deleted;
  }

  private void writeJournal(List<String> names) {
    Path tmp = null;
    try {
      tmp = Files.createTempFile(dir, Checkpoints.STATE_FILE + ".tmp", "");
      Files.write(tmp, names, StandardCharsets.UTF_8);
      Files.move(
          tmp,
          dir.resolve(ROTATION_FILE),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir.resolve(ROTATION_FILE), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the original error is being thrown; the next saver removes a stray temporary file
        }
      }
    }
  }
}
