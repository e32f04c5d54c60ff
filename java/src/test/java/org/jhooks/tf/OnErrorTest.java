package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.testing.CounterGraph;
import org.junit.Test;
import org.tensorflow.Graph;

/** Hook.onError on the JVM driver (docs/contract.md, "onError"). */
public class OnErrorTest {

  /** Starts a thread in afterCreateSession; onError or end stops it. */
  static final class Worker implements Hook {
    final CountDownLatch stop = new CountDownLatch(1);
    Thread thread;
    final List<Throwable> errors = new ArrayList<>();
    Long stepInOnError;

    @Override
    public void afterCreateSession(Session session, Coordinator coord) {
      thread =
          new Thread(
              () -> {
                try {
                  stop.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      thread.start();
    }

    @Override
    public void onError(Session session, Throwable error) {
      errors.add(error);
      stepInOnError = session == null ? null : session.globalStep();
      stop.countDown();
    }

    @Override
    public void end(Session session) {
      stop.countDown();
    }
  }

  static final class Failing implements Hook {
    final String callback;

    Failing(String callback) {
      this.callback = callback;
    }

    private void maybe(String c) {
      if (c.equals(callback)) {
        throw new IllegalStateException("boom in " + c);
      }
    }

    @Override
    public void afterCreateSession(Session session, Coordinator coord) {
      maybe("afterCreateSession");
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      maybe("afterSessionRun");
    }

    @Override
    public void end(Session session) {
      maybe("end");
    }

    @Override
    public void onError(Session session, Throwable error) {
      maybe("onError");
    }
  }

  private static void train(int runs, Hook... hooks) {
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hooks).build()) {
      for (int i = 0; i < runs && !s.shouldStop(); i++) {
        s.run(CounterGraph.TRAIN);
      }
    }
  }

  @Test
  public void everyFailingCallbackStopsTheWorkerThreadOnce() throws Exception {
    for (String callback : List.of("afterCreateSession", "afterSessionRun", "end")) {
      Worker worker = new Worker();
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> train(3, worker, new Failing(callback)));
      assertEquals("boom in " + callback, e.getMessage());
      worker.thread.join(10_000);
      assertFalse(callback, worker.thread.isAlive());
      assertEquals(List.of(e), worker.errors);
      assertNotNull(callback + ": the session is still open in onError", worker.stepInOnError);
    }
  }

  @Test
  public void anOnErrorFailureIsSuppressedAndTheOthersStillGetIt() {
    Worker worker = new Worker();
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> train(3, new Failing("onError"), new Failing("afterSessionRun"), worker));
    assertEquals("boom in afterSessionRun", e.getMessage());
    assertEquals(1, worker.errors.size());
    assertSame(e, worker.errors.get(0));
    boolean found = false;
    for (Throwable s : e.getSuppressed()) {
      found |= s.getMessage() != null && s.getMessage().contains("boom in onError");
    }
    assertTrue(java.util.Arrays.toString(e.getSuppressed()), found);
  }

  @Test
  public void normalEndsAndHooksWithoutASessionGetNoOnError() {
    Worker worker = new Worker();
    train(2, worker);
    assertEquals(List.of(), worker.errors);
    Worker first = new Worker();
    Worker never = new Worker();
    assertThrows(
        IllegalStateException.class,
        () -> train(2, first, new Failing("afterCreateSession"), never));
    assertEquals(1, first.errors.size());
    assertEquals(List.of(), never.errors);
  }
}
