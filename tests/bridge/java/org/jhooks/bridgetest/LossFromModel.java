package org.jhooks.bridgetest;

import org.jhooks.ModelDependentHook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/** Fetches the model's loss and logs it as "model.afterSessionRun ...". */
public class LossFromModel extends ModelDependentHook {
  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return SessionRunArgs.of(modelInstance().loss());
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    RecordingHook.LOG.add("model.afterSessionRun " + RecordingHook.describe(runValues.results()));
  }
}
