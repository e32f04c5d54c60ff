package org.jhooks.bridge;

import org.jhooks.ndarray.DTypeTags;
import org.tensorflow.ndarray.BooleanNdArray;
import org.tensorflow.ndarray.ByteNdArray;
import org.tensorflow.ndarray.DoubleNdArray;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.IntNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.ShortNdArray;
import org.tensorflow.types.family.TType;

/**
 * The numpy dtype name of an {@link NdArray}: {@code float16}, {@code float32}, {@code float64},
 * {@code bfloat16} (ml_dtypes), {@code int8}, {@code int16}, {@code int32}, {@code int64},
 * {@code uint8}, {@code uint16}, {@code bool}, {@code string}.
 *
 * <p>A heap NdArray does not know its TensorFlow dtype (a {@code ByteNdArray} may hold int8 or
 * uint8), so arrays built by the bridge are tagged ({@link DTypeTags}, weakly, by identity),
 * tensors answer with their {@code dataType()}, and anything else gets its family's default: the
 * only tensorflow-java type of that family ({@code ByteNdArray} uint8, {@code ShortNdArray}
 * uint16). The JVM driver tags its heap copies of float16 and bfloat16 tensors ({@code
 * org.jhooks.tf.Values#copyOf}), so Python sees float16 / bfloat16 (ml_dtypes).
 * See docs/bridge.md, "Arrays".
 */
public final class DTypes {
  private DTypes() {}

  /** Records that {@code array} holds values of numpy dtype {@code dtype}; returns {@code array}. */
  public static <A extends NdArray<?>> A tag(A array, String dtype) {
    return DTypeTags.tag(array, dtype);
  }

  /** The numpy dtype name of {@code array}. */
  public static String of(NdArray<?> array) {
    if (array instanceof TType) {
      return fromTensorFlow(((TType) array).dataType().name());
    }
    String tagged = DTypeTags.tagOf(array);
    if (tagged != null) {
      return tagged;
    }
    if (array instanceof FloatNdArray) {
      return "float32";
    } else if (array instanceof DoubleNdArray) {
      return "float64";
    } else if (array instanceof IntNdArray) {
      return "int32";
    } else if (array instanceof LongNdArray) {
      return "int64";
    } else if (array instanceof ByteNdArray) {
      return "uint8";
    } else if (array instanceof ShortNdArray) {
      return "uint16";
    } else if (array instanceof BooleanNdArray) {
      return "bool";
    }
    Object first = array.shape().size() == 0 ? null : array.scalars().iterator().next().getObject();
    if (first == null || first instanceof String || first instanceof byte[]) {
      return "string";
    }
    throw new IllegalArgumentException(
        "an NdArray of " + first.getClass().getName() + " has no numpy dtype; use a numeric, boolean or"
            + " String NdArray");
  }

  /** {@code DT_FLOAT} and friends to numpy names. */
  static String fromTensorFlow(String dataType) {
    switch (dataType) {
      case "DT_HALF":
        return "float16";
      case "DT_BFLOAT16":
        return "bfloat16"; // ml_dtypes.bfloat16, which TensorFlow's numpy results use
      case "DT_FLOAT":
        return "float32";
      case "DT_DOUBLE":
        return "float64";
      case "DT_INT8":
        return "int8";
      case "DT_INT16":
        return "int16";
      case "DT_INT32":
        return "int32";
      case "DT_INT64":
        return "int64";
      case "DT_UINT8":
        return "uint8";
      case "DT_UINT16":
        return "uint16";
      case "DT_BOOL":
        return "bool";
      case "DT_STRING":
        return "string";
      default:
        throw new IllegalArgumentException("tensor dtype " + dataType + " has no numpy twin in jhooks");
    }
  }
}
