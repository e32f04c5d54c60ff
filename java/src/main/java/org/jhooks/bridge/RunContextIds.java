package org.jhooks.bridge;

import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * A process-wide number for each {@link SessionRunContext} a Python hook is called with, so the
 * Python side keys its views by a {@code long} (no Java call per callback). Weak: an id does not
 * keep its context alive; {@link #context} returns null once it is collected.
 */
public final class RunContextIds {
  private static final Map<SessionRunContext, Long> IDS = new WeakHashMap<>();
  private static final Map<Long, WeakReference<SessionRunContext>> CONTEXTS = new HashMap<>();
  private static final ThreadLocal<long[]> SENT = ThreadLocal.withInitial(() -> new long[1]);
  private static long next = 1;
  private static SessionRunContext last;
  private static long lastId;

  private RunContextIds() {}

  /**
   * The id of {@code context}, the same for the same object (identity); new contexts get new ids.
   */
  public static synchronized long idOf(SessionRunContext context) {
    if (context == last) {
      return lastId;
    }
    Long id = IDS.get(context);
    if (id == null) {
      id = next++;
      IDS.put(context, id);
      CONTEXTS.put(id, new WeakReference<>(context));
      if (CONTEXTS.size() > 2 * IDS.size() + 64) {
        CONTEXTS.values().removeIf(r -> r.get() == null);
      }
    }
    last = context;
    lastId = id;
    return id;
  }

  /** The context with this id, or null when it was collected (or never had one). */
  public static synchronized SessionRunContext context(long id) {
    WeakReference<SessionRunContext> r = CONTEXTS.get(id);
    return r == null ? null : r.get();
  }

  /**
   * Calls {@code target.beforeSessionRun} for {@code context}: with its id, or without when its id
   * is the last one that crossed on this thread. An id counts as crossed only when the call
   * returned normally (the Python side records it on entry).
   */
  public static SessionRunArgs before(PythonHookTarget target, SessionRunContext context) {
    long id = idOf(context);
    long[] sent = SENT.get();
    if (sent[0] == id) {
      return target.beforeSessionRunSameContext();
    }
    sent[0] = 0;
    SessionRunArgs args = target.beforeSessionRun(id);
    sent[0] = id;
    return args;
  }

  /** {@link #before}'s twin for {@code afterSessionRun}. */
  public static void after(
      PythonHookTarget target, SessionRunContext context, SessionRunValues values) {
    long id = idOf(context);
    long[] sent = SENT.get();
    if (sent[0] == id) {
      target.afterSessionRunSameContext(values);
      return;
    }
    sent[0] = 0;
    target.afterSessionRun(id, values);
    sent[0] = id;
  }
}
