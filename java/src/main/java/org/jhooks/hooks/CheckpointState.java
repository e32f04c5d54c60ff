package org.jhooks.hooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code checkpoint} state file of a checkpoint directory: TensorFlow's {@code
 * CheckpointState} text proto, which {@code tf.train.latest_checkpoint} reads.
 *
 * <pre>
 * model_checkpoint_path: "model.ckpt-300"
 * all_model_checkpoint_paths: "model.ckpt-200"
 * all_model_checkpoint_paths: "model.ckpt-300"
 * </pre>
 *
 * <p>Paths are written relative to the directory (TF resolves relative paths against it), newest
 * last. {@link #write} replaces the file atomically: a temporary file in the same directory is
 * written, forced to disk and renamed over the old one, so a reader (or a process killed mid-save)
 * sees either the old or the new state, never a torn one.
 */
public final class CheckpointState {
  /** The file name TensorFlow uses. */
  public static final String FILE_NAME = "checkpoint";

  private static final Pattern LINE = Pattern.compile("^\\s*(\\w+)\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*$");

  private final String modelCheckpointPath;
  private final List<String> allModelCheckpointPaths;

  /**
   * @param modelCheckpointPath the latest checkpoint prefix, as written in the file
   * @param allModelCheckpointPaths every kept prefix, oldest first
   */
  public CheckpointState(String modelCheckpointPath, List<String> allModelCheckpointPaths) {
    this.modelCheckpointPath = modelCheckpointPath;
    this.allModelCheckpointPaths = Collections.unmodifiableList(new ArrayList<>(allModelCheckpointPaths));
  }

  public String modelCheckpointPath() {
    return modelCheckpointPath;
  }

  public List<String> allModelCheckpointPaths() {
    return allModelCheckpointPaths;
  }

  /**
   * Reads {@code dir/checkpoint}.
   *
   * @return the state, or {@code null} when the file does not exist
   * @throws UncheckedIOException the file cannot be read
   * @throws IllegalArgumentException a line is not {@code key: "value"}
   */
  public static CheckpointState read(Path dir) {
    Path file = dir.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      return null;
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read checkpoint state file " + file, e);
    }
    String latest = null;
    List<String> all = new ArrayList<>();
    for (String line : lines) {
      if (line.trim().isEmpty()) {
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("checkpoint state file " + file + ": cannot parse line: " + line);
      }
      String value = unescape(m.group(2));
      if (m.group(1).equals("model_checkpoint_path")) {
        latest = value;
      } else if (m.group(1).equals("all_model_checkpoint_paths")) {
        all.add(value);
      }
    }
    return new CheckpointState(latest, all);
  }

  /**
   * Writes this state to {@code dir/checkpoint}, replacing the old file atomically.
   *
   * @throws UncheckedIOException the file cannot be written or renamed
   */
  public void write(Path dir) {
    StringBuilder text = new StringBuilder();
    text.append("model_checkpoint_path: \"").append(escape(modelCheckpointPath)).append("\"\n");
    for (String p : allModelCheckpointPaths) {
      text.append("all_model_checkpoint_paths: \"").append(escape(p)).append("\"\n");
    }
    Path target = dir.resolve(FILE_NAME);
    Path tmp = dir.resolve(FILE_NAME + ".tmp" + UUID.randomUUID().toString().replace("-", ""));
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw new UncheckedIOException("cannot write checkpoint state file " + target, e);
    }
  }

  /**
   * The latest checkpoint prefix of {@code dir}, as {@code tf.train.latest_checkpoint}: the state
   * file's {@code model_checkpoint_path} resolved against {@code dir}, if its {@code .index} file
   * exists.
   *
   * @return the absolute prefix, or {@code null}
   */
  public static String latestCheckpoint(String dir) {
    Path d = Paths.get(dir);
    CheckpointState state = read(d);
    if (state == null || state.modelCheckpointPath == null) {
      return null;
    }
    Path prefix = resolve(d, state.modelCheckpointPath);
    return Files.exists(Paths.get(prefix + ".index")) ? prefix.toString() : null;
  }

  /** A path from the state file resolved against the checkpoint dir (absolute paths as they are). */
  public static Path resolve(Path dir, String path) {
    Path p = Paths.get(path);
    return p.isAbsolute() ? p : dir.resolve(p).toAbsolutePath();
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        out.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
