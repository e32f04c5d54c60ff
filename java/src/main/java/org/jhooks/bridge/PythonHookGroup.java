package org.jhooks.bridge;

import java.lang.ref.Reference;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.tf.HookBatch;

/**
 * The per-run callbacks of consecutive Python hooks in a JVM-driven session, one crossing into
 * Python per callback for the whole group instead of one per hook: the {@link HookBatch} that
 * {@link org.jhooks.tf.MonitoredSession} drives as one unit, the twin of {@link JavaHookGroup}.
 *
 * <p>Python calls the hooks in order ({@code jhooks.bridge}'s group proxy, a {@link
 * PythonHookGroupTarget}), exactly as separate {@link PythonHook} calls would: a hook that does not
 * override a callback is skipped; an exception stops the loop at that hook ({@link #position()});
 * {@code beforeSessionRun} returns at each hook with new args so the driver checks them before the
 * next hook is called. A hook that returns again the one fetch name (no feeds, no options) it
 * returned last time does not stop the loop: the driver uses the args it accepted then. Used from
 * one thread (the session's).
 */
public final class PythonHookGroup implements HookBatch {
  /** What Python implements to make the Python side of a group: its hooks by their keys. */
  public interface Maker {
    /** The group proxy of the Python hooks whose {@link PythonHook#key()} are {@code keys}. */
    PythonHookGroupTarget group(long[] keys);
  }

  /**
   * The batch factory of the Python hooks whose Python side is {@code maker}. Hooks are grouped
   * when they offer the same factory object: the Python side hands one to every Python hook it
   * makes.
   */
  public static final class Factory implements HookBatch.Factory {
    private final Maker maker;

    public Factory(Maker maker) {
      this.maker = maker;
    }

    @Override
    public HookBatch batch(List<Hook> hooks) {
      PythonHook[] members = new PythonHook[hooks.size()];
      long[] keys = new long[members.length];
      for (int i = 0; i < members.length; i++) {
        members[i] = PythonHook.of(hooks.get(i));
        keys[i] = members[i].key();
      }
      return new PythonHookGroup(members, maker.group(keys));
    }
  }

  private final PythonHookGroupTarget target;
  private long lastNext = -1; // what beforeSessionRunNext last returned (-1: nothing yet)
  private final int size;
  private final boolean anyBefore;
  private final boolean anyAfter;

  private PythonHookGroup(PythonHook[] members, PythonHookGroupTarget target) {
    this.target = target;
    this.size = members.length;
    boolean before = false;
    boolean after = false;
    for (PythonHook h : members) {
      before |= h.callsBefore();
      after |= h.callsAfter();
    }
    this.anyBefore = before;
    this.anyAfter = after;
  }

  @Override
  public Before beforeSessionRun(SessionRunContext context, int start) {
    if (!anyBefore) {
      return new Before(size, null, 0);
    }
    try {
      long id = RunContextIds.idOf(context);
      long[] sent = RunContextIds.sent();
      long last = sent[0];
      long result;
      if (last == id) {
        result = target.beforeSessionRunSameContext(start);
      } else {
        sent[0] = 0;
        if (start == 0 && RunContextIds.follows(id, last)) {
          Long got = target.beforeSessionRunNext();
          result = got == null ? lastNext : (lastNext = got);
        } else {
          result = target.beforeSessionRun(id, start);
        }
        sent[0] = id;
      }
      SessionRunArgs args = (result & PackedRun.HAS_ARGS) != 0 ? target.takeArgs() : null;
      return new Before(PackedRun.index(result), args, PackedRun.repeated(result));
    } finally {
      Reference.reachabilityFence(context); // Python looks it up by id (RunContextIds)
    }
  }

  @Override
  public void afterSessionRun(SessionRunContext context, SessionRunValues[] values) {
    if (!anyAfter) {
      return;
    }
    try {
      long id = RunContextIds.idOf(context);
      long[] sent = RunContextIds.sent();
      byte[] packed = sent[0] == id ? PackedRun.values(values) : null;
      if (packed != null) {
        target.afterSessionRunPacked(packed);
        return;
      }
      sent[0] = 0;
      target.afterSessionRun(id, values);
      sent[0] = id;
    } finally {
      Reference.reachabilityFence(context); // Python looks it up by id (RunContextIds)
    }
  }

  @Override
  public int position() {
    return target.position();
  }

  @Override
  public void forget() {
    target.forget();
    lastNext = -1;
  }
}
