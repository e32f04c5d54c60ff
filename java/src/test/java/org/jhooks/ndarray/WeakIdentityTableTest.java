package org.jhooks.ndarray;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;

public class WeakIdentityTableTest {

  @Test
  public void keysAreComparedByIdentityNotByContent() {
    WeakIdentityTable<String> table = new WeakIdentityTable<>(v -> {});
    FloatNdArray a = NdArrays.ofFloats(Shape.of(2));
    FloatNdArray b = NdArrays.ofFloats(Shape.of(2));
    assertEquals(a, b); // equal by content
    table.put(a, "a");
    assertEquals("a", table.get(a));
    assertNull(table.get(b));
    table.put(b, "b");
    assertEquals("a", table.get(a));
    assertEquals("b", table.get(b));
  }

  @Test
  public void anEntryWhoseKeyWasCollectedGoesAndItsValueIsPassedOn() {
    List<String> collected = new ArrayList<>();
    WeakIdentityTable<String> table = new WeakIdentityTable<>(collected::add);
    Object kept = new Object();
    table.put(kept, "kept");
    Object dropped = new Object();
    WeakReference<Object> watch = new WeakReference<>(dropped);
    table.put(dropped, "dropped");
    dropped = null;
    for (int i = 0; i < 50 && (watch.get() != null || collected.isEmpty()); i++) {
      System.gc();
      table.expunge();
    }
    assertEquals(List.of("dropped"), collected);
    assertEquals("kept", table.get(kept));
  }

  @Test
  public void sweepingRightAfterACollectionPassesEachValueOnOnce() {
    List<String> collected = new ArrayList<>();
    WeakIdentityTable<String> table = new WeakIdentityTable<>(collected::add);
    Object dropped = new Object();
    WeakReference<Object> watch = new WeakReference<>(dropped);
    table.put(dropped, "dropped");
    dropped = null;
    for (int i = 0; i < 50 && watch.get() != null; i++) {
      System.gc();
    }
    table.sweep(); // before or after the reference handler queued it
    assertEquals(List.of("dropped"), collected);
    for (int i = 0; i < 5; i++) {
      System.gc();
      table.expunge(); // queued later: not passed on again
    }
    assertEquals(List.of("dropped"), collected);
  }
}
