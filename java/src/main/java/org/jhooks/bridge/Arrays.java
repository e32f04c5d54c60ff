package org.jhooks.bridge;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jhooks.ndarray.DType;
import org.jhooks.ndarray.ViewLease;
import org.jhooks.tf.Values;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * Copies between numpy memory and heap {@link NdArray}s; the Java half of {@code
 * jhooks.bridge.arrays}. Which dtypes cross and how each is held is {@link DType}, the one dtype
 * table.
 *
 * <p>Numeric and boolean values cross as one bulk copy through a direct {@link ByteBuffer} that
 * views the numpy array's memory (JPype's {@code convertToDirectBuffer}); the buffer is used only
 * during the call, never kept. The NdArrays made here wrap Java arrays the caller then owns.
 * Strings cross as {@code byte[]} elements (an {@code NdArray<byte[]>}; Java String elements are
 * UTF-8 encoded). See docs/bridge.md, "Arrays and ownership".
 */
public final class Arrays {
  private Arrays() {}

  /**
   * A new heap NdArray holding a copy of {@code src}.
   *
   * @param src C-order values in native byte order, exactly {@code product(shape)} elements
   * @param dtype numpy dtype name, see {@link DType}
   * @param shape dimensions; empty for a scalar; zeros allowed
   * @throws IllegalArgumentException unknown dtype or a buffer of the wrong size
   */
  public static NdArray<?> fromBuffer(ByteBuffer src, String dtype, long[] shape) {
    return DType.ofNumpy(dtype).fromBytes(src, Shape.of(shape));
  }

  /**
   * A read-only NdArray over {@code src} itself (no copy): what a Java hook in a Python-driven
   * session receives as a fetched value. {@code src} views numpy memory the Python side keeps alive
   * during the hook's callback and for a bounded number of bytes after it ({@code
   * jhooks.bridge.arrays.view_to_java}); a hook that keeps a value past its callback must copy it
   * (docs/bridge.md, "Arrays and ownership").
   *
   * @param src C-order values in native byte order, exactly {@code product(shape)} elements
   * @param dtype numpy dtype name, see {@link DType}
   * @param shape dimensions; empty for a scalar; zeros allowed
   * @throws IllegalArgumentException unknown or string dtype, or a buffer of the wrong size
   */
  public static NdArray<?> view(ByteBuffer src, String dtype, long[] shape) {
    return DType.ofNumpy(dtype).view(src, Shape.of(shape));
  }

  /**
   * {@link #view(ByteBuffer, String, long[])} under {@code lease}, which the Python side releases
   * before the numpy memory can be freed: a read after that throws {@link IllegalStateException}
   * naming the value (copy it inside the callback to keep it) instead of reading freed memory.
   *
   * @throws IllegalArgumentException unknown or string dtype, or a buffer of the wrong size
   */
  public static NdArray<?> view(ByteBuffer src, String dtype, long[] shape, ViewLease lease) {
    return DType.ofNumpy(dtype).view(src, Shape.of(shape), lease);
  }

  /**
   * A new {@code NdArray<byte[]>} holding {@code bytes} (TensorFlow strings are byte strings; NUL
   * and non-UTF-8 bytes are kept). The element arrays are the caller's (JPype made them for this
   * call).
   */
  public static NdArray<byte[]> fromStrings(byte[][] bytes, long[] shape) {
    return NdArrays.wrap(Shape.of(shape), DataBuffers.ofObjects(bytes));
  }

  /** The dimensions of {@code array}; empty for a scalar. */
  public static long[] shape(NdArray<?> array) {
    return array.shape().asArray();
  }

  /**
   * The numpy dtype name of {@code array}: a tensor's own dtype, else its tag, else its family's
   * default ({@link DType#of}); {@code "string"} for String and byte[] arrays.
   *
   * @throws IllegalArgumentException a dtype jhooks does not move
   */
  public static String dtype(NdArray<?> array) {
    return Values.dtype(array).numpy();
  }

  /**
   * Copies {@code src} into {@code dst} (C order, native byte order), which must hold exactly
   * {@code src.size()} elements of {@link #dtype dtype(src)}. A dense array-backed {@code src}
   * (what {@link #fromBuffer} and the JVM driver's {@code Values.copyOf} make) is one bulk copy.
   */
  public static void copyToBuffer(NdArray<?> src, ByteBuffer dst) {
    Values.dtype(src).toBytes(src, dst);
  }

  /**
   * The direct memory behind {@code array} when the JVM driver held it there ({@link
   * org.jhooks.ndarray.DirectValues}), else {@code null}: Python views it instead of copying.
   */
  public static ByteBuffer directBytes(NdArray<?> array) {
    return org.jhooks.ndarray.DirectValues.bytes(array);
  }

  /** The elements of a String or {@code byte[]} NdArray in C order, as UTF-8 bytes. */
  public static byte[][] toStrings(NdArray<?> src) {
    int n = Math.toIntExact(src.shape().size());
    Object[] values = new Object[n];
    @SuppressWarnings("unchecked")
    NdArray<Object> objects = (NdArray<Object>) src;
    objects.copyTo(DataBuffers.of(values, false, false));
    byte[][] out = new byte[n][];
    for (int i = 0; i < n; i++) {
      Object v = values[i];
      if (v instanceof byte[]) {
        out[i] = (byte[]) v;
      } else if (v instanceof String) {
        out[i] = ((String) v).getBytes(StandardCharsets.UTF_8);
      } else {
        throw new IllegalArgumentException(
            "a string NdArray holds " + (v == null ? "null" : v.getClass().getName()));
      }
    }
    return out;
  }

  /**
   * {@code src} (of dtype {@code from}) converted to numpy dtype {@code to} as numpy's {@code
   * astype}; see {@link DType#cast}.
   */
  public static NdArray<?> cast(NdArray<?> src, String to) {
    return DType.ofNumpy(to).cast(src, Values.dtype(src));
  }
}
