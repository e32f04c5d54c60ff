package org.jhooks.bridge;

import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

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

  /**
   * This thread's record of the id that last crossed (element 0; 0 for none): a caller that passes
   * an id sets it to 0 before the call and to the id when the call returned normally.
   */
  static long[] sent() {
    return SENT.get();
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
    try {
      long id = idOf(context);
      long[] sent = SENT.get();
      if (sent[0] == id) {
        return target.beforeSessionRunSameContext();
      }
      sent[0] = 0;
      SessionRunArgs args = target.beforeSessionRun(id);
      sent[0] = id;
      return args;
    } finally {
      Reference.reachabilityFence(context); // Python looks it up by id: alive until it returned
    }
  }

  /** {@link #before}'s twin for {@code afterSessionRun}. */
  public static void after(
      PythonHookTarget target, SessionRunContext context, SessionRunValues values) {
    try {
      long id = idOf(context);
      long[] sent = SENT.get();
      if (sent[0] == id) {
        byte[] packed = packed(values);
        if (packed != null) {
          target.afterSessionRunPacked(packed);
        } else {
          target.afterSessionRunSameContext(values);
        }
        return;
      }
      sent[0] = 0;
      target.afterSessionRun(id, values);
      sent[0] = id;
    } finally {
      Reference.reachabilityFence(context); // Python looks it up by id: alive until it returned
    }
  }

  /**
   * Values of at most this many bytes cross packed ({@code jhooks.bridge.convert.arrays}' twin).
   */
  static final int PACKED_MAX_BYTES = 1024;

  /**
   * The results of {@code values} packed by {@link NumpyArrays#packed} when they are one small
   * numeric array and there are no options nor metadata, else null (also for a dtype jhooks does
   * not move: the unpacked path then reports it as before).
   */
  static byte[] packed(SessionRunValues values) {
    if (values.options() != null
        || values.runMetadata() != null
        || !(values.results() instanceof NdArray)) {
      return null;
    }
    try {
      return NumpyArrays.packed((NdArray<?>) values.results(), PACKED_MAX_BYTES);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
