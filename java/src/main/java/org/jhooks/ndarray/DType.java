package org.jhooks.ndarray;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
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
import org.tensorflow.ndarray.buffer.ByteDataBuffer;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.buffer.DoubleDataBuffer;
import org.tensorflow.ndarray.buffer.FloatDataBuffer;
import org.tensorflow.ndarray.buffer.IntDataBuffer;
import org.tensorflow.ndarray.buffer.LongDataBuffer;
import org.tensorflow.ndarray.buffer.ShortDataBuffer;
import org.tensorflow.ndarray.buffer.layout.DataLayouts;

/**
 * The dtypes jhooks moves between languages and tensors: the one dtype table of the JVM side. Each
 * has its numpy name, its TensorFlow {@code DataType} number, its item size and the heap {@link
 * NdArray} family that holds it:
 *
 * <table>
 *   <caption>dtypes</caption>
 *   <tr><th>dtype</th><th>heap NdArray</th><th>family default</th></tr>
 *   <tr><td>float16, bfloat16</td><td>{@code FloatNdArray} (16-bit patterns)</td><td>no</td></tr>
 *   <tr><td>float32 / float64</td><td>{@code FloatNdArray} / {@code DoubleNdArray}</td><td>yes</td></tr>
 *   <tr><td>int8 / uint8</td><td>{@code ByteNdArray} (same bits)</td><td>uint8</td></tr>
 *   <tr><td>int16 / uint16</td><td>{@code ShortNdArray} (same bits)</td><td>uint16</td></tr>
 *   <tr><td>int32 / int64</td><td>{@code IntNdArray} / {@code LongNdArray}</td><td>yes</td></tr>
 *   <tr><td>bool</td><td>{@code BooleanNdArray}</td><td>yes</td></tr>
 *   <tr><td>string</td><td>{@code NdArray<byte[]>} or {@code NdArray<String>}</td><td>yes</td></tr>
 * </table>
 *
 * <p>A heap array whose family holds several dtypes is tagged ({@link DTypeTags}) when it is not
 * the family default (tensorflow-java's only type of that family). {@link #cast} converts exactly
 * as numpy's {@code astype} does on x86-64 (the platform jhooks runs on): integers wrap to the
 * target's width, unsigned sources are zero-extended (never negative), floats to integers truncate
 * and an out-of-range or NaN value becomes the minimum of int32 (then wrapped to narrower targets)
 * or of int64, floats round to nearest even (float64 to float16 directly; to bfloat16 through
 * float32, as ml_dtypes), anything to bool is {@code != 0} (NaN is true). See docs/bridge.md,
 * "Arrays".
 */
public enum DType {
  FLOAT16("float16", 19, 2, Kind.FLOAT),
  BFLOAT16("bfloat16", 14, 2, Kind.FLOAT),
  FLOAT32("float32", 1, 4, Kind.FLOAT),
  FLOAT64("float64", 2, 8, Kind.FLOAT),
  INT8("int8", 6, 1, Kind.SIGNED),
  INT16("int16", 5, 2, Kind.SIGNED),
  INT32("int32", 3, 4, Kind.SIGNED),
  INT64("int64", 9, 8, Kind.SIGNED),
  UINT8("uint8", 4, 1, Kind.UNSIGNED),
  UINT16("uint16", 17, 2, Kind.UNSIGNED),
  BOOL("bool", 10, 1, Kind.BOOL),
  STRING("string", 7, 0, Kind.STRING);

  private enum Kind {
    FLOAT,
    SIGNED,
    UNSIGNED,
    BOOL,
    STRING
  }

  private final String numpy;
  private final int tensorFlowCode;
  private final int itemSize;
  private final Kind kind;

  DType(String numpy, int tensorFlowCode, int itemSize, Kind kind) {
    this.numpy = numpy;
    this.tensorFlowCode = tensorFlowCode;
    this.itemSize = itemSize;
    this.kind = kind;
  }

  /** The numpy name: {@code "float32"}, ..., {@code "string"} for strings. */
  public String numpy() {
    return numpy;
  }

  /** TensorFlow's {@code DataType} number ({@code DT_FLOAT} is 1). */
  public int tensorFlowCode() {
    return tensorFlowCode;
  }

