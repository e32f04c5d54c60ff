package org.jhooks.bridge;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.RunOptions;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.junit.Test;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.LongNdArray;
import org.tensorflow.ndarray.NdArrays;

public class JavaHookGroupTest {
  static final List<String> LOG = new ArrayList<>();

  static class Logging implements Hook {
    final String name;
    final SessionRunArgs args;

    Logging(String name, SessionRunArgs args) {
      this.name = name;
      this.args = args;
    }

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      LOG.add(name + ".before");
      return args;
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      LOG.add(name + ".after " + runValues.results());
      if (name.equals("boom")) {
        throw new IllegalStateException("boom");
      }
    }
  }

  static class Default implements Hook {}

  private static JavaHookGroup group(Hook... hooks) {
    JavaHookCalls[] calls = new JavaHookCalls[hooks.length];
    for (int i = 0; i < hooks.length; i++) {
      calls[i] = new JavaHookCalls(hooks[i]);
    }
    return new JavaHookGroup(calls);
  }

  @Test
  public void beforeSessionRunStopsAfterTheFirstHookWithArgsAndResumesFromTheNext() {
    LOG.clear();
    SessionRunArgs args = SessionRunArgs.of("x:0");
    JavaHookGroup g =
        group(
            new Logging("a", null), new Default(), new Logging("b", args), new Logging("c", null));
    long r = g.beforeSessionRun(SessionRunArgs.of(null), null, 0, false);
    assertEquals(PackedRun.of(PackedRun.HAS_ARGS, 2, 0), r);
    assertSame(args, g.takeArgs());
    assertNull(g.takeArgs());
    assertEquals(PackedRun.of(0, 4, 0), g.beforeSessionRun(null, null, 3, false));
    assertEquals(List.of("a.before", "b.before", "c.before"), LOG);
    assertEquals(2, g.crossings());
  }

  @Test
  public void anExceptionStopsTheLoopAtItsHookAndPositionNamesIt() {
    LOG.clear();
    JavaHookGroup g =
        group(new Logging("a", null), new Logging("boom", null), new Logging("c", null));
    g.beforeSessionRun(SessionRunArgs.of(null), null, 0, false);
    LOG.clear();
    SessionRunValues values = new SessionRunValues(null, null, null);
    SessionRunValues[] each = {values, values, values};
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> g.afterSessionRun(each, 3, false));
    assertEquals("boom", e.getMessage());
    assertEquals(1, g.position());
    assertEquals(List.of("a.after null", "boom.after null"), LOG);
  }

  @Test
  public void flagsAreOredOverTheHooksCalled() {
    Hook stopper =
        new Hook() {
          @Override
          public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
            runContext.requestStop();
          }
        };
    JavaHookGroup g = group(stopper, new Default());
    g.beforeSessionRun(SessionRunArgs.of(null), null, 0, false);
    assertEquals(
        PackedRun.CONTEXT_STOP,
        g.afterSessionRun(
            new SessionRunValues[] {new SessionRunValues(null, null, null), null}, 2, false));
  }

  @Test
  public void hooksRepeatingOneFetchNameAreReportedNotReturnedUntilForgotten() {
    LOG.clear();
    JavaHookGroup g =
        group(
            new Logging("a", SessionRunArgs.of("x:0")),
            new Logging("b", null),
            new Logging("c", SessionRunArgs.of("y:0")),
            new Logging("d", SessionRunArgs.of(List.of("x:0"))));
    SessionRunArgs original = SessionRunArgs.of(null);
    // first run: every hook's args are returned
    assertEquals(
        PackedRun.of(PackedRun.HAS_ARGS, 0, 0), g.beforeSessionRun(original, null, 0, false));
    assertEquals("x:0", g.takeArgs().fetches());
    assertEquals(PackedRun.of(PackedRun.HAS_ARGS, 2, 0), g.beforeSessionRun(null, null, 1, false));
    g.takeArgs();
    assertEquals(PackedRun.of(PackedRun.HAS_ARGS, 3, 0), g.beforeSessionRun(null, null, 3, false));
    g.takeArgs();
    // next run: a and c repeat their one name (bits 0 and 2); d's list is returned again
    long r = g.beforeSessionRun(original, null, 0, false);
    assertEquals(PackedRun.of(PackedRun.HAS_ARGS, 3, 0b101L), r);
    assertEquals(List.of("x:0"), g.takeArgs().fetches());
    g.forget();
    assertEquals(
        PackedRun.of(PackedRun.HAS_ARGS, 0, 0), g.beforeSessionRun(original, null, 0, false));
    assertEquals(
        List.of(
            "a.before",
            "b.before",
            "c.before",
            "d.before",
            "a.before",
            "b.before",
            "c.before",
            "d.before",
            "a.before"),
        LOG);
  }

  @Test
  public void aSingleHookRepeatingOneFetchNameIsFlaggedAndItsArgsNotKept() {
    JavaHookCalls calls = new JavaHookCalls(new Logging("a", SessionRunArgs.of("x:0")));
    SessionRunContext context = new SessionRunContext(SessionRunArgs.of(null), null);
    assertEquals(JavaHookCalls.HAS_ARGS, calls.beforeSessionRun(context));
    assertEquals("x:0", calls.takeArgs().fetches());
    assertEquals(JavaHookCalls.HAS_ARGS | JavaHookCalls.REPEATED, calls.beforeSessionRun(context));
    assertNull(calls.takeArgs());
    JavaHookCalls lists = new JavaHookCalls(new Logging("b", SessionRunArgs.of(List.of("x:0"))));
    for (int i = 0; i < 2; i++) {
      assertEquals(JavaHookCalls.HAS_ARGS, lists.beforeSessionRun(context));
      assertEquals(List.of("x:0"), lists.takeArgs().fetches());
    }
  }

  @Test
  public void aRunStartsWithANewContextThatEveryHookOfTheRunGets() {
    List<SessionRunContext> seen = new ArrayList<>();
    Hook recording =
        new Hook() {
          @Override
          public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
            seen.add(runContext);
            return null;
          }

          @Override
          public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
            seen.add(runContext);
          }
        };
    JavaHookGroup g = group(recording, recording);
    SessionRunArgs original = SessionRunArgs.of("train");
    long r = g.beforeSessionRun(original, null, 0, false);
    assertEquals(2, PackedRun.index(r));
    assertSame(original, g.context().originalArgs());
    g.afterSessionRunPacked(null, new int[] {-1, -1}, null, 2, false);
    SessionRunContext first = g.context();
    g.beforeSessionRun(original, null, 0, false);
    assertEquals(List.of(first, first, first, first, g.context(), g.context()), seen);
    assertTrue(first != g.context());
    SessionRunContext shared = new SessionRunContext(original, null);
    g.beforeSessionRunIn(shared, 0, false);
    assertSame(shared, seen.get(seen.size() - 1));
  }

  @Test
  public void packedValuesGoToTheirHooksAndHooksOfOneValueShareIt() {
    LOG.clear();
    List<SessionRunValues> seen = new ArrayList<>();
    Hook keeping =
        new Hook() {
          @Override
          public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
            seen.add(runValues);
          }
        };
    JavaHookGroup g = group(keeping, keeping, keeping, keeping);
    g.beforeSessionRun(SessionRunArgs.of(null), null, 0, false);
    SessionRunValues[] two = {
      new SessionRunValues(NdArrays.scalarOf(7L), null, null),
      new SessionRunValues(NdArrays.scalarOf(2.5f), null, null)
    };
    RunOptions options = RunOptions.ofTraceLevel(0);
    g.afterSessionRunPacked(PackedRun.values(two), new int[] {1, -1, 0, 1}, options, 4, false);
    assertEquals(2.5f, ((FloatNdArray) seen.get(0).results()).getFloat(), 0f);
    assertNull(seen.get(1).results());
    assertEquals(7L, ((LongNdArray) seen.get(2).results()).getLong());
    assertSame(seen.get(0), seen.get(3));
    assertSame(options, seen.get(1).options());
  }

  @Test
  public void aPythonCoordinatorStopReachesEveryJavaCoordinatorFirst() {
    List<Boolean> seen = new ArrayList<>();
    Coordinator a = new Coordinator();
    Coordinator b = new Coordinator();
    Hook watching =
        new Hook() {
          @Override
          public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
            seen.add(b.shouldStop());
            return null;
          }
        };
    JavaHookCalls first = new JavaHookCalls(watching);
    first.setCoordinator(a);
    JavaHookCalls second = new JavaHookCalls(new Default());
    second.setCoordinator(b);
    JavaHookGroup g = new JavaHookGroup(new JavaHookCalls[] {first, second});
    long r = g.beforeSessionRun(SessionRunArgs.of(null), null, 0, true);
    assertEquals(List.of(true), seen);
    assertEquals(PackedRun.COORDINATOR_STOP, r & PackedRun.COORDINATOR_STOP);
    assertTrue(a.shouldStop());
  }
}
