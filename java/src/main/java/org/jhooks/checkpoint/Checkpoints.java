package org.jhooks.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jhooks.Logs;

/**
 * The checkpoint dir conventions TensorFlow's {@code tf.train.Saver} and {@code
 * tf.train.latest_checkpoint} use: V2 checkpoint files {@code <prefix>.index} and {@code
 * <prefix>.data-*}, and the {@code checkpoint} state file ({@link CheckpointState}), replaced
 * atomically (temporary {@code checkpoint.tmp*} file, then rename) so a reader never sees a
 * half-written one. Twin of Python's {@code jhooks.checkpoint.files} and {@code
 * jhooks.checkpoint.state} functions.
 *
 * <p>File names are compared literally, never as glob patterns ({@code m?}, {@code run[1]}, {@code
 * *} name only themselves), and nothing outside the checkpoint dir is ever deleted. See {@code
 * docs/contract.md}, "Checkpoints".
 */
public final class Checkpoints {
  /** The state file's name inside the checkpoint dir. */
  public static final String STATE_FILE = "checkpoint";

  /** TensorFlow's default checkpoint basename. */
  public static final String DEFAULT_BASENAME = "model.ckpt";

  /**
   * The text-format {@code GraphDef} the savers write into the checkpoint dir at session creation
   * (TensorFlow's name).
   */
  public static final String GRAPH_FILE = "graph.pbtxt";

  private static final Pattern DATA = Pattern.compile("^\\.data-\\d{5}-of-\\d{5}$");
  private static final String STATE_TEMP = STATE_FILE + ".tmp";
  private static final String GRAPH_TEMP = GRAPH_FILE + ".tmp";
  private static final String BUNDLE_TEMP = ".tempstate";
  private static final System.Logger LOG = Logs.get(Checkpoints.class.getName());

  private Checkpoints() {}

  /**
   * {@code checkpointBasename} if it is a plain file name.
   *
   * @throws IllegalArgumentException naming {@code hook} and the value: null, empty, {@code .}, or
   *     holding a path separator ({@code /} or {@code \}), {@code ..} or a NUL, which would put
   *     checkpoints (and their rotation) outside the checkpoint dir
   */
  public static String validateBasename(String hook, String checkpointBasename) {
    if (checkpointBasename == null
        || checkpointBasename.isEmpty()
        || checkpointBasename.equals(".")
        || checkpointBasename.contains("..")
        || checkpointBasename.contains("/")
        || checkpointBasename.contains("\\")
        || checkpointBasename.contains("\u0000")) {
      throw new IllegalArgumentException(
          hook
              + ": checkpointBasename must be a file name without a path separator or '..', got "
              + (checkpointBasename == null ? "null" : "'" + checkpointBasename + "'"));
    }
    return checkpointBasename;
  }

  /**
   * The prefix TensorFlow names the checkpoint of {@code globalStep}: {@code
   * <dir>/<basename>-<step>}.
   */
  public static Path checkpointPrefix(Path dir, String basename, long globalStep) {
    return dir.resolve(basename + "-" + globalStep);
  }

