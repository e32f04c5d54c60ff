package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

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
}
