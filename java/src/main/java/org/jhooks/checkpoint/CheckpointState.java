package org.jhooks.checkpoint;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The content of a checkpoint dir's {@code checkpoint} state file, TensorFlow's {@code
 * CheckpointState} proto in text form: {@code model_checkpoint_path} (the latest prefix) and {@code
 * all_model_checkpoint_paths} (the kept prefixes, oldest first, the latest last). Paths are stored
 * as given; TensorFlow writes names relative to the dir, such as {@code model.ckpt-100}, and
 * resolves relative names against the dir; TensorFlow's own Saver may write absolute paths. Twin of
 * {@code jhooks.checkpoint.state.CheckpointState}. Immutable.
 */
public final class CheckpointState {
  private static final Pattern STRING_FIELD =
      Pattern.compile("^(\\w+)\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"$");
  private static final Pattern NUMBER_FIELD = Pattern.compile("^\\w+\\s*:\\s*[-+0-9.eE]+$");

  private final String modelCheckpointPath;
  private final List<String> allModelCheckpointPaths;

  /**
   * @param modelCheckpointPath the latest checkpoint prefix
   * @param allModelCheckpointPaths the kept prefixes, oldest first
   */
  public CheckpointState(String modelCheckpointPath, List<String> allModelCheckpointPaths) {
    if (modelCheckpointPath == null || modelCheckpointPath.isEmpty()) {
      throw new IllegalArgumentException("CheckpointState needs a model_checkpoint_path");
    }
    this.modelCheckpointPath = modelCheckpointPath;
    this.allModelCheckpointPaths =
        Collections.unmodifiableList(new ArrayList<>(allModelCheckpointPaths));
  }

  public String modelCheckpointPath() {
    return modelCheckpointPath;
  }

  public List<String> allModelCheckpointPaths() {
    return allModelCheckpointPaths;
  }

  /** The text proto, as TensorFlow's {@code update_checkpoint_state} writes it. */
  public String toText() {
    StringBuilder sb = new StringBuilder();
    sb.append("model_checkpoint_path: \"").append(escape(modelCheckpointPath)).append("\"\n");
    for (String p : allModelCheckpointPaths) {
      sb.append("all_model_checkpoint_paths: \"").append(escape(p)).append("\"\n");
    }
    return sb.toString();
  }

  /**
   * Parses the text proto, with the same rules as Python's {@code jhooks.checkpoint.state}: blank
   * lines and numeric fields (the timestamps TF2 adds) are skipped, any other line must be {@code
   * name: "value"} (unknown names are ignored), and {@code model_checkpoint_path} is required.
   *
   * @throws IllegalArgumentException a line is no such field, or there is no (or an empty) {@code
   *     model_checkpoint_path}; the message names the line
   */
  public static CheckpointState parse(String text) {
    String latest = null;
    List<String> all = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || NUMBER_FIELD.matcher(line).matches()) {
        continue;
      }
      Matcher m = STRING_FIELD.matcher(line);
      if (!m.matches()) {
        String shown = lines[i].length() > 80 ? lines[i].substring(0, 80) : lines[i];
        throw new IllegalArgumentException(
            "line " + (i + 1) + " is not a CheckpointState field: '" + shown + "'");
      }
      String value = unescape(m.group(2));
      if (m.group(1).equals("model_checkpoint_path")) {
        latest = value;
      } else if (m.group(1).equals("all_model_checkpoint_paths")) {
        all.add(value);
      }
    }
    if (latest == null || latest.isEmpty()) {
      throw new IllegalArgumentException("no model_checkpoint_path");
    }
    return new CheckpointState(latest, all);
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static String unescape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        sb.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CheckpointState
        && ((CheckpointState) o).modelCheckpointPath.equals(modelCheckpointPath)
        && ((CheckpointState) o).allModelCheckpointPaths.equals(allModelCheckpointPaths);
  }

  @Override
  public int hashCode() {
    return modelCheckpointPath.hashCode() * 31 + allModelCheckpointPaths.hashCode();
  }

  @Override
  public String toString() {
    return "CheckpointState{" + modelCheckpointPath + ", all=" + allModelCheckpointPaths + "}";
  }
}
