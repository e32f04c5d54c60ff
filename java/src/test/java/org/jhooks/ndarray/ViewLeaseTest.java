package org.jhooks.ndarray;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.Test;
import org.junit.function.ThrowingRunnable;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.index.Indices;

public class ViewLeaseTest {
  private static final String[] DTYPES = {
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "bool"
  };

  private static ByteBuffer ones(DType dtype, int n) {
    ByteBuffer b = ByteBuffer.allocateDirect(n * dtype.itemSize()).order(ByteOrder.nativeOrder());
    for (int i = 0; i < n; i++) {
      switch (dtype.itemSize()) {
        case 1:
          b.put(i, (byte) 1);
          break;
        case 2: // 1.0 as float16 when the dtype is float16; any value will do for the others
          b.putShort(i * 2, (short) 0x3c00);
          break;
        case 4:
          b.putInt(i * 4, 1);
          break;
        default:
          b.putLong(i * 8, 1L);
      }
    }
    return b;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void copy(NdArray<?> src, NdArray<?> dst) {
    ((NdArray) src).copyTo((NdArray) dst);
  }

  private static void assertExpired(String what, ThrowingRunnable read) {
    IllegalStateException e = assertThrows(IllegalStateException.class, read);
    assertTrue(e.getMessage(), e.getMessage().startsWith(what + " is a read-only view"));
    assertTrue(e.getMessage(), e.getMessage().contains("Copy it inside the callback"));
  }

  @Test
  public void everyReadOfAViewAndOfItsSubArraysThrowsOnceItsLeaseIsReleased() {
    for (String name : DTYPES) {
      DType dtype = DType.ofNumpy(name);
      ViewLease lease = new ViewLease();
      NdArray<?> view = dtype.view(ones(dtype, 6), Shape.of(2, 3), lease);
      NdArray<?> row = view.get(1);
      NdArray<?> sliced = view.slice(Indices.all(), Indices.range(1, 3));
      NdArray<?> copy = dtype.allocate(Shape.of(2, 3));
      copy(view, copy); // valid: reads and copies as any array
      assertEquals(name, copy.getObject(1, 2), view.getObject(1, 2));
      assertEquals(name, view.getObject(1, 2), row.getObject(2));
      assertTrue(lease.isValid());

      lease.release();
      assertFalse(lease.isValid());
      String what = "a " + name + " value of shape [2, 3]";
      assertExpired(what, () -> view.getObject(0, 0));
      assertExpired(what, () -> row.getObject(0));
      assertExpired(what, () -> sliced.getObject(0, 0));
      assertExpired(what, () -> copy(view, dtype.allocate(Shape.of(2, 3))));
      assertExpired(what, () -> copy(view.get(0), dtype.allocate(Shape.of(3))));
    }
  }

  @Test
  public void aViewWithoutALeaseAndTheCopiesMadeFromOneStayReadable() {
    DType f32 = DType.ofNumpy("float32");
    ByteBuffer memory = ones(f32, 4);
    ViewLease lease = new ViewLease();
    FloatNdArray view = (FloatNdArray) f32.view(memory, Shape.of(4), lease);
    FloatNdArray copy = NdArrays.ofFloats(view.shape());
    view.copyTo(copy);
    lease.release();
    lease.release(); // again: nothing
    assertEquals(Float.intBitsToFloat(1), copy.getFloat(3), 0f);
    FloatNdArray unleased = (FloatNdArray) f32.view(memory, Shape.of(4));
    assertEquals(Float.intBitsToFloat(1), unleased.getFloat(3), 0f);
  }
}
