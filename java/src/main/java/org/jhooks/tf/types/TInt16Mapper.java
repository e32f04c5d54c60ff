package org.jhooks.tf.types;

import org.bytedeco.javacpp.PointerScope;
import org.tensorflow.RawTensor;
import org.tensorflow.SparseTensor;
import org.tensorflow.TensorMapper;
import org.tensorflow.internal.buffer.TensorBuffers;
import org.tensorflow.ndarray.buffer.ShortDataBuffer;
import org.tensorflow.ndarray.impl.dense.ShortDenseNdArray;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.TInt64;

/**
 * Maps the memory of a {@code DT_INT16} tensor as a {@link TInt16}, as tensorflow-java does for its
 * types.
 */
public final class TInt16Mapper extends TensorMapper<TInt16> {
  @Override
  protected TInt16 mapDense(RawTensor tensor) {
    return new Dense(tensor, TensorBuffers.toShorts(nativeHandle(tensor)));
  }

  /**
   * @throws UnsupportedOperationException always: jhooks never makes sparse DT_INT16 tensors
   */
  @Override
  protected SparseTensor<TInt16> mapSparse(
      TInt64 indices, TInt16 values, TInt64 denseShape, PointerScope tensorScope) {
    throw new UnsupportedOperationException("sparse DT_INT16 tensors are not supported");
  }

  private static final class Dense extends ShortDenseNdArray implements TInt16 {
    private final RawTensor rawTensor;

    Dense(RawTensor rawTensor, ShortDataBuffer buffer) {
      super(buffer, rawTensor.shape());
      this.rawTensor = rawTensor;
    }

    @Override
    public Class<TInt16> type() {
      return TInt16.class;
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
