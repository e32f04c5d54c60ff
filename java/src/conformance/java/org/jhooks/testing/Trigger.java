package org.jhooks.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * Drives hooks and listeners from Java threads that Python did not start; used by the bridge tests
 * and handy for checking a Python hook's thread safety. Every exception thrown by a callback is
 * collected and rethrown (the first, with the rest suppressed), none is lost. Test support (package
 * {@code org.jhooks.testing}), not API.
 */
public final class Trigger {
  private Trigger() {}

  /**
   * Calls {@code hook.afterSessionRun} {@code callsPerThread} times on each of {@code threads} new
   * threads, all released at once.
   *
   * @return the number of calls that returned normally
   * @throws RuntimeException the first callback failure, the others suppressed; or a timeout
   */
  public static int afterSessionRunConcurrently(
      Hook hook, int threads, int callsPerThread, long timeoutMs) throws InterruptedException {
    SessionRunContext context = new SessionRunContext(SessionRunArgs.of(null), null);
    SessionRunValues values = new SessionRunValues(null, null, null);
    return concurrently(
        threads, callsPerThread, timeoutMs, () -> hook.afterSessionRun(context, values));
  }

  /**
   * Calls {@code listener.afterSave(session, globalStep)} once on a new thread and waits for it.
   *
   * @return what afterSave returned
   * @throws RuntimeException what afterSave threw
   */
  public static boolean afterSaveOnThread(
      CheckpointSaverListener listener, Session session, long globalStep)
      throws InterruptedException {
    boolean[] result = new boolean[1];
    concurrently(1, 1, 60_000, () -> result[0] = listener.afterSave(session, globalStep));
    return result[0];
  }

  /**
   * Starts {@code hook.afterSessionRun} on a daemon thread and returns without waiting; used to
   * check that a callback in flight does not hold up process exit.
   */
  public static Thread afterSessionRunInBackground(Hook hook, boolean daemon) {
    SessionRunContext context = new SessionRunContext(SessionRunArgs.of(null), null);
    Thread t =
        new Thread(
            () -> hook.afterSessionRun(context, new SessionRunValues(null, null, null)),
            "jhooks-trigger-background");
    t.setDaemon(daemon);
    t.start();
    return t;
  }

  private static int concurrently(int threads, int callsPerThread, long timeoutMs, Runnable call)
      throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(threads);
    List<Throwable> failures = new ArrayList<>();
    int[] ok = new int[1];
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < callsPerThread; i++) {
                    call.run();
                    synchronized (ok) {
                      ok[0]++;
                    }
                  }
                } catch (Throwable e) {
                  synchronized (failures) {
                    failures.add(e);
                  }
                } finally {
                  done.countDown();
                }
              },
              "jhooks-trigger-" + t);
      thread.setDaemon(true);
      thread.start();
      started.add(thread);
    }
    start.countDown();
    if (!done.await(timeoutMs, TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(
          "Trigger: "
              + done.getCount()
              + " of "
              + threads
              + " threads still running after "
              + timeoutMs
              + " ms");
    }
    synchronized (failures) {
      if (!failures.isEmpty()) {
        Throwable first = failures.get(0);
        for (Throwable other : failures.subList(1, failures.size())) {
          first.addSuppressed(other);
        }
        if (first instanceof RuntimeException) {
          throw (RuntimeException) first;
        }
        if (first instanceof Error) {
          throw (Error) first;
        }
        throw new RuntimeException(first);
      }
    }
    synchronized (ok) {
      return ok[0];
    }
  }
}
