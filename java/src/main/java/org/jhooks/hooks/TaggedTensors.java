package org.jhooks.hooks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jhooks.ndarray.DType;
import org.jhooks.tf.TensorValues;
import org.tensorflow.ndarray.NdArray;

/**
 * The tensors a logging hook names (tag to tensor name, in TensorFlow's order) and how it prints
 * their values; shared by {@link LoggingTensorHook} and {@link ProgressBarHook}.
 */
final class TaggedTensors {
  private TaggedTensors() {}

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

  /**
   * A scalar as its number ({@code 0.25}, {@code 7}); an array as nested {@code [a b]} rows. By the
   * value's dtype: a uint8 / uint16 element prints as its unsigned number (240, not the byte's
   * -16).
   */
  static String format(Object value) {
    if (!(value instanceof NdArray)) {
      return String.valueOf(value);
    }
    DType dtype;
    try {
      dtype = TensorValues.dtype((NdArray<?>) value);
    } catch (IllegalArgumentException e) {
      dtype = null; // printed as the elements' objects
    }
    return format((NdArray<?>) value, dtype);
  }

  private static String format(NdArray<?> v, DType dtype) {
    if (v.rank() == 0) {
      Object o = v.getObject();
      if (o instanceof byte[]) {
        return new String((byte[]) o, java.nio.charset.StandardCharsets.UTF_8);
      } else if (dtype == DType.UINT8 && o instanceof Byte) {
        return String.valueOf(Byte.toUnsignedInt((Byte) o));
      } else if (dtype == DType.UINT16 && o instanceof Short) {
        return String.valueOf(Short.toUnsignedInt((Short) o));
      }
      return String.valueOf(o);
    }
    StringBuilder sb = new StringBuilder("[");
    long n = v.shape().get(0);
    for (long i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(format(v.get(i), dtype));
    }
    return sb.append(']').toString();
  }
}
