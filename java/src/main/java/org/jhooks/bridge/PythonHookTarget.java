package org.jhooks.bridge;

import org.jhooks.Coordinator;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunValues;

/**
 * What the JPype proxy of a Python hook implements: {@link org.jhooks.Hook}'s callbacks, with the
 * run context passed as its {@link RunContextIds} id, so the Python side finds its view of the
 * context with an integer lookup instead of Java calls. When the context is the one whose id last
 * crossed on this thread (every hook of a run but the first), the {@code ...SameContext} variants
 * carry no id at all: every argument JPype converts costs about as much as the call itself. {@link
 * PythonHook} and {@link PythonModelDependentHook} translate, through {@link RunContextIds#before}
 * and {@link RunContextIds#after}; see docs/bridge.md, "Crossing costs".
 */
public interface PythonHookTarget {
  void begin();

  void beginSession();

  void afterCreateSession(Session session, Coordinator coord);

  /** The hook's {@code beforeSessionRun} for the context {@link RunContextIds#context(long) id}. */
  SessionRunArgs beforeSessionRun(long contextId);

  /** {@link #beforeSessionRun(long)} for the context whose id last crossed on this thread. */
  SessionRunArgs beforeSessionRunSameContext();

  /**
   * {@link #beforeSessionRun(long)} for the context whose id is the one that last crossed on this
   * thread plus one: a new run's context, the usual case (no argument to convert).
   */
  SessionRunArgs beforeSessionRunNext();

  /** The hook's {@code afterSessionRun} for the context {@link RunContextIds#context(long) id}. */
  void afterSessionRun(long contextId, SessionRunValues runValues);

  /**
   * {@link #afterSessionRun(long, SessionRunValues)} for the context whose id last crossed on this
   * thread.
   */
  void afterSessionRunSameContext(SessionRunValues runValues);

  /**
   * {@link #afterSessionRunSameContext} when the results are one small array and there are no
   * options nor metadata: the array packed by {@link NumpyArrays#packed} ({@link
   * RunContextIds#after}), so Python reads the values without calling back into Java.
   */
  void afterSessionRunPacked(byte[] packedResults);

  void end(Session session);

  /** The hook's {@code onError(session, error)}; the error as Python sees it. */
  void onError(Session session, Throwable error);

  /** The hook's {@code close()} if it has one (the saver hooks), else nothing. */
  void close();
}
