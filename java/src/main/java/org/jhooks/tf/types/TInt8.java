package org.jhooks.tf.types;

import org.tensorflow.ndarray.ByteNdArray;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.annotation.TensorType;
import org.tensorflow.types.family.TIntegral;

/**
 * 8-bit signed integer tensors ({@code DT_INT8}), which tensorflow-java 1.1 has no type for: a
 * {@code ByteNdArray} over the tensor's memory, like {@code TUint8}. Registered with
 * tensorflow-java by {@link TensorTypes#register()}, so runs can fetch and feed DT_INT8 tensors;
 * the JVM driver does that before its first run.
 */
@TensorType(dataType = DataType.DT_INT8, byteSize = 1, mapperClass = TInt8Mapper.class)
public interface TInt8 extends ByteNdArray, TIntegral {}
