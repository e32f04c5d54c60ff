package org.jhooks.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * Java-side loops for benchmark P3 and {@code benchmarks/bridge_crossing.py}: {@code n} calls, made
 * from Java, to a hook's callbacks and to a plain {@link Supplier} (a raw JPype proxy when it is a
 * Python object). Python times each call of these methods as one block.
 */
public final class CallbackTimer {
  private CallbackTimer() {}

  /** Nanoseconds for {@code n} calls of {@code hook.beforeSessionRun(context)}. */
  public static long beforeSessionRun(Hook hook, SessionRunContext context, int n) {
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      hook.beforeSessionRun(context);
    }
    return System.nanoTime() - t0;
  }

  /** Nanoseconds for {@code n} calls of {@code supplier.get()}. */
  public static long supplier(Supplier<?> supplier, int n) {
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      supplier.get();
    }
    return System.nanoTime() - t0;
  }

  /**
   * Nanoseconds for {@code n} calls of {@code hook.afterSessionRun} (no run context session, no
   * values) split over {@code threads} new Java threads, all started together.
   *
   * @throws ExecutionException what a call threw, as its cause
   */
  public static long afterSessionRun(Hook hook, int threads, int n)
      throws InterruptedException, ExecutionException {
    SessionRunContext context = new SessionRunContext(SessionRunArgs.of(null), null);
    SessionRunValues values = new SessionRunValues(null, null, null);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int t = 0; t < threads; t++) {
        int calls = n / threads + (t < n % threads ? 1 : 0);
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < calls; i++) {
                    hook.afterSessionRun(context, values);
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      return System.nanoTime() - t0;
    } finally {
      pool.shutdownNow();
    }
  }
}
