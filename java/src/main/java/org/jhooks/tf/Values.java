package org.jhooks.tf;

import java.util.Iterator;
import java.util.List;
import org.jhooks.ndarray.DTypeTags;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.BooleanNdArray;
import org.tensorflow.ndarray.ByteNdArray;
import org.tensorflow.ndarray.DoubleNdArray;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.IntNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.ShortNdArray;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.TBfloat16;
import org.tensorflow.types.TBool;
import org.tensorflow.types.TFloat16;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TFloat64;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.TUint16;
import org.tensorflow.types.TUint8;
import org.tensorflow.types.family.TType;

/**
 * Copies between native tensors and heap {@link NdArray}s, preserving the shape.
 *
 * <p>dtype to heap type: float32, float16, bfloat16 → {@link FloatNdArray} (float16 and bfloat16
 * copies tagged in {@link DTypeTags}, so the bridge hands Python float16 / bfloat16); float64 → {@link
 * DoubleNdArray}; int32 → {@link IntNdArray}; int64 → {@link LongNdArray}; uint8 → {@link
 * ByteNdArray}; uint16 → {@link ShortNdArray}; bool → {@link BooleanNdArray}; string → {@code
 * NdArray<byte[]>} (the bytes as stored: serialized protos and non-UTF-8 data stay intact). Other
 * dtypes raise {@link IllegalArgumentException}. See {@code
 * docs/contract.md}, "Values and ownership".
 */
public final class Values {
  private static final String FLOAT16 = "float16";
  private static final String BFLOAT16 = "bfloat16";

  private Values() {}

  /**
   * A heap copy of {@code tensor}; valid after the tensor is closed.
   *
   * @throws IllegalArgumentException the dtype is not one of those listed in the class doc
   */
  @SuppressWarnings("unchecked")
  public static NdArray<?> copyOf(Tensor tensor) {
    DataType dtype = tensor.dataType();
    switch (dtype) {
      case DT_FLOAT:
        return copy((FloatNdArray) tensor, NdArrays.ofFloats(tensor.shape()));
      case DT_HALF:
        return DTypeTags.tag(copy((FloatNdArray) tensor, NdArrays.ofFloats(tensor.shape())), FLOAT16);
      case DT_BFLOAT16:
        return DTypeTags.tag(copy((FloatNdArray) tensor, NdArrays.ofFloats(tensor.shape())), BFLOAT16);
      case DT_DOUBLE:
        return copy((DoubleNdArray) tensor, NdArrays.ofDoubles(tensor.shape()));
      case DT_INT32:
        return copy((IntNdArray) tensor, NdArrays.ofInts(tensor.shape()));
      case DT_INT64:
        return copy((LongNdArray) tensor, NdArrays.ofLongs(tensor.shape()));
      case DT_UINT8:
        return copy((ByteNdArray) tensor, NdArrays.ofBytes(tensor.shape()));
      case DT_UINT16:
        return copy((ShortNdArray) tensor, NdArrays.ofShorts(tensor.shape()));
      case DT_BOOL:
        return copy((BooleanNdArray) tensor, NdArrays.ofBooleans(tensor.shape()));
      case DT_STRING:
        return copy(((TString) tensor).asBytes(), NdArrays.ofObjects(byte[].class, tensor.shape()));
      default:
        throw new IllegalArgumentException("cannot copy a tensor of dtype " + dtype + " to the heap");
    }
  }

  private static <T, A extends NdArray<T>> A copy(NdArray<T> from, A to) {
    from.copyTo(to); // copyTo returns the source, not the destination
    return to;
  }

