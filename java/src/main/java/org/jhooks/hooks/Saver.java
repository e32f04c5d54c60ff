package org.jhooks.hooks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.Session;

/**
 * What a checkpoint saver hook writes: which variables and how many checkpoints to keep. Twin of
 * {@code jhooks.hooks.Saver(variables=None, maxToKeep=5)}; it plays the part of TensorFlow's {@code
 * tf.compat.v1.train.Saver(var_list, max_to_keep)}.
 */
public final class Saver {
  /** TensorFlow's default {@code max_to_keep}. */
  public static final int DEFAULT_MAX_TO_KEEP = 5;

  private final Map<String, String> variables;
  private final int maxToKeep;

  /**
   * @param variables {@code null} for every variable of {@link Session#saveableVariables()}; a
   *     {@link List} of variable names (the tensor {@code name + ":0"} is read); or a {@link Map}
   *     from variable name (checkpoint key) to the name of a tensor that reads it
   * @param maxToKeep how many of the newest checkpoints to keep; {@code null} for 5; 0 keeps all
   * @throws IllegalArgumentException {@code maxToKeep < 0} or {@code variables} has another type
   */
  public Saver(Object variables, Integer maxToKeep) {
    int keep = maxToKeep == null ? DEFAULT_MAX_TO_KEEP : maxToKeep;
    if (keep < 0) {
      throw new IllegalArgumentException("maxToKeep must be >= 0, got " + keep);
    }
    this.maxToKeep = keep;
    this.variables = toMap(variables);
  }

  /** Every saveable variable, 5 checkpoints kept. */
  public static Saver defaults() {
    return new Saver(null, null);
  }

  private static Map<String, String> toMap(Object variables) {
    if (variables == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    if (variables instanceof List) {
      for (Object name : (List<?>) variables) {
        if (!(name instanceof String)) {
          throw new IllegalArgumentException("Saver variables must be names (String), got " + name);
        }
        String n = (String) name;
        out.put(
            n.endsWith(":0") ? n.substring(0, n.length() - 2) : n, n.endsWith(":0") ? n : n + ":0");
      }
    } else if (variables instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) variables).entrySet()) {
        if (!(e.getKey() instanceof String) || !(e.getValue() instanceof String)) {
          throw new IllegalArgumentException(
              "Saver variables map must be String to String, got "
                  + e.getKey()
                  + "="
                  + e.getValue());
        }
        out.put((String) e.getKey(), (String) e.getValue());
      }
    } else {
      throw new IllegalArgumentException(
          "Saver variables must be null, a List of names or a Map, got "
              + variables.getClass().getName());
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("Saver variables must not be empty");
    }
    return Collections.unmodifiableMap(out);
  }

  /** The explicit variables (name to tensor name), or {@code null} for all of the session's. */
  public Map<String, String> variables() {
    return variables;
  }

  /** The variables to save in {@code session}: the explicit ones, else the session's. */
  public Map<String, String> variablesIn(Session session) {
    return variables != null ? variables : session.saveableVariables();
  }

  public int maxToKeep() {
    return maxToKeep;
  }
}
