package org.jhooks.ndarray;

import org.tensorflow.ndarray.NdArray;

/**
 * The numpy dtype a heap {@link NdArray} stands for, where its Java type cannot tell: a {@code
 * FloatNdArray} copied from a float16 or bfloat16 tensor, a {@code ByteNdArray} holding int8. Tags
 * are kept weakly, by identity; an untagged array has none. Used through {@link DType#tag} and
 * {@link DType#of}. Thread-safe. See docs/bridge.md, "Arrays".
 */
final class DTypeTags {
  private DTypeTags() {}

  private static final WeakIdentityTable<String> TAGS = new WeakIdentityTable<>(dtype -> {});

  /**
   * Records that {@code array} holds values of numpy dtype {@code dtype} ({@code "float16"}, {@code
   * "bfloat16"}, {@code "int8"}, ...); returns {@code array}.
   */
  static <A extends NdArray<?>> A tag(A array, String dtype) {
    synchronized (TAGS) {
      TAGS.put(array, dtype);
    }
    return array;
  }

  /** The numpy dtype name {@code array} was tagged with, or {@code null}. */
  static String tagOf(NdArray<?> array) {
    synchronized (TAGS) {
      return TAGS.get(array);
    }
  }
}
