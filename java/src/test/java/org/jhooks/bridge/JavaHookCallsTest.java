package org.jhooks.bridge;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.junit.Test;

public class JavaHookCallsTest {
  static class AfterOnly implements Hook {
    final List<String> calls = new ArrayList<>();

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      calls.add("after");
      runContext.requestStop();
    }
  }

  static class Fetching extends AfterOnly {
    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      calls.add("before");
      return SessionRunArgs.of("x:0");
    }
  }

  @Test
  public void overridesTellsTheDefaultNoOpsApart() {
    assertFalse(JavaHookCalls.overrides(new AfterOnly(), "beforeSessionRun"));
    assertTrue(JavaHookCalls.overrides(new AfterOnly(), "afterSessionRun"));
    assertTrue(JavaHookCalls.overrides(new Fetching(), "beforeSessionRun"));
    assertFalse(JavaHookCalls.overrides(new Hook() {}, "afterSessionRun"));
  }

  @Test
  public void callsReturnTheStopFlagsAndHandOverArgsOnce() {
    Fetching hook = new Fetching();
    JavaHookCalls calls = new JavaHookCalls(hook);
    Coordinator coord = new Coordinator();
    calls.setCoordinator(coord);
    SessionRunContext context = new SessionRunContext(SessionRunArgs.of(null), null);
    assertEquals(JavaHookCalls.HAS_ARGS, calls.beforeSessionRun(context));
    assertEquals("x:0", calls.takeArgs().fetches());
    assertNull(calls.takeArgs());
    assertEquals(
        JavaHookCalls.CONTEXT_STOP,
        calls.afterSessionRun(context, new SessionRunValues(null, null, null)));
    coord.requestStop();
    assertEquals(JavaHookCalls.COORDINATOR_STOP, calls.flags(null));
    assertEquals(List.of("before", "after"), hook.calls);
  }

  @Test
  public void runContextIdsAreStablePerContextAndResolveBack() {
    SessionRunContext a = new SessionRunContext(SessionRunArgs.of(null), null);
    SessionRunContext b = new SessionRunContext(SessionRunArgs.of(null), null);
    long ia = RunContextIds.idOf(a);
    long ib = RunContextIds.idOf(b);
    assertTrue(ia != ib);
    assertEquals(ia, RunContextIds.idOf(a));
    assertSame(a, RunContextIds.context(ia));
    assertSame(b, RunContextIds.context(ib));
  }
}
