package org.jhooks.bench;

import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * A hook whose callbacks do nothing: what the benchmarks count the driver/bridge overhead with.
 * Every callback is overridden (empty) on purpose: the bridge skips the crossing for per-run
 * callbacks a hook does not override, and the benchmarks must measure real crossings.
 */
public final class NoOpHook implements Hook {
  @Override
  public void begin() {}

  @Override
  public void beginSession() {}

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {}

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return null;
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {}

  @Override
  public void end(Session session) {}
}
