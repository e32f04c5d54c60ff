package org.jhooks.tf;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.StdArrays;
import org.tensorflow.proto.DataType;

public class TensorValuesTest {

  @Test
  public void everySupportedDtypeRoundTripsWithItsShape() {
    List<Object[]> cases =
        List.of(
            new Object[] {
              DataType.DT_FLOAT, StdArrays.ndCopyOf(new float[][] {{1.5f, 2f}, {3f, 4f}})
            },
            new Object[] {DataType.DT_HALF, StdArrays.ndCopyOf(new float[] {0.5f, 2f})},
            new Object[] {DataType.DT_BFLOAT16, StdArrays.ndCopyOf(new float[] {1f, -2f})},
            new Object[] {DataType.DT_DOUBLE, StdArrays.ndCopyOf(new double[][] {{1.25}, {2.5}})},
            new Object[] {DataType.DT_INT32, NdArrays.vectorOf(1, -2, 3)},
            new Object[] {DataType.DT_INT64, NdArrays.scalarOf(1L << 40)},
            new Object[] {DataType.DT_UINT8, NdArrays.vectorOf((byte) 7, (byte) 200)},
            new Object[] {DataType.DT_INT8, NdArrays.vectorOf((byte) -128, (byte) 127)},
            new Object[] {DataType.DT_INT16, NdArrays.vectorOf((short) -32768, (short) 5)},
            new Object[] {DataType.DT_UINT16, NdArrays.vectorOf((short) 9)},
            new Object[] {DataType.DT_BOOL, NdArrays.vectorOf(true, false)},
            new Object[] {DataType.DT_STRING, NdArrays.vectorOfObjects("a", "βγ")});
    for (Object[] c : cases) {
      NdArray<?> value = (NdArray<?>) c[1];
      NdArray<?> back;
      try (Tensor t = TensorValues.tensorOf((DataType) c[0], value)) {
        assertEquals(c[0], t.dataType());
        assertTrue(TensorValues.isTensor((NdArray<?>) t));
        back = TensorValues.copyOf(t);
      }
      assertFalse(c[0] + " " + back.getClass(), TensorValues.isTensor(back));
      assertEquals(c[0] + " shape", value.shape(), back.shape());
      if (c[0] == DataType.DT_STRING) {
        // string tensors come back as the stored bytes (NdArray<byte[]>), see TensorValues.copyOf
        assertArrayEquals("a".getBytes(StandardCharsets.UTF_8), (byte[]) back.getObject(0));
        assertArrayEquals("βγ".getBytes(StandardCharsets.UTF_8), (byte[]) back.getObject(1));
      } else {
        assertEquals(c[0] + " values", value, back);
      }
      assertEquals(
          "the heap copy keeps its dtype (float16/bfloat16/int8/int16 by tag)",
          c[0],
          TensorValues.dtypeOf(back));
    }
  }

  @Test
  public void scalarAsDoubleReadsUnsignedTensorsAsTheirNumbers() {
    // a uint8 240 / uint16 48000 tensor: a ByteNdArray / ShortNdArray whose element is negative
    try (Tensor u8 = TensorValues.tensorOf(DataType.DT_UINT8, NdArrays.scalarOf(240L));
        Tensor u16 = TensorValues.tensorOf(DataType.DT_UINT16, NdArrays.scalarOf(48000L));
        Tensor i8 = TensorValues.tensorOf(DataType.DT_INT8, NdArrays.scalarOf(-16L))) {
      assertEquals(240.0, TensorValues.scalarAsDouble((NdArray<?>) u8), 0.0);
      assertEquals(48000.0, TensorValues.scalarAsDouble((NdArray<?>) u16), 0.0);
      assertEquals(-16.0, TensorValues.scalarAsDouble((NdArray<?>) i8), 0.0);
      assertEquals(
          240.0, TensorValues.scalarAsDouble(TensorValues.copyOf(u8)), 0.0); // the heap copy too
    }
    assertEquals(null, TensorValues.scalarAsDouble(NdArrays.vectorOf(1.0, 2.0)));
    assertEquals(null, TensorValues.scalarAsDouble(NdArrays.scalarOf(true)));
  }

  @Test
  public void stringTensorsCopyAsTheirBytesEvenWhenNotUtf8() {
    byte[][] raw = {{0, (byte) 0xff, (byte) 0x80}, {}, "ok".getBytes(StandardCharsets.UTF_8)};
    NdArray<?> back;
    try (Tensor t = TensorValues.tensorOf(DataType.DT_STRING, NdArrays.vectorOfObjects(raw))) {
      back = TensorValues.copyOf(t);
    }
    for (int i = 0; i < raw.length; i++) {
      assertArrayEquals(raw[i], (byte[]) back.getObject(i));
    }
  }

  @Test
  public void aMismatchedFeedNamesBothTypes() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TensorValues.tensorOf(DataType.DT_FLOAT, NdArrays.vectorOf(true)));
    assertTrue(
        e.getMessage(), e.getMessage().contains("DT_FLOAT") && e.getMessage().contains("(bool)"));
  }

  @Test
  public void numericFeedsOfAnotherElementTypeAreCastLikeNumpyAsarray() {
    try (Tensor t = TensorValues.tensorOf(DataType.DT_FLOAT, NdArrays.vectorOf(1L, 3L));
        Tensor u = TensorValues.tensorOf(DataType.DT_INT32, NdArrays.vectorOf(2.9, -2.9))) {
      assertEquals(NdArrays.vectorOf(1f, 3f), TensorValues.copyOf(t));
      assertEquals(NdArrays.vectorOf(2, -2), TensorValues.copyOf(u));
    }
  }
}
