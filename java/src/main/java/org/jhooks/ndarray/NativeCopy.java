package org.jhooks.ndarray;

import java.nio.ByteBuffer;
import org.bytedeco.javacpp.Pointer;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.buffer.ByteDataBuffer;
import org.tensorflow.ndarray.impl.buffer.raw.RawDataBufferFactory;

/**
 * Bulk copies from a tensor's native memory into a direct buffer (one {@code memcpy}):
 * tensorflow-ndarray copies raw memory to an NIO buffer element by element, about thirty times
 * slower. Needs JavaCPP's natives (loaded with TensorFlow's).
 */
final class NativeCopy extends RawDataBufferFactory {
  private NativeCopy() {}

  /** Copies all of {@code tensor}'s bytes into {@code dst} (exactly as many bytes). */
  static void copy(Tensor tensor, ByteBuffer dst) {
    long n = tensor.numBytes();
    if (dst.capacity() != n) {
      throw new IllegalArgumentException(
          "a tensor of " + n + " bytes cannot fill a buffer of " + dst.capacity());
    }
    ByteDataBuffer target = mapNativeBytes(new Pointer(dst).address(), n, false);
    tensor.asRawTensor().data().copyTo(target, n);
  }
}