  /**
   * A new tensor of {@code dtype} holding a copy of {@code value}; the caller closes it.
   *
   * @param dtype the dtype of the graph endpoint being fed
   * @throws IllegalArgumentException the value's element type does not match {@code dtype} (for
   *     example a {@link LongNdArray} for a float32 placeholder)
   */
  @SuppressWarnings("unchecked")
  public static Tensor tensorOf(DataType dtype, NdArray<?> value) {
    value = castNumeric(dtype, value);
    try {
      switch (dtype) {
        case DT_FLOAT:
          return TFloat32.tensorOf((NdArray<Float>) check(value, FloatNdArray.class, dtype));
        case DT_HALF:
          return TFloat16.tensorOf((NdArray<Float>) check(value, FloatNdArray.class, dtype));
        case DT_BFLOAT16:
          return TBfloat16.tensorOf((NdArray<Float>) check(value, FloatNdArray.class, dtype));
        case DT_DOUBLE:
          return TFloat64.tensorOf((NdArray<Double>) check(value, DoubleNdArray.class, dtype));
        case DT_INT32:
          return TInt32.tensorOf((NdArray<Integer>) check(value, IntNdArray.class, dtype));
        case DT_INT64:
          return TInt64.tensorOf((NdArray<Long>) check(value, LongNdArray.class, dtype));
        case DT_UINT8:
          return TUint8.tensorOf((NdArray<Byte>) check(value, ByteNdArray.class, dtype));
        case DT_UINT16:
          return TUint16.tensorOf((NdArray<Short>) check(value, ShortNdArray.class, dtype));
        case DT_BOOL:
          return TBool.tensorOf((NdArray<Boolean>) check(value, BooleanNdArray.class, dtype));
        case DT_STRING:
          return isBytes(value)
              ? TString.tensorOfBytes((NdArray<byte[]>) value)
              : TString.tensorOf((NdArray<String>) value);
        default:
          throw new IllegalArgumentException("cannot feed dtype " + dtype);
      }
    } catch (ClassCastException e) {
      throw new IllegalArgumentException("cannot feed " + describe(value) + " as " + dtype, e);
    }
  }

  /**
   * The dtype a heap value is written as when no graph endpoint says: the reverse of {@link
   * #copyOf} (a {@link FloatNdArray} is float32 unless tagged float16 / bfloat16 in {@link
   * DTypeTags}); {@code NdArray<String>} and {@code NdArray<byte[]>} are string.
   *
   * @throws IllegalArgumentException any other element type
   */
  public static DataType dtypeOf(NdArray<?> value) {
    if (value instanceof FloatNdArray) {
      String tag = DTypeTags.tagOf(value);
      return FLOAT16.equals(tag) ? DataType.DT_HALF : BFLOAT16.equals(tag) ? DataType.DT_BFLOAT16 : DataType.DT_FLOAT;
    } else if (value instanceof DoubleNdArray) {
      return DataType.DT_DOUBLE;
    } else if (value instanceof IntNdArray) {
      return DataType.DT_INT32;
    } else if (value instanceof LongNdArray) {
      return DataType.DT_INT64;
    } else if (value instanceof ByteNdArray) {
      return DataType.DT_UINT8;
    } else if (value instanceof ShortNdArray) {
      return DataType.DT_UINT16;
    } else if (value instanceof BooleanNdArray) {
      return DataType.DT_BOOL;
    }
    Object first = value.size() == 0 ? "" : value.scalars().iterator().next().getObject();
    if (first instanceof String || first instanceof byte[]) {
      return DataType.DT_STRING;
    }
    throw new IllegalArgumentException("no TensorFlow dtype for " + describe(value) + " of " + first);
  }

  /** A new tensor holding a copy of {@code value}, of dtype {@link #dtypeOf}; the caller closes it. */
  public static Tensor tensorOf(NdArray<?> value) {
    return tensorOf(dtypeOf(value), value);
  }

  private static boolean isBytes(NdArray<?> value) {
    return value.size() > 0 && value.scalars().iterator().next().getObject() instanceof byte[];
  }

  /** Whether {@code value} is already a native tensor (fed as is, not copied). */
  public static boolean isTensor(NdArray<?> value) {
    return value instanceof TType;
  }

