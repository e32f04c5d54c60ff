package org.jhooks.ndarray;

import org.tensorflow.ndarray.BooleanNdArray;
import org.tensorflow.ndarray.ByteNdArray;
import org.tensorflow.ndarray.DoubleNdArray;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.IntNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.ShortNdArray;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * The element rules of {@link DType#cast}: numpy's {@code astype} on x86-64, checked against numpy
 * itself over a grid of values ({@code tests/bridge/test_dtype_casts.py}).
 */
final class NumpyCasts {
  private NumpyCasts() {}

  /** The values of {@code src} (a float dtype {@code from}), exactly, as doubles. */
  static double[] doubles(NdArray<?> src, DType from) {
    int n = Math.toIntExact(src.shape().size());
    double[] out = new double[n];
    if (from == DType.FLOAT64) {
      ((DoubleNdArray) src).copyTo(DataBuffers.of(out, false, false));
      return out;
    }
    float[] f = new float[n];
    ((FloatNdArray) src).copyTo(DataBuffers.of(f, false, false));
    for (int i = 0; i < n; i++) {
      out[i] = f[i];
    }
    return out;
  }

  /**
   * The values of {@code src} (an integer or bool dtype {@code from}), exactly, as longs: signed
   * ones sign-extended, unsigned ones zero-extended (a uint8 255 is 255, never -1), bool 0 or 1.
   */
  static long[] longs(NdArray<?> src, DType from) {
    int n = Math.toIntExact(src.shape().size());
    long[] out = new long[n];
    switch (from) {
      case INT8:
      case UINT8:
        {
          byte[] a = new byte[n];
          ((ByteNdArray) src).copyTo(DataBuffers.of(a, false, false));
          for (int i = 0; i < n; i++) {
            out[i] = from == DType.UINT8 ? a[i] & 0xFFL : a[i];
          }
          return out;
        }
      case INT16:
      case UINT16:
        {
          short[] a = new short[n];
          ((ShortNdArray) src).copyTo(DataBuffers.of(a, false, false));
          for (int i = 0; i < n; i++) {
            out[i] = from == DType.UINT16 ? a[i] & 0xFFFFL : a[i];
          }
          return out;
        }
      case INT32:
        {
          int[] a = new int[n];
          ((IntNdArray) src).copyTo(DataBuffers.of(a, false, false));
          for (int i = 0; i < n; i++) {
            out[i] = a[i];
          }
          return out;
        }
      case INT64:
        ((LongNdArray) src).copyTo(DataBuffers.of(out, false, false));
        return out;
      case BOOL:
        {
          boolean[] a = new boolean[n];
          ((BooleanNdArray) src).copyTo(DataBuffers.of(a, false, false));
          for (int i = 0; i < n; i++) {
            out[i] = a[i] ? 1 : 0;
          }
          return out;
        }
      default:
        throw new IllegalArgumentException(from + " is not an integer or bool dtype");
    }
  }

  /**
   * A float converted to int64 as x86-64's {@code cvttsd2si} does (what numpy's C cast compiles
   * to): truncated toward zero; NaN and values outside int64 give the minimum, -2^63.
   */
  static long toInt64(double d) {
    return d >= -0x1p63 && d < 0x1p63 ? (long) d : Long.MIN_VALUE;
  }

  /**
   * A float converted to int32 as x86-64's 32-bit {@code cvttsd2si} does: truncated; NaN and values
   * outside int32 give -2^31. numpy converts floats to int8/int16/uint8/uint16 through this and
   * then keeps the low bits, so callers wrap the result.
   */
  static long toInt32(double d) {
    return d > -2147483649.0 && d < 2147483648.0 ? (long) d : Integer.MIN_VALUE;
  }

  /**
   * The IEEE half-precision bits nearest to {@code d} (ties to even), rounded once from the double
   * as numpy's {@code npy_double_to_half}: overflow to infinity, subnormals, NaN kept (quiet).
   */
  static short halfBits(double d) {
    int sign = (Double.doubleToRawLongBits(d) >>> 63) != 0 ? 0x8000 : 0;
    double a = Math.abs(d);
    if (Double.isNaN(d)) {
      return (short) (sign | 0x7e00);
    }
    if (a >= 65520.0) { // halfway between 65504 (the largest half) and 65536 rounds to infinity
      return (short) (sign | 0x7c00);
    }
    if (a < 0x1p-14) { // subnormal (or zero): units of 2^-24, scaled exactly, rounded once
      return (short) (sign | (int) Math.rint(a * 0x1p24));
    }
    int exponent = Math.getExponent(a);
    double mantissa = Math.rint(Math.scalb(a, 10 - exponent)); // in [1024, 2048]
    if (mantissa == 2048) {
      mantissa = 1024;
      exponent++;
    }
    return (short) (sign | ((exponent + 15) << 10) | ((int) mantissa - 1024));
  }

  /** The bfloat16 bits nearest to {@code f} (ties to even; NaN quiet), as ml_dtypes. */
  static short bfloat16Bits(float f) {
    int bits = Float.floatToRawIntBits(f);
    if (Float.isNaN(f)) {
      return (short) ((bits >>> 16) | 0x40);
    }
    bits += 0x7FFF + ((bits >>> 16) & 1);
    return (short) (bits >>> 16);
  }
}
