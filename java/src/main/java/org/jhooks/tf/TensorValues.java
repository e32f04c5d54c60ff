package org.jhooks.tf;

import org.jhooks.ndarray.DType;
import org.jhooks.ndarray.DirectValues;
import org.jhooks.tf.types.TensorTypes;
import org.tensorflow.Tensor;
import org.tensorflow.internal.types.registry.TensorTypeRegistry;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TType;

/**
 * Copies between native tensors and heap {@link NdArray}s, preserving the shape, for every dtype of
 * {@link DType} (the one dtype table): float16, bfloat16, float32, float64, int8, int16, int32,
 * int64, uint8, uint16, bool and string. Heap copies are the dtype's heap family, tagged when the
 * family holds several dtypes (an int8 copy is a tagged {@code ByteNdArray}), so the bridge hands
 * Python the tensor's own dtype; strings are {@code NdArray<byte[]>} of the bytes as stored
 * (serialized protos and non-UTF-8 data stay intact). int8 and int16, which tensorflow-java 1.1
 * lacks, are {@link org.jhooks.tf.types.TInt8} / {@link org.jhooks.tf.types.TInt16}. See {@code
 * docs/contract.md}, "Values and ownership".
 */
public final class TensorValues {
  private TensorValues() {}

  static {
    TensorTypes.register();
  }

  /**
   * The dtype of {@code value}: a tensor's own, else {@link DType#of} (tag or family default).
   *
   * @throws IllegalArgumentException a tensor of a dtype jhooks does not support, or an array of
   *     objects other than String or byte[]
   */
  public static DType dtype(NdArray<?> value) {
    if (value instanceof TType) {
      DataType dataType = ((TType) value).dataType();
      DType d = DType.ofTensorFlow(dataType.getNumber());
      if (d == null) {
        throw new IllegalArgumentException(unsupported(dataType));
      }
      return d;
    }
    return DType.of(value);
  }

  /**
   * The one element of a numeric {@code value} as a {@code double}, as numpy's {@code
   * float(value)}: by the value's own dtype ({@link #dtype}), so a uint8 240 or a uint16 48000 is
   * that number (a {@code ByteNdArray} / {@code ShortNdArray} element read as a {@link Number}
   * would be negative), float16 and bfloat16 decoded; {@code null} when {@code value} does not hold
   * exactly one element or is not of a numeric dtype (bool, strings).
   */
  public static Double scalarAsDouble(NdArray<?> value) {
    if (value == null || value.size() != 1) {
      return null;
    }
    DType d;
    try {
      d = dtype(value);
    } catch (IllegalArgumentException e) {
      return null; // not a dtype jhooks knows: not a number it reads
    }
    if (!d.isNumeric()) {
      return null;
    }
    return (Double) DType.FLOAT64.cast(value, d).scalars().iterator().next().getObject();
  }

  /**
   * Why jhooks cannot copy or feed tensors of {@code dataType}, or {@code null} when it can. The
   * JVM driver checks every fetch and feed with it before a run, so a hook asking for one gets an
   * error naming it, the tensor and the dtype instead of a failure inside tensorflow-java.
   */
  public static String dtypeProblem(DataType dataType) {
    if (dataType == DataType.DT_RESOURCE) {
      return null; // tensorflow-java fetches a resource variable's value (a read op it adds)
    }
    DType d = DType.ofTensorFlow(dataType.getNumber());
    if (d == null) {
      return unsupported(dataType);
    }
    if ((d == DType.INT8 || d == DType.INT16) && !TensorTypes.register()) {
      return "dtype " + dataType + " has no tensorflow-java tensor type in this version";
    }
    return null;
  }

  private static String unsupported(DataType dataType) {
    return "dtype " + dataType + " is not one jhooks moves (" + DType.names() + ")";
  }

  /**
   * A copy of {@code tensor}, valid after the tensor is closed: on the heap, or for a large
   * float32/float64/int32/int64 value in direct memory ({@link DirectValues}), which a Python hook
   * then reads without a copy.
   *
   * @throws IllegalArgumentException a dtype {@link #dtypeProblem} refuses
   */
  @SuppressWarnings("unchecked")
  public static NdArray<?> copyOf(Tensor tensor) {
    DType d = dtype((NdArray<?>) tensor);
    if (d == DType.STRING) {
      NdArray<byte[]> out = (NdArray<byte[]>) d.allocate(tensor.shape());
      ((TString) tensor).asBytes().copyTo(out);
      return out;
    }
    if (DirectValues.wanted(d, tensor.shape())) {
      return DirectValues.copyOf(d, tensor);
    }
    NdArray<Object> out = (NdArray<Object>) d.allocate(tensor.shape());
    ((NdArray<Object>) tensor).copyTo(out);
    return out;
  }

  /**
   * A new tensor of {@code dataType} holding a copy of {@code value}, the caller closes it. A
   * numeric value of another dtype is converted as TensorFlow's Python session does ({@code
   * np.asarray(value, dtype)}, numpy's {@code astype}: see {@link DType#cast}).
   *
   * @param dataType the dtype of the graph endpoint being fed
   * @throws IllegalArgumentException the value cannot become {@code dataType} ({@link
   *     #feedTypeProblem} says why)
   */
  @SuppressWarnings("unchecked")
  public static Tensor tensorOf(DataType dataType, NdArray<?> value) {
    String problem = feedTypeProblem(dataType, value);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    DType target = DType.ofTensorFlow(dataType.getNumber());
    DType from = dtype(value);
    if (target == DType.STRING) {
      return isBytes(value)
          ? TString.tensorOfBytes((NdArray<byte[]>) value)
          : TString.tensorOf((NdArray<String>) value);
    }
    NdArray<?> source = from == target ? value : target.cast(value, from);
    return filled(TensorTypeRegistry.find(dataType).type(), source);
  }

  @SuppressWarnings("unchecked")
  private static <T extends TType> T filled(Class<T> type, NdArray<?> source) {
    return Tensor.of(
        type, source.shape(), t -> ((NdArray<Object>) source).copyTo((NdArray<Object>) t));
  }

  /** The dtype a heap value is written as when no graph endpoint says ({@link #dtype}). */
  public static DataType dtypeOf(NdArray<?> value) {
    return DataType.forNumber(dtype(value).tensorFlowCode());
  }

  /**
   * A new tensor holding a copy of {@code value}, of dtype {@link #dtypeOf}; the caller closes it.
   */
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
   * Why {@link #tensorOf(DataType, NdArray)} would reject {@code value} for {@code dataType}, or
   * {@code null} when it accepts it: a dtype {@link #dtypeProblem} refuses, or a value that is not
   * of the same kind (numbers convert to numbers; bool, strings only to themselves, as the
   * contract's feed rule says).
   */
  public static String feedTypeProblem(DataType dataType, NdArray<?> value) {
    String problem = dtypeProblem(dataType);
    if (problem != null) {
      return problem;
    }
    DType target = DType.ofTensorFlow(dataType.getNumber());
    DType from;
    try {
      from = dtype(value);
    } catch (IllegalArgumentException e) {
      return "cannot feed " + describe(value) + " as " + dataType + ": " + e.getMessage();
    }
    if (from == target || (from.isNumeric() && target.isNumeric())) {
      return null;
    }
    return "cannot feed "
        + describe(value)
        + " ("
        + from
        + ") as "
        + dataType
        + "; only numbers convert to other number types";
  }

  private static String describe(NdArray<?> value) {
    return value.getClass().getSimpleName() + " of shape " + value.shape();
  }
}
