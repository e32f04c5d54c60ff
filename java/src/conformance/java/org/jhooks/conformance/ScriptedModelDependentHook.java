package org.jhooks.conformance;

import com.google.gson.JsonObject;
import org.jhooks.Coordinator;
import org.jhooks.ModelDependentHook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * A {@link ModelDependentHook} scripted like {@link ScriptedHook}; records its model instance on
 * request.
 */
public final class ScriptedModelDependentHook extends ModelDependentHook {
  private final ScriptedHook script;

  public ScriptedModelDependentHook(JsonObject spec, Recorder recorder) {
    this.script = new ScriptedHook(spec, recorder, this::modelInstance);
  }

  @Override
  public void begin() {
    script.begin();
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    script.afterCreateSession(session, coord);
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return script.beforeSessionRun(runContext);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    script.afterSessionRun(runContext, runValues);
  }

  @Override
  public void end(Session session) {
    script.end(session);
  }

  @Override
  public void onError(Session session, Throwable error) {
    script.onError(session, error);
  }

  @Override
  public String toString() {
    return "ScriptedModelDependentHook(" + script.name() + ")";
  }
}
