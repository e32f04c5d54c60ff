package org.jhooks.bridge;

import org.jhooks.Coordinator;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunValues;

/**
 * What the JPype proxy of a Python hook implements: {@link org.jhooks.Hook}'s callbacks, with the
 * run context passed as its {@link RunContextIds} id, so the Python side finds its view of the
 * context with an integer lookup instead of Java calls. {@link PythonHook} and {@link
 * PythonModelDependentHook} translate; see docs/bridge.md, "Crossing costs".
 */
public interface PythonHookTarget {
  void begin();

  void beginSession();

  void afterCreateSession(Session session, Coordinator coord);

  /** The hook's {@code beforeSessionRun} for the context {@link RunContextIds#context(long) id}. */
  SessionRunArgs beforeSessionRun(long contextId);

  /** The hook's {@code afterSessionRun} for the context {@link RunContextIds#context(long) id}. */
  void afterSessionRun(long contextId, SessionRunValues runValues);

  void end(Session session);
}
