package org.jhooks.bridge;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.jhooks.ndarray.DType;
import org.junit.Test;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;

public class NumpyArraysTest {

  private static ByteBuffer bytes(int n) {
    return ByteBuffer.allocateDirect(n).order(ByteOrder.nativeOrder());
  }

  @Test
  public void everyNumericDtypeRoundTripsThroughBuffersWithItsTag() {
    String[] dtypes = {
      "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "bool"
    };
    for (String dtype : dtypes) {
      int n = 6;
      ByteBuffer in = bytes(n * DType.ofNumpy(dtype).itemSize());
      for (int i = 0; i < in.capacity(); i++) {
        in.put(i, dtype.equals("bool") ? (byte) (i % 2) : (byte) (i * 7 + 1));
      }
      if (dtype.equals("float16")) { // keep to finite halves: exponent bits below all-ones
        for (int i = 1; i < in.capacity(); i += 2) {
          in.put(i, (byte) 0x3c);
        }
      }
      NdArray<?> a = NumpyArrays.fromBuffer(in, dtype, new long[] {2, 3});
      assertEquals(dtype, NumpyArrays.dtype(a));
      assertEquals(Shape.of(2, 3), a.shape());
      ByteBuffer out = bytes(in.capacity());
      NumpyArrays.copyToBuffer(a, out);
      assertEquals(dtype, in.rewind(), out.rewind());
    }
  }

  @Test
  public void float16IsTensorflowJavasHalfLayout() {
    ByteBuffer in = bytes(2);
    in.putShort(0, (short) 0x3c00); // 1.0 in IEEE half
    NdArray<?> a = NumpyArrays.fromBuffer(in, "float16", new long[0]);
    assertTrue(a instanceof FloatNdArray);
    assertEquals(1.0f, ((FloatNdArray) a).getFloat(), 0f);
  }

  @Test
  public void untaggedArraysGetTheirFamilysTensorflowJavaType() {
    assertEquals("uint8", NumpyArrays.dtype(NdArrays.ofBytes(Shape.of(2))));
    assertEquals("uint16", NumpyArrays.dtype(NdArrays.ofShorts(Shape.of(2))));
    assertEquals("int64", NumpyArrays.dtype(NdArrays.ofLongs(Shape.of(2))));
    assertEquals("string", NumpyArrays.dtype(NdArrays.vectorOfObjects("a", "b")));
  }

  @Test
  public void stringsStayTheirBytesAndJavaStringsGoOutAsUtf8() {
    byte[][] utf8 = {"héllo".getBytes(StandardCharsets.UTF_8), new byte[0]};
    NdArray<?> s = NumpyArrays.fromStrings(utf8, new long[] {2});
    assertArrayEquals(utf8[0], (byte[]) s.getObject(0));
    assertArrayEquals(utf8[0], NumpyArrays.toStrings(s)[0]);
    assertArrayEquals(utf8[0], NumpyArrays.toStrings(NdArrays.vectorOfObjects("héllo"))[0]);
    byte[][] binary = {{(byte) 0xff, 0}};
    NdArray<?> b = NumpyArrays.fromStrings(binary, new long[] {1});
    assertArrayEquals(binary[0], (byte[]) b.getObject(0));
    assertArrayEquals(binary[0], NumpyArrays.toStrings(b)[0]);
  }

  @Test(expected = IllegalArgumentException.class)
  public void aBufferOfTheWrongSizeIsRefused() {
    NumpyArrays.fromBuffer(bytes(8), "float32", new long[] {3});
  }
}
