package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.testing.CounterGraph;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArrays;

/**
 * {@link MonitoredSession} driving consecutive {@link HookBatch.Batchable} hooks through one batch:
 * everything observable is as with each hook alone.
 */
public class HookBatchTest {
  private final List<String> calls = new ArrayList<>();

  /**
   * A batch of Java hooks as the bridge's groups make them: in order, back at each hook with new
   * args, one-name args that repeat the last accepted ones reported, not returned.
   */
  static final class InOrderBatch implements HookBatch {
    final List<Hook> hooks;
    final String[] last;
    int position = -1;
    int beforeCalls;
    int forgets;

    InOrderBatch(List<Hook> hooks) {
      this.hooks = hooks;
      this.last = new String[hooks.size()];
    }

    @Override
    public Before beforeSessionRun(SessionRunContext context, int start) {
      beforeCalls++;
      long repeated = 0;
      for (int i = start; i < hooks.size(); i++) {
        position = i;
        SessionRunArgs a = hooks.get(i).beforeSessionRun(context);
        if (a == null) {
          continue;
        }
        String one =
            a.fetches() instanceof String && a.feeds().isEmpty() && a.options() == null
                ? (String) a.fetches()
                : null;
        if (one != null && one.equals(last[i])) {
          repeated |= 1L << i;
          continue;
        }
        last[i] = one;
        return new Before(i, a, repeated);
      }
      return new Before(hooks.size(), null, repeated);
    }

    @Override
    public void afterSessionRun(SessionRunContext context, SessionRunValues[] values) {
      for (int i = 0; i < values.length; i++) {
        position = i;
        hooks.get(i).afterSessionRun(context, values[i]);
      }
    }

    @Override
    public int position() {
      return position;
    }

    @Override
    public void forget() {
      forgets++;
      java.util.Arrays.fill(last, null);
    }
  }

  /** Records its callbacks; fetches {@code fetch} (or nothing); may join a batch. */
  static class Member extends RecordingHook implements HookBatch.Batchable {
    final String fetch;
    final HookBatch.Factory factory;

    Member(List<String> calls, String name, String fetch, HookBatch.Factory factory) {
      super(calls, name + ".");
      this.fetch = fetch;
      this.factory = factory;
    }

    @Override
    SessionRunArgs fetches(SessionRunContext runContext) {
      return fetch == null ? null : SessionRunArgs.of(fetch);
    }

    @Override
    void afterRecorded(SessionRunContext runContext, long step) {
      Object r = lastValues.results();
      calls.add(prefix + "got:" + (r == null ? "null" : ((FloatNdArray) r).getFloat()));
    }

    @Override
    public HookBatch.Factory batchFactory() {
      return factory;
    }
  }

  private final List<InOrderBatch> made = new ArrayList<>();
  private final HookBatch.Factory factory =
      hooks -> {
        InOrderBatch b = new InOrderBatch(hooks);
        made.add(b);
        return b;
      };

  private List<Hook> hooks(HookBatch.Factory f, String... fetches) {
    List<Hook> out = new ArrayList<>();
    for (int i = 0; i < fetches.length; i++) {
      out.add(new Member(calls, "h" + i, fetches[i], f));
    }
    return out;
  }

  private List<String> run(List<Hook> hooks, int runs) {
    calls.clear();
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).hooks(hooks).build()) {
      for (int i = 0; i < runs; i++) { // x fed: what the hooks fetch depends on nothing else
        s.run(SessionRunArgs.of(CounterGraph.TRAIN, Map.of("x:0", NdArrays.scalarOf(i + 1f))));
      }
    }
    return new ArrayList<>(calls);
  }

  @Test
  public void batchedHooksSeeWhatTheySeeAlone() {
    String[] fetches = {"double:0", null, "sqrt_x:0", "double:0"};
    List<String> alone = run(hooks(null, fetches), 3);
    List<String> batched = run(hooks(factory, fetches), 3);
    assertEquals(alone, batched);
    assertEquals(1, made.size());
    // run 1 stops at each of the three hooks with args, later runs repeat them: once per run
    assertEquals(3 + 1 + 1, made.get(0).beforeCalls);
  }

  @Test
  public void onlyConsecutiveHooksWithTheSameFactoryAreBatched() {
    HookBatch.Factory other = hooks -> new InOrderBatch(hooks);
    List<Hook> hooks = hooks(factory, "double:0", "double:0");
    hooks.add(new Member(calls, "x", null, other));
    hooks.addAll(hooks(factory, (String) null));
    run(hooks, 1);
    assertEquals(1, made.size());
    assertEquals(2, made.get(0).hooks.size());
  }

  @Test
  public void aBadNameStopsTheBatchAtItsHookAndForgetsTheArgs() {
    List<Hook> hooks = hooks(factory, "double:0", "no_such:0", "sqrt_x:0");
    GraphNameException e = assertThrows(GraphNameException.class, () -> run(hooks, 1));
    assertTrue(e.getMessage(), e.getMessage().contains("hook #2"));
    assertTrue(calls.contains("h1.before:0"));
    assertTrue(calls.toString(), calls.stream().noneMatch(c -> c.startsWith("h2.before")));
    assertEquals(1, made.get(0).forgets);
  }

  @Test
  public void anExceptionLeavesAsFromTheHookThatRaisedIt() {
    List<Hook> hooks = hooks(factory, "double:0", "sqrt_x:0");
    hooks.set(
        1,
        new Member(calls, "h1", "sqrt_x:0", factory) {
          @Override
          void afterRecorded(SessionRunContext runContext, long step) {
            throw new IllegalStateException("boom");
          }
        });
    hooks.addAll(hooks(factory, "double:0"));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(hooks, 1));
    HookException where = (HookException) e.getSuppressed()[0];
    assertTrue(where.getMessage(), where.getMessage().contains("hook #2"));
    assertEquals("afterSessionRun", where.callback());
    assertTrue(calls.toString(), calls.stream().noneMatch(c -> c.startsWith("h2.after")));
  }

  @Test
  public void aRawRunOfAMissingNameInABatchedHookNamesThatHook() {
    List<Hook> hooks = hooks(factory, null, null);
    hooks.set(
        1,
        new Member(calls, "h1", null, factory) {
          @Override
          public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
            runContext.session().run("no_such:0");
            return null;
          }
        });
    GraphNameException e = assertThrows(GraphNameException.class, () -> run(hooks, 1));
    assertTrue(e.getMessage(), e.getMessage().contains("hook #2"));
  }
}