  /**
   * Why {@link #tensorOf(DataType, NdArray)} would reject {@code value} for {@code dtype}, or
   * {@code null} when it accepts it.
   */
  public static String feedTypeProblem(DataType dtype, NdArray<?> value) {
    Class<?> expected = feedClass(dtype);
    if (expected == null || expected.isInstance(value) || castsNumerically(expected, value)) {
      return null;
    }
    return "cannot feed " + describe(value) + " as " + dtype + "; expected a " + expected.getSimpleName();
  }

  private static final List<Class<?>> NUMERIC =
      List.of(FloatNdArray.class, DoubleNdArray.class, IntNdArray.class, LongNdArray.class, ByteNdArray.class,
          ShortNdArray.class);

  private static boolean castsNumerically(Class<?> expected, NdArray<?> value) {
    return NUMERIC.contains(expected) && NUMERIC.stream().anyMatch(c -> c.isInstance(value));
  }

  /**
   * A numeric value of another element type converted to the one {@code dtype} needs, as
   * TensorFlow's Python session does with {@code np.asarray(value, dtype)} (floats to integers
   * truncate); any other value unchanged. Element by element: a value of the right type is cheaper.
   */
  @SuppressWarnings("unchecked")
  private static NdArray<?> castNumeric(DataType dtype, NdArray<?> value) {
    Class<?> expected = feedClass(dtype);
    if (expected == null || expected.isInstance(value) || !castsNumerically(expected, value)) {
      return value;
    }
    NdArray<Object> out;
    if (expected == FloatNdArray.class) {
      out = (NdArray<Object>) (NdArray<?>) NdArrays.ofFloats(value.shape());
    } else if (expected == DoubleNdArray.class) {
      out = (NdArray<Object>) (NdArray<?>) NdArrays.ofDoubles(value.shape());
    } else if (expected == IntNdArray.class) {
      out = (NdArray<Object>) (NdArray<?>) NdArrays.ofInts(value.shape());
    } else if (expected == LongNdArray.class) {
      out = (NdArray<Object>) (NdArray<?>) NdArrays.ofLongs(value.shape());
    } else if (expected == ByteNdArray.class) {
      out = (NdArray<Object>) (NdArray<?>) NdArrays.ofBytes(value.shape());
    } else {
      out = (NdArray<Object>) (NdArray<?>) NdArrays.ofShorts(value.shape());
    }
    Iterator<? extends NdArray<?>> from = value.scalars().iterator();
    for (NdArray<Object> to : out.scalars()) {
      Number n = (Number) from.next().getObject();
      to.setObject(expected == FloatNdArray.class ? (Object) n.floatValue()
          : expected == DoubleNdArray.class ? (Object) n.doubleValue()
          : expected == IntNdArray.class ? (Object) n.intValue()
          : expected == LongNdArray.class ? (Object) n.longValue()
          : expected == ByteNdArray.class ? (Object) n.byteValue()
          : (Object) n.shortValue());
    }
    return out;
  }

  private static Class<?> feedClass(DataType dtype) {
    switch (dtype) {
      case DT_FLOAT:
      case DT_HALF:
      case DT_BFLOAT16:
        return FloatNdArray.class;
      case DT_DOUBLE:
        return DoubleNdArray.class;
      case DT_INT32:
        return IntNdArray.class;
      case DT_INT64:
        return LongNdArray.class;
      case DT_UINT8:
        return ByteNdArray.class;
      case DT_UINT16:
        return ShortNdArray.class;
      case DT_BOOL:
        return BooleanNdArray.class;
      default:
        return null;
    }
  }

  private static NdArray<?> check(NdArray<?> value, Class<?> expected, DataType dtype) {
    if (!expected.isInstance(value)) {
      throw new IllegalArgumentException(
          "cannot feed " + describe(value) + " as " + dtype + "; expected a " + expected.getSimpleName());
    }
    return value;
  }

  private static String describe(NdArray<?> value) {
    return value.getClass().getSimpleName() + " of shape " + value.shape();
  }
}
