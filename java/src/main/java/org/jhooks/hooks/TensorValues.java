package org.jhooks.hooks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tensorflow.ndarray.NdArray;

/** Tag handling and value printing shared by the logging hooks. */
final class TensorValues {
  private TensorValues() {}

  /**
   * Tag to tensor name, in TF's tag order: a List gives tag = name in list order; a Map is ordered
   * by sorted tag, as TF's {@code LoggingTensorHook}.
   *
   * @throws IllegalArgumentException {@code tensors} is not a list of names or a map of names
   */
  static Map<String, String> tagged(Object tensors, String hook) {
    Map<String, String> out = new LinkedHashMap<>();
    if (tensors instanceof List) {
      for (Object name : (List<?>) tensors) {
        if (!(name instanceof String)) {
          throw new IllegalArgumentException(hook + ": tensors must be tensor names, got " + name);
        }
        out.put((String) name, (String) name);
      }
    } else if (tensors instanceof Map) {
      for (Map.Entry<?, ?> e : new TreeMap<>((Map<?, ?>) tensors).entrySet()) {
        if (!(e.getKey() instanceof String) || !(e.getValue() instanceof String)) {
          throw new IllegalArgumentException(
              hook + ": tensors must map tags to tensor names, got " + e);
        }
        out.put((String) e.getKey(), (String) e.getValue());
      }
    } else if (tensors instanceof String) {
      out.put((String) tensors, (String) tensors);
    } else {
      throw new IllegalArgumentException(
          hook + ": tensors must be a List of names or a Map tag -> name, got " + tensors);
    }
    return out;
  }

  /** A scalar as its number ({@code 0.25}, {@code 7}); an array as nested {@code [a b]} rows. */
  static String format(Object value) {
    if (!(value instanceof NdArray)) {
      return String.valueOf(value);
    }
    NdArray<?> v = (NdArray<?>) value;
    if (v.rank() == 0) {
      Object o = v.getObject();
      return o instanceof byte[]
          ? new String((byte[]) o, java.nio.charset.StandardCharsets.UTF_8)
          : String.valueOf(o);
    }
    StringBuilder sb = new StringBuilder("[");
    long n = v.shape().get(0);
    for (long i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(format(v.get(i)));
    }
    return sb.append(']').toString();
  }
}
