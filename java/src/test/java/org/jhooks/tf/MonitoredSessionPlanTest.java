package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.testing.CounterGraph;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArray;

/**
 * What {@link MonitoredSession} reuses while hooks ask for the same names (the last run's merged
 * request, checks skipped) must never change what hooks and the caller get, nor which errors leave.
 */
public class MonitoredSessionPlanTest {
  /** Returns {@code args.apply(run)} (runs count from 0) and keeps its results. */
  static final class Asking implements Hook {
    final IntFunction<SessionRunArgs> args;
    final List<Object> results = new ArrayList<>();
    int runs;

    Asking(IntFunction<SessionRunArgs> args) {
      this.args = args;
    }

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      return args.apply(runs);
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      runs++;
      results.add(runValues.results());
    }
  }

  private static float value(Object result) {
    return ((FloatNdArray) result).getFloat();
  }

  // v counts the runs (a whole number, read before or after the run's bump); loss = sqrt(3.5 - v)
  // is not a whole number for v in 1..3: which tensor a value came from shows.
  private static boolean isV(Object result) {
    float f = value(result);
    return f == Math.rint(f);
  }

  @Test
  public void aHookThatChangesItsNamesGetsTheValuesOfEachRunsNames() {
    Asking hook = new Asking(run -> SessionRunArgs.of(run % 2 == 0 ? "v:0" : "loss:0"));
    Asking steady = new Asking(run -> SessionRunArgs.of("v:0"));
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook, steady).build()) {
      for (int i = 0; i < 4; i++) {
        s.run(CounterGraph.TRAIN);
      }
    }
    assertEquals(
        List.of(true, false, true, false), hook.results.stream().map(r -> isV(r)).toList());
    assertEquals(
        List.of(true, true, true, true), steady.results.stream().map(r -> isV(r)).toList());
  }

  @Test
  public void aListAHookChangesInPlaceIsReadAgain() {
    List<String> names = new ArrayList<>(List.of("v:0"));
    SessionRunArgs same = SessionRunArgs.of(names);
    Asking hook = new Asking(run -> same);
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      s.run(CounterGraph.TRAIN);
      names.add("loss:0");
      s.run(CounterGraph.TRAIN);
    }
    assertEquals(1, ((List<?>) hook.results.get(0)).size());
    List<?> second = (List<?>) hook.results.get(1);
    assertEquals(2, second.size());
    assertTrue(isV(second.get(0)));
    assertTrue(!isV(second.get(1)));
  }

  @Test
  public void aNameThatIsNotInTheGraphFailsTheRunThatAsksForItEvenAfterGoodRuns() {
    Asking hook = new Asking(run -> SessionRunArgs.of(run < 2 ? "v:0" : "no_such:0"));
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      s.run(CounterGraph.TRAIN);
      s.run(CounterGraph.TRAIN);
      GraphNameException e =
          assertThrows(GraphNameException.class, () -> s.run(CounterGraph.TRAIN));
      assertTrue(e.getMessage(), e.getMessage().contains("no_such:0"));
    }
  }

  @Test
  public void theCallerGetsItsOwnFetchesEveryRun() {
    Asking hook = new Asking(run -> SessionRunArgs.of("v:0"));
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      Object first = s.run(List.of("v:0", CounterGraph.TRAIN));
      Object second = s.run(List.of("loss:0", CounterGraph.TRAIN));
      Object third = s.run(List.of("v:0", CounterGraph.TRAIN));
      assertTrue(isV(((List<?>) first).get(0)));
      assertTrue(!isV(((List<?>) second).get(0)));
      assertTrue(isV(((List<?>) third).get(0)));
      assertTrue(((List<?>) third).get(1) == null);
    }
    assertEquals(3, hook.results.size());
    assertTrue(hook.results.get(2) instanceof NdArray);
  }
}
