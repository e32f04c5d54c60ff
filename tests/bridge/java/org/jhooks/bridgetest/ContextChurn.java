package org.jhooks.bridgetest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jhooks.Hook;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * Calls a hook from several threads at once with a new run context each time, no Java code reading
 * the context after the call began (as SignalTraining's busy threads do), while another thread
 * collects garbage without pause: a context must stay alive until the hook returned
 * (org.jhooks.bridge.RunContextIds looks it up by id from Python).
 */
public final class ContextChurn {
  private ContextChurn() {}

  /**
   * {@code calls} rounds of {@code beforeSessionRun} then {@code afterSessionRun} on each of {@code
   * threads} threads, each with a fresh context; returns the first failure's text, or null.
   */
  public static String run(Hook hook, int threads, int calls) throws InterruptedException {
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<String> failure = new AtomicReference<>();
    Thread collector =
        new Thread(
            () -> {
              while (!done.get()) {
                System.gc();
              }
            },
            "collector");
    collector.setDaemon(true);
    collector.start();
    List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread caller =
          new Thread(
              () -> {
                SessionRunValues values = new SessionRunValues(null, null, null);
                try {
                  for (int i = 0; i < calls && failure.get() == null; i++) {
                    hook.beforeSessionRun(new SessionRunContext(null, null));
                    hook.afterSessionRun(new SessionRunContext(null, null), values);
                  }
                } catch (RuntimeException e) {
                  failure.compareAndSet(null, e.toString());
                }
              },
              "caller-" + t);
      caller.start();
      callers.add(caller);
    }
    for (Thread caller : callers) {
      caller.join();
    }
    done.set(true);
    collector.join();
    return failure.get();
  }
}
