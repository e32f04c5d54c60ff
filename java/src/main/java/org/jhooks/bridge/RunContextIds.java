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
 *
 * <p>An id also tells which session the context has: bits {@link #SESSION_SHIFT} and up hold a
 * number that is the same as the previous new context's when the session is the same object, and
 * {@code 0} for a context without a session; so Python reuses its view of the last run's session
 * without asking Java for it.
 */
public final class RunContextIds {
  /** The bits of an id below this count contexts; the bits above number sessions. */
  public static final int SESSION_SHIFT = 40;

  private static final Map<SessionRunContext, Long> IDS = new WeakHashMap<>();
  private static final Map<Long, WeakReference<SessionRunContext>> CONTEXTS = new HashMap<>();
  private static final ThreadLocal<long[]> SENT = ThreadLocal.withInitial(() -> new long[1]);
  private static long next = 1;
  private static SessionRunContext last;
  private static long lastId;
  private static WeakReference<Object> lastSession = new WeakReference<>(null);
  private static long sessions;
  private static long lastSessionNumber;

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
      id = next++ | sessionNumber(context.session()) << SESSION_SHIFT;
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

  // The number of a session: the last new context's when it is the same object, else the next one
  // (ids stay positive: 23 bits, then from 1 again).
  private static long sessionNumber(Object session) {
    if (session == null) {
      return 0;
    }
    if (session != lastSession.get()) {
      lastSession = new WeakReference<>(session);
      lastSessionNumber = ++sessions & (1L << (Long.SIZE - 1 - SESSION_SHIFT)) - 1;
      if (lastSessionNumber == 0) {
        lastSessionNumber = sessions = 1;
      }
    }
    return lastSessionNumber;
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
   * is the last one that crossed on this thread, or that one plus one. An id counts as crossed only
   * when the call returned normally (the Python side records it on entry). Each argument a proxy
   * call converts costs more than the call itself (docs/bridge.md, "Crossing costs").
   */
  public static SessionRunArgs before(PythonHookTarget target, SessionRunContext context) {
    try {
      long id = idOf(context);
      long[] sent = SENT.get();
      long last = sent[0];
      if (last == id) {
        return target.beforeSessionRunSameContext();
      }
      sent[0] = 0;
      SessionRunArgs args =
          follows(id, last) ? target.beforeSessionRunNext() : target.beforeSessionRun(id);
      sent[0] = id;
      return args;
    } finally {
      Reference.reachabilityFence(context); // Python looks it up by id: alive until it returned
    }
  }

  /**
   * Whether {@code id} is the id that crossed last on this thread ({@code last}, 0 for none) plus
   * one, so Python finds it without being passed it: a new run's context usually is.
   */
  static boolean follows(long id, long last) {
    return last != 0 && id == last + 1;
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
