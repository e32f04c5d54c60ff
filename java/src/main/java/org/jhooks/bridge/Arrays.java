package org.jhooks.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.tensorflow.ndarray.BooleanNdArray;
import org.tensorflow.ndarray.ByteNdArray;
import org.tensorflow.ndarray.DoubleNdArray;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.IntNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.ShortNdArray;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.buffer.FloatDataBuffer;
import org.tensorflow.ndarray.buffer.layout.DataLayouts;

/**
 * Copies between numpy memory and heap {@link NdArray}s; the Java half of {@code
 * jhooks.bridge.arrays}.
 *
 * <p>Numeric and boolean values cross as one bulk copy through a direct {@link ByteBuffer} that
 * views the numpy array's memory (JPype's {@code convertToDirectBuffer}); the buffer is used only
 * during the call, never kept. The NdArrays made here wrap Java arrays the caller then owns.
 * float16 is stored as its 16-bit pattern with tensorflow-java's {@code FLOAT16} layout (a {@link
 * FloatNdArray}, like {@code TFloat16}), bfloat16 likewise with the {@code BFLOAT16} layout; bool
 * as bytes with the {@code BOOL} layout. Strings cross as {@code byte[]} elements (an {@code
 * NdArray<byte[]>}; Java String elements are UTF-8 encoded). See docs/bridge.md, "Arrays and
 * ownership".
 */
public final class Arrays {
  private Arrays() {}

  /**
   * A new heap NdArray holding a copy of {@code src}.
   *
   * @param src C-order values in native byte order, exactly {@code product(shape)} elements
   * @param dtype numpy dtype name, see {@link DTypes}
   * @param shape dimensions; empty for a scalar; zeros allowed
   * @throws IllegalArgumentException unknown dtype or a buffer of the wrong size
   */
  public static NdArray<?> fromBuffer(ByteBuffer src, String dtype, long[] shape) {
    Shape s = Shape.of(shape);
    int n = Math.toIntExact(s.size());
    ByteBuffer b = src.duplicate().order(ByteOrder.nativeOrder());
    b.rewind();
    int itemSize = itemSize(dtype);
    if (b.remaining() != (long) n * itemSize) {
      throw new IllegalArgumentException(
          "a " + dtype + " array of shape " + s + " needs " + ((long) n * itemSize) + " bytes, got " + b.remaining());
    }
    switch (dtype) {
      case "float32": {
        float[] a = new float[n];
        b.asFloatBuffer().get(a);
        return NdArrays.wrap(s, DataBuffers.of(a, false, false));
      }
      case "float64": {
        double[] a = new double[n];
        b.asDoubleBuffer().get(a);
        return NdArrays.wrap(s, DataBuffers.of(a, false, false));
      }
      case "float16": {
        short[] bits = new short[n];
        b.asShortBuffer().get(bits);
        FloatDataBuffer halves = DataLayouts.FLOAT16.applyTo(DataBuffers.of(bits, false, false));
        return DTypes.tag(NdArrays.wrap(s, halves), dtype);
      }
      case "bfloat16": {
        short[] bits = new short[n];
        b.asShortBuffer().get(bits);
        return DTypes.tag(NdArrays.wrap(s, DataLayouts.BFLOAT16.applyTo(DataBuffers.of(bits, false, false))), dtype);
      }
      case "int32": {
        int[] a = new int[n];
        b.asIntBuffer().get(a);
        return NdArrays.wrap(s, DataBuffers.of(a, false, false));
      }
      case "int64": {
        long[] a = new long[n];
        b.asLongBuffer().get(a);
        return NdArrays.wrap(s, DataBuffers.of(a, false, false));
      }
      case "int8":
      case "uint8": {
        byte[] a = new byte[n];
        b.get(a);
        return DTypes.tag(NdArrays.wrap(s, DataBuffers.of(a, false, false)), dtype);
      }
      case "int16":
      case "uint16": {
        short[] a = new short[n];
        b.asShortBuffer().get(a);
        return DTypes.tag(NdArrays.wrap(s, DataBuffers.of(a, false, false)), dtype);
      }
      case "bool": {
        byte[] a = new byte[n];
        b.get(a);
        return NdArrays.wrap(s, DataLayouts.BOOL.applyTo(DataBuffers.of(a, false, false)));
      }
      default:
        throw new IllegalArgumentException("numpy dtype " + dtype + " cannot cross to Java; see docs/bridge.md");
    }
  }

