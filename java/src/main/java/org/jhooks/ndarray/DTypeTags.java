package org.jhooks.ndarray;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tensorflow.ndarray.NdArray;

/**
 * The numpy dtype a heap {@link NdArray} stands for, where its Java type cannot tell: a {@code
 * FloatNdArray} copied from a float16 or bfloat16 tensor, a {@code ByteNdArray} holding int8. Tags
 * are kept weakly, by identity; an untagged array has none. Used through {@link DType#tag} and
 * {@link DType#of}. Thread-safe. See docs/bridge.md, "Arrays".
 */
final class DTypeTags {
  private DTypeTags() {}

  private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
  private static final Map<Integer, List<Tag>> TAGS = new HashMap<>();

  private static final class Tag extends WeakReference<Object> {
    final int hash;
    final String dtype;

    Tag(Object referent, String dtype) {
      super(referent, QUEUE);
      this.hash = System.identityHashCode(referent);
      this.dtype = dtype;
    }
  }

  /**
   * Records that {@code array} holds values of numpy dtype {@code dtype} ({@code "float16"}, {@code
   * "bfloat16"}, {@code "int8"}, ...); returns {@code array}.
   */
  static <A extends NdArray<?>> A tag(A array, String dtype) {
    synchronized (TAGS) {
      expunge();
      Tag t = new Tag(array, dtype);
      TAGS.computeIfAbsent(t.hash, h -> new ArrayList<>(1)).add(t);
    }
    return array;
  }

  /** The numpy dtype name {@code array} was tagged with, or {@code null}. */
  static String tagOf(NdArray<?> array) {
    synchronized (TAGS) {
      expunge();
      List<Tag> tags = TAGS.get(System.identityHashCode(array));
      if (tags != null) {
        for (Tag t : tags) {
          if (t.get() == array) {
            return t.dtype;
          }
        }
      }
    }
    return null;
  }

  private static void expunge() {
    Object ref;
    while ((ref = QUEUE.poll()) != null) {
      Tag t = (Tag) ref;
      List<Tag> tags = TAGS.get(t.hash);
      if (tags != null) {
        tags.remove(t);
        if (tags.isEmpty()) {
          TAGS.remove(t.hash);
        }
      }
    }
  }
}
