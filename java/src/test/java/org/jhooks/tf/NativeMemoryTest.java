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
 * tensorflow-java tensor; read without a GC, which could free leaked tensors) where it was, and do
 * not grow the resident set outside the Java heap in every one of three windows of 3,000 steps
 * (leaking every fetched tensor adds about 188 MiB per window; a window passes below 32 MiB). One
 * quiet window is enough because the resident set is the whole process's: threads other tests left
 * running (gRPC servers, profilers, savers) can grow it during one window, while a leak grows it in
 * all of them. The test JVM's heap is fixed and pre-touched (build.gradle), and its committed size
 * is subtracted, so the heap's growth does not count. {@link #theMeasurementSeesALeak} shows both
 * measures catch unclosed results (1,500 of them grew the resident set by 62 to 93 MiB).
 */
public class NativeMemoryTest {
  private static final int FLOATS = 16 * 1024;
  private static final long WINDOW_RSS_BOUND = 32L << 20;
  private static final int WINDOWS = 3;
  private static final long COUNT_BOUND = 50;

  /** Resident bytes outside the Java heap's committed size. */
  private static long nativeResidentBytes() {
    return Pointer.physicalBytes() - Runtime.getRuntime().totalMemory();
  }

  /** The smallest growth of {@link #nativeResidentBytes()} over {@link #WINDOWS} windows. */
  private static long smallestWindowGrowth(int stepsPerWindow, Runnable step) {
    long smallest = Long.MAX_VALUE;
    for (int w = 0; w < WINDOWS; w++) {
      long before = nativeResidentBytes();
      for (int i = 0; i < stepsPerWindow; i++) {
        step.run();
      }
      smallest = Math.min(smallest, nativeResidentBytes() - before);
    }
    return smallest;
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
      long growth = smallestWindowGrowth(3000, () -> s.run(args));
      long countGrowth = Pointer.totalCount() - count;
      assertEquals(FLOATS, ((FloatNdArray) hook.values.results()).size());
      assertEquals(10_000L, s.session().globalStep());
      assertTrue("live native pointers grew by " + countGrowth, countGrowth < COUNT_BOUND);
      assertTrue(
          "resident set outside the heap grew by " + (growth >> 20) + " MiB in every window",
          growth < WINDOW_RSS_BOUND);
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
        long growth = smallestWindowGrowth(1500, () -> leaked.add(raw.runner().fetch("big").run()));
        long countGrowth = Pointer.totalCount() - count;
        assertTrue(
            "4500 unclosed results: live native pointers grew by only " + countGrowth,
            countGrowth > COUNT_BOUND);
        assertTrue(
            "1500 unclosed results grew the resident set by only " + (growth >> 20) + " MiB",
            growth > WINDOW_RSS_BOUND);
      } finally {
        leaked.forEach(Result::close);
      }
    }
  }
}
