package org.jhooks;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Fetch structures: a name (String), a {@link List} of structures, or a {@link Map} from String
 * keys to structures; {@code null} means nothing. Leaves are visited depth-first, list order, then
 * map iteration order. Mirrors TensorFlow's nest handling of fetches.
 */
public final class Nest {
  private Nest() {}

  /**
   * @throws IllegalArgumentException a leaf is not a String, or a map key is not a String
   */
  public static void validate(Object structure) {
    flatten(structure);
  }

  /** The names in the structure, in leaf order. */
  public static List<String> flatten(Object structure) {
    List<String> out = new ArrayList<>();
    flattenInto(structure, out);
    return out;
  }

  private static void flattenInto(Object s, List<String> out) {
    if (s == null) {
      return;
    }
    if (s instanceof String) {
      out.add((String) s);
    } else if (s instanceof List) {
      for (Object e : (List<?>) s) {
        if (e == null) {
          throw new IllegalArgumentException("a fetch list holds null: " + s);
        }
        flattenInto(e, out);
      }
    } else if (s instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) s).entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw new IllegalArgumentException(
              "a fetch map key must be a String, got " + describe(e.getKey()));
        }
        if (e.getValue() == null) {
          throw new IllegalArgumentException("a fetch map holds null under '" + e.getKey() + "'");
        }
        flattenInto(e.getValue(), out);
      }
    } else {
      throw new IllegalArgumentException(
          "a fetch must be a tensor or op name (String), a List or a Map, got " + describe(s));
    }
  }

  /**
   * Builds a structure like {@code structure} whose leaves are {@code leafValue} applied to each
   * name. Lists become {@link ArrayList}s, maps {@link LinkedHashMap}s in the same key order. Twin
   * of Python's {@code jhooks.api.nest.map_structure} (TensorFlow's {@code tf.nest.map_structure}).
   */
  public static Object mapStructure(Object structure, Function<String, Object> leafValue) {
    if (structure == null) {
      return null;
    }
    if (structure instanceof String) {
      return leafValue.apply((String) structure);
    }
    if (structure instanceof List) {
      List<Object> out = new ArrayList<>();
      for (Object e : (List<?>) structure) {
        out.add(mapStructure(e, leafValue));
      }
      return out;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) structure).entrySet()) {
      out.put((String) e.getKey(), mapStructure(e.getValue(), leafValue));
    }
    return out;
  }

  /** Builds a structure like {@code structure} taking leaves from {@code values} in leaf order. */
  public static Object pack(Object structure, Iterator<?> values) {
    return mapStructure(structure, name -> values.next());
  }

  /** Whether {@code name} names a tensor ({@code "op:N"}) rather than an op run as a target. */
  public static boolean isTensorName(String name) {
    int colon = name.lastIndexOf(':');
    if (colon <= 0 || colon == name.length() - 1) {
      return false;
    }
    for (int i = colon + 1; i < name.length(); i++) {
      if (!Character.isDigit(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  static String describe(Object o) {
    return o == null ? "null" : o.getClass().getName() + " " + o;
  }
}