  /**
   * A new {@code NdArray<byte[]>} holding {@code bytes} (TensorFlow strings are byte strings; NUL and
   * non-UTF-8 bytes are kept). The element arrays are the caller's (JPype made them for this call).
   */
  public static NdArray<byte[]> fromStrings(byte[][] bytes, long[] shape) {
    return NdArrays.wrap(Shape.of(shape), DataBuffers.ofObjects(bytes));
  }

  /** The dimensions of {@code array}; empty for a scalar. */
  public static long[] shape(NdArray<?> array) {
    return array.shape().asArray();
  }

  /**
   * Copies {@code src} into {@code dst} (C order, native byte order), which must hold exactly
   * {@code src.size()} elements of {@link DTypes#of DTypes.of(src)}. A dense array-backed {@code src}
   * (what {@link #fromBuffer} and the JVM driver's {@code Values.copyOf} make) is one bulk copy
   * from its Java array into {@code dst}; float16 and bool go through their layouts.
   */
  public static void copyToBuffer(NdArray<?> src, ByteBuffer dst) {
    String dtype = DTypes.of(src);
    int n = Math.toIntExact(src.shape().size());
    ByteBuffer b = dst.duplicate().order(ByteOrder.nativeOrder());
    b.rewind();
    if (b.remaining() != (long) n * itemSize(dtype)) {
      throw new IllegalArgumentException(
          "a " + dtype + " array of shape " + src.shape() + " needs " + ((long) n * itemSize(dtype))
              + " bytes, got " + b.remaining());
    }
    switch (dtype) {
      case "float32":
        ((FloatNdArray) src).copyTo(DataBuffers.of(b.asFloatBuffer()));
        return;
      case "float16": {
        short[] bits = new short[n];
        ((FloatNdArray) src).copyTo(DataLayouts.FLOAT16.applyTo(DataBuffers.of(bits, false, false)));
        b.asShortBuffer().put(bits);
        return;
      }
      case "bfloat16": {
        short[] bits = new short[n];
        ((FloatNdArray) src).copyTo(DataLayouts.BFLOAT16.applyTo(DataBuffers.of(bits, false, false)));
        b.asShortBuffer().put(bits);
        return;
      }
      case "float64":
        ((DoubleNdArray) src).copyTo(DataBuffers.of(b.asDoubleBuffer()));
        return;
      case "int32":
        ((IntNdArray) src).copyTo(DataBuffers.of(b.asIntBuffer()));
        return;
      case "int64":
        ((LongNdArray) src).copyTo(DataBuffers.of(b.asLongBuffer()));
        return;
      case "int8":
      case "uint8":
        ((ByteNdArray) src).copyTo(DataBuffers.of(b.slice()));
        return;
      case "int16":
      case "uint16":
        ((ShortNdArray) src).copyTo(DataBuffers.of(b.asShortBuffer()));
        return;
      case "bool": {
        byte[] a = new byte[n];
        ((BooleanNdArray) src).copyTo(DataLayouts.BOOL.applyTo(DataBuffers.of(a, false, false)));
        b.put(a);
        return;
      }
      default:
        throw new IllegalArgumentException("a " + dtype + " NdArray has no numeric buffer; use toStrings");
    }
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
        throw new IllegalArgumentException("a string NdArray holds " + (v == null ? "null" : v.getClass().getName()));
      }
    }
    return out;
  }

  /** Bytes per element of a numeric or boolean dtype. */
  public static int itemSize(String dtype) {
    switch (dtype) {
      case "int8":
      case "uint8":
      case "bool":
        return 1;
      case "float16":
      case "bfloat16":
      case "int16":
      case "uint16":
        return 2;
      case "float32":
      case "int32":
        return 4;
      case "float64":
      case "int64":
        return 8;
      default:
        throw new IllegalArgumentException("numpy dtype " + dtype + " has no fixed item size in jhooks");
    }
  }
}
