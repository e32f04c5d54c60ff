package org.jhooks.tf.types;

import org.bytedeco.javacpp.PointerScope;
import org.tensorflow.RawTensor;
import org.tensorflow.SparseTensor;
import org.tensorflow.TensorMapper;
import org.tensorflow.internal.buffer.TensorBuffers;
import org.tensorflow.ndarray.buffer.ByteDataBuffer;
import org.tensorflow.ndarray.impl.dense.ByteDenseNdArray;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.TInt64;

/**
 * Maps the memory of a {@code DT_INT8} tensor as a {@link TInt8}, as tensorflow-java does for its
 * types.
 */
public final class TInt8Mapper extends TensorMapper<TInt8> {
  @Override
  protected TInt8 mapDense(RawTensor tensor) {
    return new Dense(tensor, TensorBuffers.toBytes(nativeHandle(tensor)));
  }

  /**
   * @throws UnsupportedOperationException always: jhooks never makes sparse DT_INT8 tensors
   */
  @Override
  protected SparseTensor<TInt8> mapSparse(
      TInt64 indices, TInt8 values, TInt64 denseShape, PointerScope tensorScope) {
    throw new UnsupportedOperationException("sparse DT_INT8 tensors are not supported");
  }

  private static final class Dense extends ByteDenseNdArray implements TInt8 {
    private final RawTensor rawTensor;

    Dense(RawTensor rawTensor, ByteDataBuffer buffer) {
      super(buffer, rawTensor.shape());
      this.rawTensor = rawTensor;
    }

    @Override
    public Class<TInt8> type() {
      return TInt8.class;
    }

    @Override
    public DataType dataType() {
      return asRawTensor().dataType();
    }

    @Override
    public long numBytes() {
      return asRawTensor().numBytes();
    }

    @Override
    public void close() {
      asRawTensor().close();
    }

    @Override
    public RawTensor asRawTensor() {
      return rawTensor;
    }
  }
}
