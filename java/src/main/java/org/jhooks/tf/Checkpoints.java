package org.jhooks.tf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The checkpoint dir conventions TensorFlow's {@code tf.train.Saver} and {@code
 * tf.train.latest_checkpoint} use: V2 checkpoint files {@code <prefix>.index} and {@code
 * <prefix>.data-*}, and the {@code checkpoint} state file ({@link CheckpointState}), replaced
 * atomically (temporary file, then rename) so a reader never sees a half-written one. See {@code
 * docs/contract.md}, "Checkpoints".
 */
public final class Checkpoints {
  /** The state file's name inside the checkpoint dir. */
  public static final String STATE_FILE = "checkpoint";
  /** TensorFlow's default checkpoint basename. */
  public static final String DEFAULT_BASENAME = "model.ckpt";

  private Checkpoints() {}

  /** The prefix TensorFlow names the checkpoint of {@code globalStep}: {@code <dir>/<basename>-<step>}. */
  public static Path prefixFor(Path dir, String basename, long globalStep) {
    return dir.resolve(basename + "-" + globalStep);
  }

  /** The state file of {@code dir}, if there is one. */
  public static Optional<CheckpointState> readState(Path dir) {
    Path file = dir.resolve(STATE_FILE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(CheckpointState.parse(Files.readString(file, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read checkpoint state file " + file, e);
    }
  }

  /**
   * Writes the state file: to a temporary file in {@code dir}, forced to disk ({@link
   * FileChannel#force}), then renamed over {@code checkpoint} with an atomic move, so neither a
   * reader nor a crash sees a half-written file. The only writer of state files in org.jhooks.
   */
  public static void writeState(Path dir, CheckpointState state) {
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, STATE_FILE + ".tmp", "");
      ByteBuffer text = ByteBuffer.wrap(state.toText().getBytes(StandardCharsets.UTF_8));
      try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        while (text.hasRemaining()) {
          channel.write(text);
        }
        channel.force(true);
      }
      Files.move(tmp, dir.resolve(STATE_FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint state file in " + dir, e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the original error is being thrown; a stray temp file is harmless
        }
      }
    }
  }

  /**
   * The latest checkpoint prefix of {@code dir} as an absolute path, like {@code
   * tf.train.latest_checkpoint}: empty when there is no state file or its latest prefix has no
   * {@code .index} file.
   */
  public static Optional<String> latestCheckpoint(Path dir) {
    return readState(dir).map(s -> resolve(dir, s.modelCheckpointPath())).filter(Checkpoints::exists);
  }

  /** Whether the V2 checkpoint at {@code prefix} exists (its {@code .index} file). */
  public static boolean exists(String prefix) {
    return Files.isRegularFile(Path.of(prefix + ".index"));
  }

  /**
   * Records a checkpoint just written at {@code prefix} (inside {@code dir}) as the latest: appends
   * it to the kept list (moving it to the end if already there), deletes the files of the oldest
   * kept checkpoints beyond {@code maxToKeep}, and rewrites the state file atomically. Names are
   * stored relative to {@code dir}, as TensorFlow writes them.
   *
   * @param maxToKeep how many checkpoints to keep; 0 or less keeps all
   * @return the new state
   */
  public static CheckpointState recordCheckpoint(Path dir, Path prefix, int maxToKeep) {
    String name = relativeName(dir, prefix);
    List<String> kept = new ArrayList<>(readState(dir).map(CheckpointState::allModelCheckpointPaths).orElse(List.of()));
    kept.remove(name);
    kept.add(name);
    List<String> dropped = new ArrayList<>();
    while (maxToKeep > 0 && kept.size() > maxToKeep) {
      dropped.add(kept.remove(0));
    }
    CheckpointState state = new CheckpointState(name, kept);
    writeState(dir, state);
    for (String old : dropped) {
      deleteCheckpointFiles(Path.of(resolve(dir, old)));
    }
    return state;
  }

  /** Deletes {@code <prefix>.index}, {@code <prefix>.data-*} and {@code <prefix>.meta}. */
  public static void deleteCheckpointFiles(Path prefix) {
    Path parent = prefix.toAbsolutePath().getParent();
    String base = prefix.getFileName().toString();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(parent, base + ".*")) {
      for (Path f : files) {
        String suffix = f.getFileName().toString().substring(base.length());
        if (suffix.equals(".index") || suffix.equals(".meta") || suffix.startsWith(".data-")) {
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete checkpoint files of " + prefix, e);
    }
  }

  private static String relativeName(Path dir, Path prefix) {
    Path absDir = dir.toAbsolutePath().normalize();
    Path absPrefix = prefix.toAbsolutePath().normalize();
    return absPrefix.getParent().equals(absDir) ? absPrefix.getFileName().toString() : absPrefix.toString();
  }

  private static String resolve(Path dir, String path) {
    Path p = Path.of(path);
    return (p.isAbsolute() ? p : dir.resolve(p)).toAbsolutePath().normalize().toString();
  }
}
