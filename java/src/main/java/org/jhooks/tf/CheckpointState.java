package org.jhooks.tf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The content of a checkpoint dir's {@code checkpoint} state file, TensorFlow's {@code
 * CheckpointState} proto in text form: {@code model_checkpoint_path} (the latest prefix) and
 * {@code all_model_checkpoint_paths} (the kept prefixes, oldest first, the latest last). Paths are
 * stored as given; TensorFlow writes names relative to the dir, such as {@code model.ckpt-100},
 * and resolves relative names against the dir. Immutable.
 */
public final class CheckpointState {
  private static final Pattern FIELD = Pattern.compile("^\\s*(\\w+)\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*$");

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
    this.allModelCheckpointPaths = Collections.unmodifiableList(new ArrayList<>(allModelCheckpointPaths));
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
   * Parses the text proto; unknown fields (for example the timestamps TF2 adds) are ignored.
   *
   * @throws IllegalArgumentException the text has no {@code model_checkpoint_path} or a line is
   *     not a {@code name: "value"} field
   */
  public static CheckpointState parse(String text) {
    String latest = null;
    List<String> all = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.trim().isEmpty()) {
        continue;
      }
      Matcher m = FIELD.matcher(line);
      if (!m.matches()) {
        if (line.matches("^\\s*\\w+\\s*:\\s*[-0-9.eE+]+\\s*$")) {
          continue; // numeric fields such as all_model_checkpoint_timestamps
        }
        throw new IllegalArgumentException("not a CheckpointState text line: '" + line + "'");
      }
      String value = unescape(m.group(2));
      if (m.group(1).equals("model_checkpoint_path")) {
        latest = value;
      } else if (m.group(1).equals("all_model_checkpoint_paths")) {
        all.add(value);
      }
    }
    if (latest == null) {
      throw new IllegalArgumentException("CheckpointState text has no model_checkpoint_path:\n" + text);
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
