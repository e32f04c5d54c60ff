package org.jhooks.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.jhooks.ndarray.DType;
import org.jhooks.ndarray.ViewLease;
import org.jhooks.tf.TensorValues;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * Copies between numpy memory and heap {@link NdArray}s; the Java half of {@code
 * jhooks.bridge.convert.arrays}. Which dtypes cross and how each is held is {@link DType}, the one
 * dtype table.
 *
 * <p>Numeric and boolean values cross as one bulk copy through a direct {@link ByteBuffer} that
 * views the numpy array's memory (JPype's {@code convertToDirectBuffer}); the buffer is used only
 * during the call, never kept. The NdArrays made here wrap Java arrays the caller then owns.
 * Strings cross as {@code byte[]} elements (an {@code NdArray<byte[]>}; Java String elements are
 * UTF-8 encoded). See docs/bridge.md, "Arrays and ownership".
 */
public final class NumpyArrays {
  private NumpyArrays() {}

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
   * jhooks.bridge.convert.arrays.view_to_java}); a hook that keeps a value past its callback must
   * copy it (docs/bridge.md, "Arrays and ownership").
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
    return TensorValues.dtype(array).numpy();
  }

  /**
   * Copies {@code src} into {@code dst} (C order, native byte order), which must hold exactly
   * {@code src.size()} elements of {@link #dtype dtype(src)}. A dense array-backed {@code src}
   * (what {@link #fromBuffer} and the JVM driver's {@code TensorValues.copyOf} make) is one bulk
   * copy.
   */
  public static void copyToBuffer(NdArray<?> src, ByteBuffer dst) {
    TensorValues.dtype(src).toBytes(src, dst);
  }

  /**
   * The direct memory behind {@code array} when the JVM driver held it there ({@link
   * org.jhooks.ndarray.DirectValues}), else {@code null}: Python views it instead of copying.
   */
  public static ByteBuffer directBytes(NdArray<?> array) {
    return org.jhooks.ndarray.DirectValues.bytes(array);
  }

  /**
   * A small numeric or boolean {@code array} packed into one {@code byte[]}, so Python reads dtype,
   * shape and values in one call ({@code jhooks.bridge.convert.arrays.to_numpy}); {@code null} for
   * strings, for values the JVM driver held in direct memory ({@link #directBytes}) and for more
   * than {@code maxBytes} bytes of values.
   *
   * <p>Layout: the length of the header (1 byte, a multiple of 8 so the values are aligned), the
   * length of the numpy dtype name (1 byte), the name (ASCII), the rank (1 byte), each dimension
   * (int64, little-endian), zero padding, then the values in C order and native byte order.
   *
   * @throws IllegalArgumentException a dtype jhooks does not move
   */
  public static byte[] packed(NdArray<?> array, int maxBytes) {
    if (org.jhooks.ndarray.DirectValues.bytes(array) != null) {
      return null;
    }
    DType dtype = TensorValues.dtype(array);
    long[] shape = array.shape().asArray();
    long size = dtype.itemSize() * array.shape().size();
    if (dtype.itemSize() == 0 || size > maxBytes || shape.length > 127) {
      return null;
    }
    byte[] name = dtype.numpy().getBytes(StandardCharsets.US_ASCII);
    int header = (3 + name.length + 8 * shape.length + 7) / 8 * 8;
    if (header > 255) {
      return null;
    }
    byte[] out = new byte[header + (int) size];
    ByteBuffer h = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    h.put((byte) header).put((byte) name.length).put(name).put((byte) shape.length);
    for (long d : shape) {
      h.putLong(d);
    }
    if (size > 0) {
      // a buffer of its own: tensorflow-java's DataBuffers.of ignores a heap buffer's array offset
      ByteBuffer values = ByteBuffer.allocate((int) size);
      dtype.toBytes(array, values);
      System.arraycopy(values.array(), 0, out, header, (int) size);
    }
    return out;
  }

  /**
   * A read-only NdArray over the values of {@code packed}, laid out as {@link #packed} lays them
   * out: what a Java hook in a Python-driven session receives for a small fetched value ({@code
   * jhooks.bridge.convert.arrays.view_to_java} copies small values in one call instead of viewing
   * them).
   *
   * @throws IllegalArgumentException unknown or string dtype, or values of the wrong size
   */
  public static NdArray<?> unpacked(byte[] packed) {
    ByteBuffer h = ByteBuffer.wrap(packed).order(ByteOrder.LITTLE_ENDIAN);
    int header = h.get() & 0xff;
    byte[] name = new byte[h.get()];
    h.get(name);
    long[] shape = new long[h.get()];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = h.getLong();
    }
    // an array of its own: tensorflow-java's DataBuffers.of ignores a heap buffer's array offset
    ByteBuffer values =
        ByteBuffer.wrap(java.util.Arrays.copyOfRange(packed, header, packed.length));
    return DType.ofNumpy(new String(name, StandardCharsets.US_ASCII)).view(values, Shape.of(shape));
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
    return DType.ofNumpy(to).cast(src, TensorValues.dtype(src));
  }
}
