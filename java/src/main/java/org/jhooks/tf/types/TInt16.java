package org.jhooks.tf.types;

import org.tensorflow.ndarray.ShortNdArray;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.annotation.TensorType;
import org.tensorflow.types.family.TIntegral;

/**
 * 16-bit signed integer tensors ({@code DT_INT16}), which tensorflow-java 1.1 has no type for: a
 * {@code ShortNdArray} over the tensor's memory, like {@code TUint16}. Registered with
 * tensorflow-java by {@link TensorTypes#register()}, so runs can fetch and feed DT_INT16 tensors;
 * the JVM driver does that before its first run.
 */
@TensorType(dataType = DataType.DT_INT16, byteSize = 2, mapperClass = TInt16Mapper.class)
public interface TInt16 extends ShortNdArray, TIntegral {}
