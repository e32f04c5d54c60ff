package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.Pointer;
import org.jhooks.SessionRunArgs;
import org.jhooks.testing.CounterGraph;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.op.Ops;
import org.tensorflow.types.TFloat32;

/**
 * The driver closes every native tensor: 10,000 hooked steps that fetch a 64 KiB tensor leave the
 * number of live JavaCPP pointers with deallocators ({@code Pointer.totalCount()}, one per
 * tensorflow-java tensor; read without a GC, which could free leaked tensors) where it was, and
 * grow the resident set outside the Java heap by less than 192 MiB (leaking every fetched tensor
 * would add about 576 MiB). The Java heap's committed size is subtracted because the heap grows
 * with the collector's pace, not with native leaks (on a loaded machine it grew by over 200 MiB).
 * {@link #theMeasurementSeesALeak} shows both measures catch 4,000 unclosed results.
 */
public class NativeMemoryTest {
  private static final int FLOATS = 16 * 1024;
  private static final long RSS_BOUND = 192L << 20;
  private static final long COUNT_BOUND = 50;

  /** Resident bytes outside the Java heap's committed size. */
  private static long nativeResidentBytes() {
    return Pointer.physicalBytes() - Runtime.getRuntime().totalMemory();
  }

  private static Graph graph() {
    Graph g = CounterGraph.counter();
    Ops tf = Ops.create(g);
    tf.withName("big")
        .fill(
            tf.constant(new int[] {FLOATS}),
            tf.withName("vread").identity(g.output("v").expect(TFloat32.class)));
    return g;
  }

  @Test
  public void tenThousandHookedStepsDoNotGrowNativeMemory() {
    MonitoredSessionRunTest.AskingHook hook =
        new MonitoredSessionRunTest.AskingHook(SessionRunArgs.of("big:0"));
    try (Graph g = graph();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      SessionRunArgs args = SessionRunArgs.of(List.of(CounterGraph.TRAIN, "big:0"));
      for (int i = 0; i < 1000; i++) {
        s.run(args);
      }
      long count = Pointer.totalCount();
      long rss = nativeResidentBytes();
      for (int i = 0; i < 9000; i++) {
        s.run(args);
      }
      long countGrowth = Pointer.totalCount() - count;
      long growth = nativeResidentBytes() - rss;
      assertEquals(FLOATS, ((FloatNdArray) hook.values.results()).size());
      assertEquals(10_000L, s.session().globalStep());
      assertTrue("live native pointers grew by " + countGrowth, countGrowth < COUNT_BOUND);
      assertTrue(
          "resident set outside the heap grew by " + (growth >> 20) + " MiB", growth < RSS_BOUND);
    }
  }

  @Test
  public void theMeasurementSeesALeak() {
    try (Graph g = graph();
        Session raw = new Session(g)) {
      List<Result> leaked = new ArrayList<>();
      try {
        for (int i = 0; i < 100; i++) {
          raw.runner().fetch("big").run().close();
        }
        long count = Pointer.totalCount();
        long rss = nativeResidentBytes();
        for (int i = 0; i < 4000; i++) {
          leaked.add(raw.runner().fetch("big").run());
        }
        long countGrowth = Pointer.totalCount() - count;
        long growth = nativeResidentBytes() - rss;
        assertTrue(
            "4000 unclosed results: live native pointers grew by only " + countGrowth,
            countGrowth > COUNT_BOUND);
        assertTrue(
            "4000 unclosed results grew the resident set by only " + (growth >> 20) + " MiB",
            growth > RSS_BOUND);
      } finally {
        leaked.forEach(Result::close);
      }
    }
  }
}