  /**
   * The state file of {@code dir}, if there is one.
   *
   * @throws CheckpointStateException the file exists but cannot be read (permissions, not a file,
   *     not UTF-8) or is not a CheckpointState text proto ({@link CheckpointState#parse})
   */
  public static Optional<CheckpointState> readState(Path dir) {
    Path file = dir.resolve(STATE_FILE);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
              .toString();
    } catch (CharacterCodingException e) {
      throw new CheckpointStateException(file.toString(), "cannot be read: not UTF-8: " + e, e);
    } catch (IOException e) {
      throw new CheckpointStateException(file.toString(), "cannot be read: " + e, e);
    }
    try {
      return Optional.of(CheckpointState.parse(text));
    } catch (IllegalArgumentException e) {
      throw new CheckpointStateException(file.toString(), e.getMessage(), e);
    }
  }

  /**
   * Every prefix the state file lists, absolute and normalised, oldest first with {@code
   * model_checkpoint_path} last (Python's {@code read_state}); empty without a state file.
   *
   * @throws CheckpointStateException as {@link #readState}
   */
  public static List<String> allCheckpoints(Path dir) {
    List<String> out = new ArrayList<>();
    readState(dir)
        .ifPresent(
            s -> {
              String latest = resolve(dir, s.modelCheckpointPath());
              for (String p : s.allModelCheckpointPaths()) {
                String abs = resolve(dir, p);
                if (!abs.equals(latest)) {
                  out.add(abs);
                }
              }
              out.add(latest);
            });
    return out;
  }

  /**
   * Writes the state file: to a temporary file in {@code dir}, forced to disk ({@link
   * FileChannel#force}), then renamed over {@code checkpoint} with an atomic move, so neither a
   * reader nor a crash sees a half-written file. The only writer of state files in org.jhooks.
   *
   * @throws UncheckedIOException the dir is not writable (the temporary file is removed)
   */
  public static void writeState(Path dir, CheckpointState state) {
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, STATE_TEMP, "");
      ByteBuffer text = ByteBuffer.wrap(state.toText().getBytes(StandardCharsets.UTF_8));
      try (FileChannel channel =
          FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        while (text.hasRemaining()) {
          channel.write(text);
        }
        channel.force(true);
      }
      Files.move(
          tmp,
          dir.resolve(STATE_FILE),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint state file in " + dir, e);
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

  /**
   * The latest checkpoint prefix of {@code dir} as an absolute path, like {@code
   * tf.train.latest_checkpoint}: empty when there is no state file or its latest checkpoint's files
   * are missing.
   *
   * @throws CheckpointStateException a garbage or unreadable state file (TensorFlow logs and
   *     ignores it)
   */
  public static Optional<String> latestCheckpoint(Path dir) {
    return readState(dir)
        .map(s -> resolve(dir, s.modelCheckpointPath()))
        .filter(Checkpoints::checkpointExists);
  }

  /** Whether the V2 checkpoint at {@code prefix} has its {@code .index} and a {@code .data-*}. */
  public static boolean checkpointExists(String prefix) {
    boolean index = false;
    boolean data = false;
    for (Path f : filesOf(Path.of(prefix))) {
      String suffix = suffix(Path.of(prefix), f);
      index |= suffix.equals(".index");
      data |= suffix.startsWith(".data-");
    }
    return index && data;
  }

  /**
   * Whether {@code prefix} is {@code <dir>/<basename>-<digits>}: the only checkpoints a saver of
   * that dir and basename may rotate or delete.
   */
  public static boolean isOwnCheckpoint(Path dir, String basename, Path prefix) {
    Path abs = prefix.toAbsolutePath().normalize();
    if (abs.getParent() == null || !abs.getParent().equals(dir.toAbsolutePath().normalize())) {
      return false;
    }
    String name = abs.getFileName().toString();
    String head = basename + "-";
    return name.startsWith(head)
        && name.length() > head.length()
        && name.substring(head.length()).chars().allMatch(c -> c >= '0' && c <= '9');
  }

  /**
   * Records a checkpoint just written at {@code prefix} as the latest of a fresh {@link
   * CheckpointRotation} of {@code dir} and {@code basename}.
   *
   * @param maxToKeep how many checkpoints to keep; 0 or less keeps all
   * @return the new state
   */
  public static CheckpointState recordCheckpoint(
      Path dir, String basename, Path prefix, int maxToKeep) {
    new CheckpointRotation(dir, basename, maxToKeep).record(prefix.toString());
    return readState(dir).orElseThrow();
  }

  /**
   * Deletes {@code <prefix>.index}, {@code <prefix>.data-*} and {@code <prefix>.meta}.
   *
   * @return the deleted files (none when the checkpoint had none left)
   * @throws IllegalArgumentException {@code prefix} is not this dir's checkpoint of this basename
   *     ({@link #isOwnCheckpoint}); nothing is deleted then
   * @throws UncheckedIOException a file cannot be deleted
   */
  public static List<Path> deleteCheckpoint(Path dir, String basename, Path prefix) {
    if (!isOwnCheckpoint(dir, basename, prefix)) {
      throw new IllegalArgumentException(
          "refusing to delete '"
              + prefix
              + "': not a checkpoint of basename '"
              + basename
              + "' in '"
              + dir
              + "'");
    }
    List<Path> deleted = new ArrayList<>();
    try {
      for (Path f : filesOf(prefix)) {
        if (Files.deleteIfExists(f)) {
          deleted.add(f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete checkpoint files of " + prefix, e);
    }
    return deleted;
  }

  /**
   * Writes {@code graphDef} (a serialized {@code GraphDef} proto) as text to {@code
   * dir/graph.pbtxt}, as TensorFlow's {@code tf.io.write_graph(graph_def, dir, "graph.pbtxt",
   * as_text=True)} (protobuf's text format): to a temporary {@code graph.pbtxt.tmp*} in the same
   * dir, then moved over {@code graph.pbtxt} atomically, so a reader never sees a half-written
   * file; the temporary is removed when the write fails. Only files inside {@code dir} are touched
   * (the dir is created). Twin of Python's {@code jhooks.checkpoint.files.write_graph}.
   *
   * @return the written file
   * @throws UncheckedIOException the dir or the file cannot be written (for example a file size
   *     limit, or {@code graph.pbtxt} taken by a directory); names the file
   * @throws IllegalArgumentException {@code graphDef} is not a serialized {@code GraphDef}
   */
  public static Path writeGraph(Path dir, byte[] graphDef) {
    String text;
    try {
      text =
          com.google.protobuf.TextFormat.printer()
              .printToString(org.tensorflow.proto.GraphDef.parseFrom(graphDef));
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "not a serialized GraphDef proto (" + graphDef.length + " bytes)", e);
    }
    Path target = dir.resolve(GRAPH_FILE);
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, GRAPH_TEMP, "");
      Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target + ": " + e, e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the original error is being thrown; the next saver's begin() removes the temporary
        }
      }
    }
    return target;
  }

  /**
   * Deletes what a killed save leaves in {@code dir}: state-file temporaries ({@code
   * checkpoint.tmp*}), graph-file temporaries ({@code graph.pbtxt.tmp*}) and TensorFlow's bundle
   * temporaries of this basename's checkpoints ({@code <basename>-<step>.*.tempstate*}). Regular
   * files only.
   *
   * @return the deleted files
   */
  public static List<Path> cleanStaleTemporaries(Path dir, String basename) {
    List<Path> removed = new ArrayList<>();
    String head = basename + "-";
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path f : entries) {
        String name = f.getFileName().toString();
        boolean ours =
            name.startsWith(STATE_TEMP)
                || name.startsWith(GRAPH_TEMP)
                || (name.startsWith(head) && name.substring(head.length()).contains(BUNDLE_TEMP));
        if (ours && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          Files.deleteIfExists(f);
          removed.add(f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clean temporary files in " + dir, e);
    }
    removed.sort(null);
    if (!removed.isEmpty()) {
      LOG.log(
          System.Logger.Level.INFO,
          "Removed "
              + removed.size()
              + " temporary file(s) of an interrupted save in "
              + dir
              + ": "
              + removed);
    }
    return removed;
  }

  /**
   * Copies the files of the checkpoint {@code prefix} ({@code .index}, {@code .data-*}, {@code
   * .meta}) to {@code destPrefix} plus the same suffixes: each to a temporary name in the
   * destination dir, then moved over its target ({@code .index} last, so a half-copied checkpoint
   * has no index).
   *
   * @return the written files
   * @throws UncheckedIOException {@code prefix} has no complete checkpoint, or a copy failed (the
   *     temporary file is removed)
   */
  public static List<Path> copyCheckpoint(String prefix, String destPrefix) {
    if (!checkpointExists(prefix)) {
      throw new UncheckedIOException(
          new java.io.FileNotFoundException(
              "no " + prefix + ".index / " + prefix + ".data-* to copy"));
    }
    List<Path> files = new ArrayList<>(filesOf(Path.of(prefix)));
    files.sort(java.util.Comparator.comparing(f -> f.getFileName().toString().endsWith(".index")));
    List<Path> written = new ArrayList<>();
    for (Path source : files) {
      Path target = Path.of(destPrefix + suffix(Path.of(prefix), source));
      Path temporary = Path.of(target + BUNDLE_TEMP + ".copy");
      try {
        Files.copy(source, temporary, StandardCopyOption.REPLACE_EXISTING);
        Files.move(
            temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot copy " + source + " to " + target, e);
      } finally {
        try {
          Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
          // the copy's own error (if any) is being thrown; begin() removes stray temporaries
        }
      }
      written.add(target);
    }
    return written;
  }

  /** The existing index, meta and data files of {@code prefix}, by literal name. */
  private static List<Path> filesOf(Path prefix) {
    Path abs = prefix.toAbsolutePath().normalize();
    List<Path> out = new ArrayList<>();
    if (abs.getParent() == null || !Files.isDirectory(abs.getParent())) {
      return out;
    }
    String name = abs.getFileName().toString();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(abs.getParent())) {
      for (Path f : entries) {
        String entry = f.getFileName().toString();
        if (!entry.startsWith(name)) {
          continue;
        }
        String suffix = entry.substring(name.length());
        if (suffix.equals(".index") || suffix.equals(".meta") || DATA.matcher(suffix).matches()) {
          out.add(f);
        }
      }
    } catch (IOException e) {
      return out;
    }
    return out;
  }

  private static String suffix(Path prefix, Path file) {
    return file.getFileName()
        .toString()
        .substring(prefix.toAbsolutePath().normalize().getFileName().toString().length());
  }

  /**
   * The name the state file records for {@code prefix}: its file name when it lies in {@code dir},
   * else its absolute path.
   */
  public static String relativeName(Path dir, String prefix) {
    Path absDir = dir.toAbsolutePath().normalize();
    Path absPrefix = Path.of(prefix).toAbsolutePath().normalize();
    return absDir.equals(absPrefix.getParent())
        ? absPrefix.getFileName().toString()
        : absPrefix.toString();
  }

  static String resolve(Path dir, String path) {
    Path p = Path.of(path);
    return (p.isAbsolute() ? p : dir.toAbsolutePath().resolve(p)).normalize().toString();
  }
}
