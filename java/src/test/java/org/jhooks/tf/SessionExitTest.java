package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.testing.CounterGraph;
import org.junit.Test;
import org.tensorflow.Graph;

/**
 * What the JVM's exit asks of an open session and when it waits for it (the exit itself, with real
 * signals, is tests/jep/test_example_app.py).
 */
public class SessionExitTest {
  private final List<String> calls = new ArrayList<>();

  @Test
  public void anExitStopEndsTheLoopAfterTheRunAndCloseRunsEnd() {
    try (Graph g = CounterGraph.counter()) {
      try (MonitoredSession s =
          MonitoredSession.builder(g).hooks(new RecordingHook(calls)).build()) {
        s.run(CounterGraph.TRAIN);
        assertFalse(s.shouldStop());
        s.requestExitStop();
        assertTrue(s.shouldStop());
      }
      assertEquals(List.of("begin", "afterCreateSession", "before:0", "after:0", "end"), calls);
    }
  }

  @Test
  public void theExitWaitsForASessionItsThreadDrivesAndNotForOneClosedOrLeft() throws Exception {
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession s = MonitoredSession.builder(g).build();
      s.run(CounterGraph.TRAIN);
      assertTrue(s.drivenWithin(SessionExit.IDLE_NANOS));
      Thread.sleep(20);
      assertFalse(s.drivenWithin(10_000_000L)); // no call for more than 10 ms: left
      s.close();
      assertFalse(s.drivenWithin(SessionExit.IDLE_NANOS));
    }
  }

  @Test
  public void theExitDoesNotWaitForASessionWhoseThreadEnded() throws Exception {
    try (Graph g = CounterGraph.counter()) {
      MonitoredSession[] made = new MonitoredSession[1];
      Thread driver =
          new Thread(
              () -> {
                made[0] = MonitoredSession.builder(g).build();
                made[0].run(CounterGraph.TRAIN);
              });
      driver.start();
      driver.join();
      try {
        assertFalse(made[0].drivenWithin(SessionExit.IDLE_NANOS));
      } finally {
        made[0].close();
      }
    }
  }

  @Test
  public void requestStopAsksEveryOpenSessionAndDrivenSaysWhetherToWait() {
    try (Graph g = CounterGraph.counter()) {
      try (MonitoredSession s =
          MonitoredSession.builder(g).hooks(new RecordingHook(calls)).build()) {
        s.run(CounterGraph.TRAIN);
        assertTrue(SessionExit.driven());
        assertTrue(SessionExit.requestStop()); // driven: a host would hold its signal
        assertTrue(s.shouldStop());
      }
      assertEquals(List.of("begin", "afterCreateSession", "before:0", "after:0", "end"), calls);
    }
  }
}