  /** Bytes per element; 0 for strings. */
  public int itemSize() {
    return itemSize;
  }

  /** Whether values are floating point (float16, bfloat16, float32, float64). */
  public boolean isFloating() {
    return kind == Kind.FLOAT;
  }

  /** Whether values are numbers (floats or integers, not bool or strings). */
  public boolean isNumeric() {
    return kind == Kind.FLOAT || kind == Kind.SIGNED || kind == Kind.UNSIGNED;
  }

  /**
   * The dtype of numpy name {@code name}.
   *
   * @throws IllegalArgumentException jhooks has no such dtype
   */
  public static DType ofNumpy(String name) {
    for (DType d : values()) {
      if (d.numpy.equals(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        "numpy dtype " + name + " does not cross to Java; jhooks supports " + names());
  }

  /**
   * The dtype of TensorFlow {@code DataType} number {@code code} (a reference type, {@code
   * DT_FLOAT_REF} = {@code DT_FLOAT} + 100, is its base type), or {@code null} for none.
   */
  public static DType ofTensorFlow(int code) {
    int base = code > 100 ? code - 100 : code;
    for (DType d : values()) {
      if (d.tensorFlowCode == base) {
        return d;
      }
    }
    return null;
  }

  /** Every numpy name, for messages. */
  public static String names() {
    StringBuilder b = new StringBuilder();
    for (DType d : values()) {
      b.append(b.length() == 0 ? "" : ", ").append(d.numpy);
    }
    return b.toString();
  }

  /**
   * The dtype a heap array holds: its tag, else its family's default (see the class doc). A
   * tensor's own {@code dataType()} says more; {@code org.jhooks.tf.TensorValues.dtypeOf} asks it.
   *
   * @throws IllegalArgumentException an array of objects other than String or byte[]
   */
  public static DType of(NdArray<?> array) {
    String tag = DTypeTags.tagOf(array);
    if (tag != null) {
      return ofNumpy(tag);
    }
    if (array instanceof FloatNdArray) {
      return FLOAT32;
    } else if (array instanceof DoubleNdArray) {
      return FLOAT64;
    } else if (array instanceof IntNdArray) {
      return INT32;
    } else if (array instanceof LongNdArray) {
      return INT64;
    } else if (array instanceof ByteNdArray) {
      return UINT8;
    } else if (array instanceof ShortNdArray) {
      return UINT16;
    } else if (array instanceof BooleanNdArray) {
      return BOOL;
    }
    Object first = array.shape().size() == 0 ? null : array.scalars().iterator().next().getObject();
    if (first == null || first instanceof String || first instanceof byte[]) {
      return STRING;
    }
    throw new IllegalArgumentException(
        "an NdArray of "
            + first.getClass().getName()
            + " has no dtype; use a numeric, boolean or String NdArray");
  }

  /** {@code array}, recorded as holding this dtype (when its family default is another one). */
  public <A extends NdArray<?>> A tag(A array) {
    return this == familyDefault() ? array : DTypeTags.tag(array, numpy);
  }

  private DType familyDefault() {
    switch (this) {
      case FLOAT16:
      case BFLOAT16:
        return FLOAT32;
      case INT8:
        return UINT8;
      case INT16:
        return UINT16;
      default:
        return this;
    }
  }

  /** A new zeroed heap array of this dtype (strings: {@code NdArray<byte[]>} of nulls). */
  public NdArray<?> allocate(Shape shape) {
    switch (this) {
      case FLOAT32:
        return NdArrays.ofFloats(shape);
      case FLOAT64:
        return NdArrays.ofDoubles(shape);
      case FLOAT16:
      case BFLOAT16:
        return halves(new short[Math.toIntExact(shape.size())], shape);
      case INT8:
      case UINT8:
        return tag(NdArrays.ofBytes(shape));
      case INT16:
      case UINT16:
        return tag(NdArrays.ofShorts(shape));
      case INT32:
        return NdArrays.ofInts(shape);
      case INT64:
        return NdArrays.ofLongs(shape);
      case BOOL:
        return NdArrays.ofBooleans(shape);
      default:
        return NdArrays.ofObjects(byte[].class, shape);
    }
  }

  /**
   * A new heap array holding a copy of {@code src}: C-order elements in native byte order, exactly
   * {@code shape.size()} of them. One bulk copy into a Java array the result wraps.
   *
   * @throws IllegalArgumentException a string dtype, or a buffer of the wrong size
   */
  public NdArray<?> fromBytes(ByteBuffer src, Shape shape) {
    int n = Math.toIntExact(shape.size());
    ByteBuffer b = src.duplicate().order(ByteOrder.nativeOrder());
    b.rewind();
    checkSize(b, shape);
    switch (this) {
      case FLOAT32:
        {
          float[] a = new float[n];
          b.asFloatBuffer().get(a);
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      case FLOAT64:
        {
          double[] a = new double[n];
          b.asDoubleBuffer().get(a);
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      case FLOAT16:
      case BFLOAT16:
        {
          short[] bits = new short[n];
          b.asShortBuffer().get(bits);
          return halves(bits, shape);
        }
      case INT32:
        {
          int[] a = new int[n];
          b.asIntBuffer().get(a);
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      case INT64:
        {
          long[] a = new long[n];
          b.asLongBuffer().get(a);
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      case INT8:
      case UINT8:
        {
          byte[] a = new byte[n];
          b.get(a);
          return tag(NdArrays.wrap(shape, DataBuffers.of(a, false, false)));
        }
      case INT16:
      case UINT16:
        {
          short[] a = new short[n];
          b.asShortBuffer().get(a);
          return tag(NdArrays.wrap(shape, DataBuffers.of(a, false, false)));
        }
      case BOOL:
        {
          byte[] a = new byte[n];
          b.get(a);
          return NdArrays.wrap(shape, DataLayouts.BOOL.applyTo(DataBuffers.of(a, false, false)));
        }
      default:
        throw new IllegalArgumentException("a " + numpy + " array has no byte layout");
    }
  }

  /**
   * A read-only array of this dtype over {@code src} itself, not a copy: C-order elements in native
   * byte order, exactly {@code shape.size()} of them. It reads whatever {@code src} holds, so it is
   * valid only as long as the memory behind {@code src} is (see {@code
   * org.jhooks.bridge.NumpyArrays#view}); writes throw {@link java.nio.ReadOnlyBufferException}.
   *
   * @throws IllegalArgumentException a string dtype, or a buffer of the wrong size
   */
  public NdArray<?> view(ByteBuffer src, Shape shape) {
    return view(src, shape, null);
  }

  /**
   * {@link #view(ByteBuffer, Shape)} under {@code lease}: once the lease is released, every read of
   * the array or of a sub-array made from it throws {@link IllegalStateException} (naming the dtype
   * and shape) instead of reading memory that may have been freed. {@code null}: no lease.
   *
   * @throws IllegalArgumentException a string dtype, or a buffer of the wrong size
   */
  public NdArray<?> view(ByteBuffer src, Shape shape, ViewLease lease) {
    ByteBuffer b = src.asReadOnlyBuffer().order(ByteOrder.nativeOrder());
    b.rewind();
    checkSize(b, shape);
    if (lease != null) {
      lease.describe("a " + numpy + " value of shape " + shape);
    }
    switch (this) {
      case FLOAT32:
        return NdArrays.wrap(shape, leased(DataBuffers.of(b.asFloatBuffer()), lease));
      case FLOAT64:
        return NdArrays.wrap(shape, leased(DataBuffers.of(b.asDoubleBuffer()), lease));
      case FLOAT16:
      case BFLOAT16:
        return tag(
            NdArrays.wrap(
                shape,
                (this == FLOAT16 ? DataLayouts.FLOAT16 : DataLayouts.BFLOAT16)
                    .applyTo(leased(DataBuffers.of(b.asShortBuffer()), lease))));
      case INT32:
        return NdArrays.wrap(shape, leased(DataBuffers.of(b.asIntBuffer()), lease));
      case INT64:
        return NdArrays.wrap(shape, leased(DataBuffers.of(b.asLongBuffer()), lease));
      case INT8:
      case UINT8:
        return tag(NdArrays.wrap(shape, leased(DataBuffers.of(b.slice()), lease)));
      case INT16:
      case UINT16:
        return tag(NdArrays.wrap(shape, leased(DataBuffers.of(b.asShortBuffer()), lease)));
      case BOOL:
        return NdArrays.wrap(
            shape, DataLayouts.BOOL.applyTo(leased(DataBuffers.of(b.slice()), lease)));
      default:
        throw new IllegalArgumentException("a " + numpy + " array has no byte layout");
    }
  }

  private static FloatDataBuffer leased(FloatDataBuffer b, ViewLease lease) {
    return lease == null ? b : LeasedBuffers.of(b, lease);
  }

  private static DoubleDataBuffer leased(DoubleDataBuffer b, ViewLease lease) {
    return lease == null ? b : LeasedBuffers.of(b, lease);
  }

  private static IntDataBuffer leased(IntDataBuffer b, ViewLease lease) {
    return lease == null ? b : LeasedBuffers.of(b, lease);
  }

  private static LongDataBuffer leased(LongDataBuffer b, ViewLease lease) {
    return lease == null ? b : LeasedBuffers.of(b, lease);
  }

  private static ShortDataBuffer leased(ShortDataBuffer b, ViewLease lease) {
    return lease == null ? b : LeasedBuffers.of(b, lease);
  }

  private static ByteDataBuffer leased(ByteDataBuffer b, ViewLease lease) {
    return lease == null ? b : LeasedBuffers.of(b, lease);
  }

  /**
   * Copies {@code src}, whose elements are of this dtype, into {@code dst} (C order, native byte
   * order, exactly {@code src.size()} elements). A dense array-backed {@code src} is one bulk copy.
   */
  public void toBytes(NdArray<?> src, ByteBuffer dst) {
    int n = Math.toIntExact(src.shape().size());
    ByteBuffer b = dst.duplicate().order(ByteOrder.nativeOrder());
    b.rewind();
    checkSize(b, src.shape());
    switch (this) {
      case FLOAT32:
        ((FloatNdArray) src).copyTo(DataBuffers.of(b.asFloatBuffer()));
        return;
      case FLOAT64:
        ((DoubleNdArray) src).copyTo(DataBuffers.of(b.asDoubleBuffer()));
        return;
      case FLOAT16:
      case BFLOAT16:
        {
          short[] bits = new short[n];
          ((FloatNdArray) src).copyTo(layout(bits));
          b.asShortBuffer().put(bits);
          return;
        }
      case INT32:
        ((IntNdArray) src).copyTo(DataBuffers.of(b.asIntBuffer()));
        return;
      case INT64:
        ((LongNdArray) src).copyTo(DataBuffers.of(b.asLongBuffer()));
        return;
      case INT8:
      case UINT8:
        ((ByteNdArray) src).copyTo(DataBuffers.of(b.slice()));
        return;
      case INT16:
      case UINT16:
        ((ShortNdArray) src).copyTo(DataBuffers.of(b.asShortBuffer()));
        return;
      case BOOL:
        {
          byte[] a = new byte[n];
          ((BooleanNdArray) src).copyTo(DataLayouts.BOOL.applyTo(DataBuffers.of(a, false, false)));
          b.put(a);
          return;
        }
      default:
        throw new IllegalArgumentException("a " + numpy + " NdArray has no byte layout");
    }
  }

  private void checkSize(ByteBuffer b, Shape shape) {
    long want = shape.size() * itemSize;
    if (b.remaining() != want) {
      throw new IllegalArgumentException(
          "a "
              + numpy
              + " array of shape "
              + shape
              + " needs "
              + want
              + " bytes, got "
              + b.remaining());
    }
  }

  private org.tensorflow.ndarray.buffer.FloatDataBuffer layout(short[] bits) {
    return (this == FLOAT16 ? DataLayouts.FLOAT16 : DataLayouts.BFLOAT16)
        .applyTo(DataBuffers.of(bits, false, false));
  }

  private NdArray<?> halves(short[] bits, Shape shape) {
    return tag(NdArrays.wrap(shape, layout(bits)));
  }

  /**
   * A new heap array of this dtype holding {@code src} (of dtype {@code from}) converted as numpy's
   * {@code src.astype(this)} on x86-64 (see the class doc); a copy even when {@code from} is this
   * dtype.
   *
   * @throws IllegalArgumentException strings to or from anything else
   */
  public NdArray<?> cast(NdArray<?> src, DType from) {
    if ((this == STRING) != (from == STRING)) {
      throw new IllegalArgumentException("cannot convert " + from.numpy + " to " + numpy);
    }
    Shape shape = src.shape();
    if (this == STRING) {
      NdArray<byte[]> out = NdArrays.ofObjects(byte[].class, shape);
      @SuppressWarnings("unchecked")
      NdArray<Object> objects = (NdArray<Object>) src;
      java.util.Iterator<? extends NdArray<Object>> in = objects.scalars().iterator();
      for (NdArray<byte[]> to : out.scalars()) {
        Object v = in.next().getObject();
        to.setObject(
            v instanceof String
                ? ((String) v).getBytes(java.nio.charset.StandardCharsets.UTF_8)
                : (byte[]) v);
      }
      return out;
    }
    return from.kind == Kind.FLOAT
        ? fromDoubles(NumpyCasts.doubles(src, from), shape)
        : fromLongs(NumpyCasts.longs(src, from), shape);
  }

  private NdArray<?> fromDoubles(double[] v, Shape shape) {
    int n = v.length;
    switch (this) {
      case FLOAT64:
        return NdArrays.wrap(shape, DataBuffers.of(v.clone(), false, false));
      case FLOAT32:
        {
          float[] a = new float[n];
          for (int i = 0; i < n; i++) {
            a[i] = (float) v[i];
          }
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      case FLOAT16:
      case BFLOAT16:
        {
          short[] bits = new short[n];
          for (int i = 0; i < n; i++) {
            bits[i] =
                this == FLOAT16 ? NumpyCasts.halfBits(v[i]) : NumpyCasts.bfloat16Bits((float) v[i]);
          }
          return halves(bits, shape);
        }
      case BOOL:
        {
          boolean[] a = new boolean[n];
          for (int i = 0; i < n; i++) {
            a[i] = v[i] != 0 || Double.isNaN(v[i]);
          }
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      default:
        {
          long[] t = new long[n];
          for (int i = 0; i < n; i++) {
            t[i] = this == INT64 ? NumpyCasts.toInt64(v[i]) : NumpyCasts.toInt32(v[i]);
          }
          return fromLongs(t, shape);
        }
    }
  }

  private NdArray<?> fromLongs(long[] v, Shape shape) {
    int n = v.length;
    switch (this) {
      case INT64:
        return NdArrays.wrap(shape, DataBuffers.of(v.clone(), false, false));
      case INT32:
        {
          int[] a = new int[n];
          for (int i = 0; i < n; i++) {
            a[i] = (int) v[i];
          }
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      case INT16:
      case UINT16:
        {
          short[] a = new short[n];
          for (int i = 0; i < n; i++) {
            a[i] = (short) v[i];
          }
          return tag(NdArrays.wrap(shape, DataBuffers.of(a, false, false)));
        }
      case INT8:
      case UINT8:
        {
          byte[] a = new byte[n];
          for (int i = 0; i < n; i++) {
            a[i] = (byte) v[i];
          }
          return tag(NdArrays.wrap(shape, DataBuffers.of(a, false, false)));
        }
      case BOOL:
        {
          boolean[] a = new boolean[n];
          for (int i = 0; i < n; i++) {
            a[i] = v[i] != 0;
          }
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      case FLOAT64:
        {
          double[] a = new double[n];
          for (int i = 0; i < n; i++) {
            a[i] = (double) v[i];
          }
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      case FLOAT32:
        {
          float[] a = new float[n];
          for (int i = 0; i < n; i++) {
            a[i] = (float) v[i];
          }
          return NdArrays.wrap(shape, DataBuffers.of(a, false, false));
        }
      default: // FLOAT16, BFLOAT16: integers above 2^53 are infinite in float16 anyway
        {
          short[] bits = new short[n];
          for (int i = 0; i < n; i++) {
            bits[i] =
                this == FLOAT16
                    ? NumpyCasts.halfBits((double) v[i])
                    : NumpyCasts.bfloat16Bits((float) v[i]);
          }
          return halves(bits, shape);
        }
    }
  }

  @Override
  public String toString() {
    return numpy.toLowerCase(Locale.ROOT);
  }
}
