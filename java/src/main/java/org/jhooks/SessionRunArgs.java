package org.jhooks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tensorflow.ndarray.NdArray;

/**
 * What a caller or a hook adds to one run: fetches, feeds and run options. Twin of TensorFlow's
 * {@code SessionRunArgs}. Immutable.
 *
 * <p>Fetches: a tensor name such as {@code "loss:0"}; an op name without {@code ":N"}, run as a
 * target whose result is {@code null}; or a {@link java.util.List} / {@link java.util.Map} (String
 * keys) nest of them. Feeds: tensor name to value.
 */
public final class SessionRunArgs {
  private final Object fetches;
  private final Map<String, NdArray<?>> feeds;
  private final RunOptions options;

  /**
   * @param fetches a name, a nest of names, or {@code null}
   * @param feeds tensor name to value, or {@code null} for none
   * @param options run options, or {@code null}
   * @throws SessionRunArgsException fetches hold something other than names, lists and maps; a feed
   *     key is null or a feed value is not an NdArray (reachable through raw types or from another
   *     language); the message names the value
   */
  public SessionRunArgs(
      Object fetches, Map<String, ? extends NdArray<?>> feeds, RunOptions options) {
    try {
      Nest.validate(fetches);
    } catch (IllegalArgumentException e) {
      throw new SessionRunArgsException("fetches " + fetches + ": " + e.getMessage());
    }
    this.fetches = fetches;
    this.feeds =
        feeds == null
            ? Collections.emptyMap()
            : Collections.unmodifiableMap(new LinkedHashMap<String, NdArray<?>>(checked(feeds)));
    this.options = options;
  }

  private static Map<String, ? extends NdArray<?>> checked(
      Map<String, ? extends NdArray<?>> feeds) {
    for (Map.Entry<?, ?> e : feeds.entrySet()) {
      Object key = e.getKey();
      if (!(key instanceof String)) {
        throw new SessionRunArgsException(
            "a feed key must be a tensor name (String), got "
                + (key == null ? "null" : key.getClass().getName() + " " + key));
      }
      Object value = e.getValue();
      if (value != null && !(value instanceof NdArray)) {
        throw new SessionRunArgsException(
            "feed '"
                + key
                + "': the value must be an org.tensorflow.ndarray.NdArray, got "
                + value.getClass().getName()
                + " "
                + value);
      }
    }
    return feeds;
  }

  /** Args with fetches only. */
  public static SessionRunArgs of(Object fetches) {
    return new SessionRunArgs(fetches, null, null);
  }

  /** Args with fetches and feeds. */
  public static SessionRunArgs of(Object fetches, Map<String, ? extends NdArray<?>> feeds) {
    return new SessionRunArgs(fetches, feeds, null);
  }

  public Object fetches() {
    return fetches;
  }

  /** Tensor name to value; never null. */
  public Map<String, NdArray<?>> feeds() {
    return feeds;
  }

  /** The run options, or {@code null}. */
  public RunOptions options() {
    return options;
  }

  @Override
  public String toString() {
    return "SessionRunArgs{fetches="
        + fetches
        + ", feeds="
        + feeds.keySet()
        + ", options="
        + options
        + "}";
  }
}
