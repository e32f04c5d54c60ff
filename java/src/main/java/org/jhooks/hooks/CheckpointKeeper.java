package org.jhooks.hooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The checkpoints a saver hook keeps in its directory: names new prefixes, records a finished
 * save in the {@code checkpoint} state file and deletes the files of checkpoints beyond {@code
 * maxToKeep} (TF's {@code max_to_keep} rotation). It continues the list of an existing state file,
 * so a restarted job keeps rotating the old checkpoints. Not thread-safe: one writer at a time.
 */
final class CheckpointKeeper {
  private final Path dir;
  private final String basename;
  private final int maxToKeep;
  private final List<String> kept = new ArrayList<>();

  CheckpointKeeper(String checkpointDir, String basename, int maxToKeep) {
    this.dir = Paths.get(checkpointDir).toAbsolutePath();
    this.basename = basename;
    this.maxToKeep = maxToKeep;
  }

  /** Creates the directory and picks up the list of an existing state file. */
  synchronized void open() {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create checkpoint dir " + dir, e);
    }
    kept.clear();
    CheckpointState state = CheckpointState.read(dir);
    if (state != null) {
      kept.addAll(state.allModelCheckpointPaths());
    }
  }

  /** The absolute checkpoint prefix for {@code step}: {@code dir/basename-step}. */
  String prefixFor(long step) {
    return dir.resolve(basename + "-" + step).toString();
  }

  /**
   * Records that the files of {@code prefix} are complete: rewrites the state file atomically with
   * {@code prefix} as the latest, then deletes the checkpoints that fell out of the list.
   */
  synchronized void commit(String prefix) {
    String relative = dir.relativize(Paths.get(prefix)).toString();
    kept.removeIf(p -> CheckpointState.resolve(dir, p).equals(Paths.get(prefix)));
    kept.add(relative);
    List<String> dropped = new ArrayList<>();
    while (maxToKeep > 0 && kept.size() > maxToKeep) {
      dropped.add(kept.remove(0));
    }
    new CheckpointState(relative, kept).write(dir);
    for (String old : dropped) {
      deleteFiles(CheckpointState.resolve(dir, old));
    }
  }

  /** The kept prefixes as written in the state file, oldest first. */
  synchronized List<String> kept() {
    return new ArrayList<>(kept);
  }

  private static void deleteFiles(Path prefix) {
    Path parent = prefix.getParent();
    String name = prefix.getFileName().toString();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(parent, name + ".*")) {
      for (Path f : files) {
        String rest = f.getFileName().toString().substring(name.length());
        if (rest.equals(".index") || rest.equals(".meta") || rest.startsWith(".data-")) {
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete old checkpoint " + prefix, e);
    }
  }
}
