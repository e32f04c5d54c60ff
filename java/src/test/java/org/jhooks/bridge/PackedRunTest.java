package org.jhooks.bridge;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import org.jhooks.RunOptions;
import org.jhooks.SessionRunValues;
import org.junit.Test;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;

public class PackedRunTest {
  @Test
  public void aResultKeepsFlagsIndexAndRepeatedHooksApart() {
    long r = PackedRun.of(PackedRun.HAS_ARGS | PackedRun.CONTEXT_STOP, 300, 0b1011L);
    assertEquals(PackedRun.HAS_ARGS | PackedRun.CONTEXT_STOP, r & 0xff);
    assertEquals(300, PackedRun.index(r));
    assertEquals(0b1011L, PackedRun.repeated(r));
    long last = PackedRun.of(0, 0, 1L << (PackedRun.MAX_REPEATED - 1));
    assertEquals(1L << (PackedRun.MAX_REPEATED - 1), PackedRun.repeated(last));
  }

  @Test
  public void valuesPackSmallArraysAndNoResultsInOrder() {
    FloatNdArray f = NdArrays.ofFloats(Shape.of(2));
    f.setFloat(1.5f, 0).setFloat(-2f, 1);
    LongNdArray step = NdArrays.scalarOf(7L);
    SessionRunValues[] values = {
      new SessionRunValues(f, null, null),
      new SessionRunValues(null, null, null),
      new SessionRunValues(step, null, null)
    };
    NdArray<?>[] back = PackedRun.arrays(PackedRun.values(values), 3);
    assertEquals(f, back[0]);
    assertNull(back[1]);
    assertEquals(7L, ((LongNdArray) back[2]).getLong());
  }

  @Test
  public void optionsMetadataStructuresAndLargeArraysAreNotPacked() {
    NdArray<?> small = NdArrays.scalarOf(1f);
    assertNull(
        PackedRun.values(
            new SessionRunValues[] {
              new SessionRunValues(small, RunOptions.ofTraceLevel(1), null)
            }));
    assertNull(
        PackedRun.values(new SessionRunValues[] {new SessionRunValues(small, null, new byte[1])}));
    assertNull(
        PackedRun.values(
            new SessionRunValues[] {new SessionRunValues(java.util.List.of(small), null, null)}));
    NdArray<?> big = NdArrays.ofFloats(Shape.of(PackedRun.MAX_PACKED_BYTES / 4 + 1));
    assertNull(PackedRun.values(new SessionRunValues[] {new SessionRunValues(big, null, null)}));
  }
}
