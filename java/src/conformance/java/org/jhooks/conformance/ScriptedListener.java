package org.jhooks.conformance;

import com.google.gson.JsonObject;
import java.util.HashSet;
import java.util.Set;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.SaveDecision;
import org.jhooks.Session;

/**
 * A listener recording {@code <name>.begin}, {@code beforeSave@step}, {@code afterSave@step} and
 * {@code end@step}; {@code decideSave} returns {@link SaveDecision#SKIP} at the steps of {@code
 * skipSaveAt}; {@code afterSave} returns true at {@code stopAfterSaveAt} and throws at {@code
 * raiseInAfterSave.atStep}. Twin of Python's {@code ScriptedListener}.
 */
public final class ScriptedListener implements CheckpointSaverListener {
  private final String name;
  private final Long stopAt;
  private final Set<Long> skipAt = new HashSet<>();
  private final JsonObject raise;
  private final Recorder recorder;

  public ScriptedListener(JsonObject spec, Recorder recorder) {
    this.name = spec.get("name").getAsString();
    this.stopAt = spec.has("stopAfterSaveAt") ? spec.get("stopAfterSaveAt").getAsLong() : null;
    this.raise = spec.has("raiseInAfterSave") ? spec.getAsJsonObject("raiseInAfterSave") : null;
    if (spec.has("skipSaveAt")) {
      spec.getAsJsonArray("skipSaveAt").forEach(step -> skipAt.add(step.getAsLong()));
    }
    this.recorder = recorder;
  }

  @Override
  public void begin() {
    recorder.listenerEvent(name, "begin");
  }

  @Override
  public void beforeSave(Session session, long globalStep) {
    recorder.listenerEvent(name, "beforeSave@" + globalStep);
  }

  @Override
  public SaveDecision decideSave(Session session, long globalStep) {
    beforeSave(session, globalStep);
    return skipAt.contains(globalStep) ? SaveDecision.SKIP : SaveDecision.SAVE;
  }

  @Override
  public boolean afterSave(Session session, long globalStep) {
    recorder.listenerEvent(name, "afterSave@" + globalStep);
    if (raise != null && raise.get("atStep").getAsLong() == globalStep) {
      throw ScriptedHook.error(raise.getAsJsonObject("raise"));
    }
    return stopAt != null && stopAt == globalStep;
  }

  @Override
  public void end(Session session, long globalStep) {
    recorder.listenerEvent(name, "end@" + globalStep);
  }
}
