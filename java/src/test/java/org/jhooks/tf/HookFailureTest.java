package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunArgsException;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.testing.CounterGraph;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.exceptions.TFOutOfRangeException;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;

/**
 * What leaves a Java hook's callback in the JVM driver (docs/contract.md, "End of input: only the
 * caller's own run"): end of input raised by a hook, invalid args and unknown names are {@link
 * HookException}s naming the hook and callback, the original kept as the cause; a Java Error
 * propagates as itself with a suppressed HookException naming them.
 */
public class HookFailureTest {
  /** Runs {@code action} in {@code afterSessionRun} of its second run and records its calls. */
  static final class Acting implements Hook {
    final Function<SessionRunContext, Object> action;
    final List<String> calls = new ArrayList<>();
    int runs;

    Acting(Function<SessionRunContext, Object> action) {
      this.action = action;
    }

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      runs++;
      calls.add("before@" + runs);
      return null;
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      calls.add("after@" + runs);
      if (runs == 2) {
        action.apply(runContext);
      }
    }

    @Override
    public void end(Session session) {
      calls.add("end");
    }
  }

  private static RuntimeException failure(Hook hook, Graph g, int runs) {
    MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build();
    return assertThrows(
        RuntimeException.class,
        () -> {
          try (MonitoredSession session = s) {
            for (int i = 0; i < runs && !session.shouldStop(); i++) {
              assertTrue(session.run("next:0") != null);
            }
          }
        });
  }

  @Test
  public void anEndOfInputThrownByAHookIsAnErrorNamingItNotTheEndOfInput() {
    Acting hook =
        new Acting(
            c -> {
              throw ErrorCodes.exceptionFor(ErrorCodes.Code.OUT_OF_RANGE, "the hook ran out");
            });
    try (Graph g = CounterGraph.counterWithInput(5)) {
      RuntimeException e = failure(hook, g, 5);
      assertTrue(e.toString(), e instanceof HookException);
      HookException h = (HookException) e;
      assertEquals("hook #1 (" + Acting.class.getName() + ")", h.hook());
      assertEquals("afterSessionRun", h.callback());
      assertTrue(h.getMessage(), h.getMessage().contains("end of input"));
      assertTrue(h.getCause() instanceof TFOutOfRangeException);
      assertEquals(List.of("before@1", "after@1", "before@2", "after@2"), hook.calls); // no end
    }
  }

  @Test
  public void anEndOfInputInAHooksRawRunIsAnErrorNamingIt() {
    Acting hook = new Acting(c -> c.session().run("next:0", Map.of(), null));
    try (Graph g = CounterGraph.counterWithInput(2)) {
      // runs 1 and 2 take the two elements; the hook's raw run after run 2 finds none
      RuntimeException e = failure(hook, g, 5);
      assertTrue(e.toString(), e instanceof HookException);
      assertEquals("afterSessionRun", ((HookException) e).callback());
      assertTrue(e.getCause() instanceof TFOutOfRangeException);
      assertFalse(hook.calls.contains("end"));
    }
  }

  @Test
  public void theCallersOwnEndOfInputStillEndsTheInput() {
    Acting hook = new Acting(c -> null);
    try (Graph g = CounterGraph.counterWithInput(2)) {
      int runs = 0;
      MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build();
      try (s) {
        while (!s.shouldStop()) {
          runs++;
          s.run("next:0");
        }
      }
      assertEquals(3, runs);
      assertTrue(s.reachedEndOfInput());
      assertEquals("end", hook.calls.get(hook.calls.size() - 1));
    }
  }

  @Test
  public void aJavaErrorFromAHookPropagatesAsItselfNamingTheHookAndCallback() {
    Acting overflow = new Acting(c -> recurse(0));
    Acting memory = new Acting(c -> new long[Integer.MAX_VALUE]);
    Acting direct =
        new Acting(
            c -> {
              throw new OutOfMemoryError("Direct buffer memory"); // as java.nio.Bits throws it
            });
    Logger logger = Logger.getLogger(MonitoredSession.class.getName());
    List<LogRecord> records = new ArrayList<>();
    Handler handler =
        new Handler() {
          @Override
          public synchronized void publish(LogRecord r) {
            records.add(r);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(handler);
    try {
      for (Acting hook : List.of(overflow, memory, direct)) {
        records.clear();
        try (Graph g = CounterGraph.counterWithInput(5)) {
          MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build();
          Error e =
              assertThrows(
                  Error.class,
                  () -> {
                    try (MonitoredSession session = s) {
                      for (int i = 0; i < 5; i++) {
                        session.run("next:0");
                      }
                    }
                  });
          assertTrue(
              e.toString(),
              hook == overflow ? e instanceof StackOverflowError : e instanceof OutOfMemoryError);
          String named = "hook #1 (" + Acting.class.getName() + ").afterSessionRun: raised ";
          // the JVM's own errors cannot take a suppressed exception (addSuppressed does nothing)
          assertEquals(e.toString(), hook == direct ? 1 : 0, e.getSuppressed().length);
          if (hook == direct) {
            HookException where = (HookException) e.getSuppressed()[0];
            assertEquals("hook #1 (" + Acting.class.getName() + ")", where.hook());
            assertEquals("afterSessionRun", where.callback());
            assertEquals(named + e.getClass().getName(), where.getMessage());
          }
          assertEquals(List.of("before@1", "after@1", "before@2", "after@2"), hook.calls);
          assertEquals(1, records.size());
          assertEquals(Level.SEVERE, records.get(0).getLevel());
          assertEquals(named + e.getClass().getName(), records.get(0).getMessage());
          assertEquals(e, records.get(0).getThrown());
        }
      }
    } finally {
      logger.removeHandler(handler);
    }
  }

  private static int recurse(int depth) {
    return recurse(depth + 1) + 1;
  }

  @Test
  public void invalidArgsAndUnknownNamesNameTheHookCallbackAndValue() {
    Map<String, NdArray<?>> nullKey = new HashMap<>();
    nullKey.put(null, NdArrays.scalarOf(1f));
    Map<String, Function<SessionRunContext, Object>> cases = new java.util.LinkedHashMap<>();
    cases.put("Integer 3", c -> SessionRunArgs.of(3));
    cases.put("null", c -> SessionRunArgs.of(null, nullKey));
    cases.put("'double:5'", c -> c.session().run("double:5", Map.of(), null));
    cases.put("'nope'", c -> c.session().run("nope", Map.of(), null));
    for (Map.Entry<String, Function<SessionRunContext, Object>> each : cases.entrySet()) {
      try (Graph g = CounterGraph.counterWithInput(5)) {
        RuntimeException e = failure(new Acting(each.getValue()), g, 5);
        assertTrue(e.toString(), e instanceof HookException);
        assertEquals("afterSessionRun", ((HookException) e).callback());
        assertTrue(e.getMessage(), e.getMessage().contains(Acting.class.getName()));
        assertTrue(e.getMessage(), e.getMessage().contains(each.getKey()));
      }
    }
  }

  @Test
  public void aFetchPastTheOpsOutputsIsAGraphNameExceptionBeforeTheRun() {
    Hook asking =
        new Hook() {
          @Override
          public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
            return SessionRunArgs.of("double:5");
          }
        };
    try (Graph g = CounterGraph.counterWithInput(5)) {
      RuntimeException e = failure(asking, g, 5);
      assertTrue(e.toString(), e instanceof GraphNameException);
      assertTrue(e.getMessage(), e.getMessage().contains("op 'double' has 1 output(s)"));
    }
  }

  @Test
  public void sessionRunArgsNameTheBadValue() {
    Map<String, NdArray<?>> nullKey = new HashMap<>();
    nullKey.put(null, NdArrays.scalarOf(1f));
    assertTrue(
        assertThrows(SessionRunArgsException.class, () -> SessionRunArgs.of(null, nullKey))
            .getMessage()
            .contains("got null"));
    @SuppressWarnings({"rawtypes", "unchecked"})
    Map<String, NdArray<?>> notArray = (Map) Map.of("x:0", 2.5f);
    assertTrue(
        assertThrows(SessionRunArgsException.class, () -> SessionRunArgs.of(null, notArray))
            .getMessage()
            .contains("java.lang.Float 2.5"));
    assertTrue(
        assertThrows(SessionRunArgsException.class, () -> SessionRunArgs.of(List.of("a:0", 3)))
            .getMessage()
            .contains("Integer 3"));
  }

  @Test
  public void aHookExceptionMadeWithoutCauseTakesOneLater() {
    HookException e = new HookException("h", "end", "x");
    IllegalStateException cause = new IllegalStateException("original");
    e.initCause(cause);
    assertEquals(cause, e.getCause());
  }
}
