package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.bench.BigVariableGraph;
import org.jhooks.ndarray.DirectValues;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArray;

/** Large fetches in pooled direct memory: exact values, and a kept value is never reused. */
public class DirectValuesTest {
  /** In runs that fetch nothing else, fetches big0:0 and keeps every value. */
  static final class KeepHook implements Hook {
    final List<FloatNdArray> kept = new ArrayList<>();

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      return "big0:0".equals(runContext.originalArgs().fetches())
          ? SessionRunArgs.of("big0:0")
          : null;
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      if (runValues.results() != null) {
        kept.add((FloatNdArray) runValues.results());
      }
    }
  }

  @Test
  public void keptValuesKeepTheirStepWhileMemoryIsReusedPastTheBudget() {
    long elements = 4L << 20; // 16 MB a step: past the 256 MB budget in 20 steps
    int steps = (int) (2 * DirectValues.budget() / (elements * 4)) + 4;
    KeepHook keep = new KeepHook();
    try (Graph g = BigVariableGraph.build(elements, true)) {
      MonitoredSession s = MonitoredSession.builder(g).hooks(keep).build();
      try {
        for (int i = 0; i < steps; i++) {
          s.run("train_step");
          // values no hook keeps come back for reuse; their memory must not be a kept one
          Object transientValue = s.run("big0:0");
          assertEquals(i + 1f, ((FloatNdArray) transientValue).getFloat(elements - 1), 0f);
        }
      } finally {
        s.close();
      }
    }
    assertEquals(steps, keep.kept.size());
    for (int i = 0; i < steps; i++) {
      FloatNdArray v = keep.kept.get(i);
      float step = i + 1;
      assertEquals("value " + i, step, v.getFloat(0), 0f);
      assertEquals("value " + i, step, v.getFloat(elements - 1), 0f);
      assertEquals("value " + i, step, v.getFloat(elements / 2), 0f);
    }
  }

  /** In runs of train_step, fetches big0:0 and reads one element of it; keeps nothing. */
  static final class ReadHook implements Hook {
    float last;

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      return "train_step".equals(runContext.originalArgs().fetches())
          ? SessionRunArgs.of("big0:0")
          : null;
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      FloatNdArray v = (FloatNdArray) runValues.results();
      last = v.getFloat(v.size() - 1);
    }
  }

  /**
   * One fetch as large as the whole budget a step: collections are asked for every other step, not
   * every step (the threshold is twice the largest value), and memory freed by one is reused at
   * once (not fresh direct memory each step).
   */
  @Test
  public void aFetchAsLargeAsTheBudgetIsReusedWithoutACollectionEveryStep() {
    long elements = DirectValues.budget() / 4; // one fetch of the whole budget (256 MB) a step
    int steps = 8;
    ReadHook hook = new ReadHook();
    try (Graph g = BigVariableGraph.build(elements, true)) {
      MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build();
      try {
        long collections = DirectValues.collectionsRequested();
        long allocated = DirectValues.bytesAllocated();
        for (int i = 0; i < steps; i++) {
          s.run("train_step");
          assertEquals(i + 1f, hook.last, 0f);
        }
        long asked = DirectValues.collectionsRequested() - collections;
        long fresh = DirectValues.bytesAllocated() - allocated;
        assertTrue(
            "asked for " + asked + " collections in " + steps + " steps", asked <= steps / 2);
        assertTrue(
            "allocated " + (fresh >> 20) + " MiB of fresh direct memory",
            fresh <= 3 * elements * 4);
      } finally {
        s.close();
      }
    }
  }

  @Test
  public void onlyLargeValuesAreHeldInDirectMemory() {
    try (Graph small = BigVariableGraph.build(16, true);
        Graph large = BigVariableGraph.build(1 << 20, true)) {
      MonitoredSession s = MonitoredSession.builder(small).build();
      MonitoredSession l = MonitoredSession.builder(large).build();
      try {
        assertNull(DirectValues.bytes((NdArray<?>) s.run("big0:0")));
        NdArray<?> v = (NdArray<?>) l.run("big0:0");
        assertNotNull(DirectValues.bytes(v));
        assertEquals(4L << 20, (long) DirectValues.bytes(v).capacity());
      } finally {
        s.close();
        l.close();
      }
    }
  }

  /**
   * The memory behind a reachable value stays reachable through collections: Python is given a view
   * of it whenever it asks (before, the buffer meant for Python was held only weakly and a
   * collection before Python asked made it get a copy).
   */
  @Test
  public void aReachableValueKeepsItsDirectMemoryThroughCollections() {
    try (Graph large = BigVariableGraph.build(1 << 20, true)) {
      MonitoredSession l = MonitoredSession.builder(large).build();
      try {
        NdArray<?> v = (NdArray<?>) l.run("big0:0");
        for (int i = 0; i < 3; i++) {
          System.gc();
        }
        assertNotNull(DirectValues.bytes(v));
        assertEquals(4L << 20, (long) DirectValues.bytes(v).capacity());
      } finally {
        l.close();
      }
    }
  }
}
