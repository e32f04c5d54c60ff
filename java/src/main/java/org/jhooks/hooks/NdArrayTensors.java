package org.jhooks.hooks;

import org.tensorflow.Tensor;
import org.tensorflow.ndarray.BooleanNdArray;
import org.tensorflow.ndarray.ByteNdArray;
import org.tensorflow.ndarray.DoubleNdArray;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.IntNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.types.TBool;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TFloat64;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.TUint8;

/**
 * Turns a heap {@link NdArray} (a value fetched through the session view) back into a native
 * tensor of the matching dtype: Float to float32, Double to float64, Integer to int32, Long to
 * int64, Boolean to bool, Byte to uint8, String or byte[] to string. Other element types are
 * refused (float16 and bfloat16 cannot be told apart from float32 once copied to the heap).
 */
final class NdArrayTensors {
  private NdArrayTensors() {}

  /** A new native tensor holding a copy of {@code value}; {@code name} is for error messages. */
  static Tensor toTensor(String name, NdArray<?> value) {
    return copyTyped(name, value, elementClass(value));
  }

  @SuppressWarnings("unchecked")
  private static Tensor copyTyped(String name, NdArray<?> v, Class<?> element) {
    if (element == Float.class) {
      return TFloat32.tensorOf((NdArray<Float>) v);
    } else if (element == Double.class) {
      return TFloat64.tensorOf((NdArray<Double>) v);
    } else if (element == Integer.class) {
      return TInt32.tensorOf((NdArray<Integer>) v);
    } else if (element == Long.class) {
      return TInt64.tensorOf((NdArray<Long>) v);
    } else if (element == Boolean.class) {
      return TBool.tensorOf((NdArray<Boolean>) v);
    } else if (element == Byte.class) {
      return TUint8.tensorOf((NdArray<Byte>) v);
    } else if (element == String.class) {
      return TString.tensorOf((NdArray<String>) v);
    } else if (element == byte[].class) {
      return TString.tensorOfBytes((NdArray<byte[]>) v);
    }
    throw new IllegalArgumentException(
        "cannot write variable '" + name + "': unsupported element type " + element + " of " + v.getClass().getName());
  }

  private static Class<?> elementClass(NdArray<?> v) {
    if (v instanceof FloatNdArray) {
      return Float.class;
    } else if (v instanceof DoubleNdArray) {
      return Double.class;
    } else if (v instanceof IntNdArray) {
      return Integer.class;
    } else if (v instanceof LongNdArray) {
      return Long.class;
    } else if (v instanceof BooleanNdArray) {
      return Boolean.class;
    } else if (v instanceof ByteNdArray) {
      return Byte.class;
    }
    if (v.size() == 0) {
      return String.class;
    }
    Object first = v.scalars().iterator().next().getObject();
    return first == null ? Object.class : first.getClass();
  }
}
