package org.jhooks.bench;

import java.util.function.Supplier;
import org.jhooks.Hook;
import org.jhooks.SessionRunContext;

/**
 * Java-side loops for benchmark P3: the time of {@code n} calls, made from Java, to a hook's {@code
 * beforeSessionRun} and to a plain {@link Supplier} (a raw JPype proxy when it is a Python object).
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
}
