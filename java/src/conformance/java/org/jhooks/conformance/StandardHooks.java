package org.jhooks.conformance;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.hooks.AsyncCheckpointSaverHook;
import org.jhooks.hooks.BestCheckpointsListener;
import org.jhooks.hooks.CheckpointSaverHook;
import org.jhooks.hooks.FinalOpsHook;
import org.jhooks.hooks.GlobalStepWaiterHook;
import org.jhooks.hooks.NanTensorHook;
import org.jhooks.hooks.ProfilerHook;
import org.jhooks.hooks.StopAtStepHook;
import org.jhooks.hooks.StopIfNoImprovementHook;

/**
 * The Java standard hook ({@code org.jhooks.hooks}) for a scenario hook entry with {@code
 * standard}; twin of Python's {@code jhooks.conformance.standard_hooks}. Checkpoint savers get the
 * scenario's {@link ScriptedListener}s, then a {@link SaveRecorder}.
 */
public final class StandardHooks {
  private StandardHooks() {}

  /**
   * @param hookSpec the scenario's hook entry (has {@code standard})
   * @param checkpointDir the driver's checkpoint dir, or {@code null}
   * @throws IllegalArgumentException an unknown standard hook type
   */
  public static Hook create(JsonObject hookSpec, Path checkpointDir, Recorder recorder) {
    JsonObject s = hookSpec.getAsJsonObject("standard");
    String type = s.get("type").getAsString();
    switch (type) {
      case "StopAtStepHook":
        return new StopAtStepHook(
            s.has("numSteps") ? s.get("numSteps").getAsLong() : null,
            s.has("lastStep") ? s.get("lastStep").getAsLong() : null);
      case "GlobalStepWaiterHook":
        return new GlobalStepWaiterHook(
            s.get("waitUntilStep").getAsLong(),
            s.has("pollSecs") ? s.get("pollSecs").getAsDouble() : 0.5);
      case "StopIfNoImprovementHook":
        return new StopIfNoImprovementHook(
            s.get("metric").getAsString(),
            s.has("mode") ? s.get("mode").getAsString() : null,
            s.has("patience") ? s.get("patience").getAsInt() : null,
            s.has("minDelta") ? s.get("minDelta").getAsDouble() : null,
            s.has("everyNSteps") ? s.get("everyNSteps").getAsInt() : null);
      case "ProfilerHook":
        if (checkpointDir == null) {
          throw new IllegalArgumentException(
              "hook '"
                  + hookSpec.get("name").getAsString()
                  + "': a ProfilerHook writes into the driver's checkpointDir");
        }
        return new ProfilerHook(
            s.get("saveSteps").getAsInt(),
            null,
            checkpointDir.resolve("profile").toString(),
            s.has("showDataflow") ? s.get("showDataflow").getAsBoolean() : null,
            s.has("showMemory") ? s.get("showMemory").getAsBoolean() : null);
      case "NanTensorHook":
        return new NanTensorHook(
            s.get("lossTensor").getAsString(), s.get("failOnNanLoss").getAsBoolean());
      case "FinalOpsHook":
        return new FinalOpsHook(
            Values.fetchStructure(s.get("finalOps")),
            s.has("finalOpsFeeds") ? Values.feeds(s.getAsJsonObject("finalOpsFeeds")) : null);
      case "CheckpointSaverHook":
      case "AsyncCheckpointSaverHook":
        {
          List<CheckpointSaverListener> listeners = new ArrayList<>();
          if (s.has("listeners")) {
            s.getAsJsonArray("listeners")
                .forEach(l -> listeners.add(new ScriptedListener(l.getAsJsonObject(), recorder)));
          }
          String dir = checkpointDir.toString();
          String basename =
              s.has("checkpointBasename") ? s.get("checkpointBasename").getAsString() : null;
          if (s.has("bestCheckpoints")) {
            JsonObject best = s.getAsJsonObject("bestCheckpoints");
            listeners.add(
                new BestCheckpointsListener(
                    dir,
                    best.get("metric").getAsString(),
                    best.has("mode") ? best.get("mode").getAsString() : "min",
                    best.has("keep") ? best.get("keep").getAsInt() : 1,
                    best.has("subdir") ? best.get("subdir").getAsString() : null,
                    basename));
          }
          listeners.add(new SaveRecorder(recorder));
          int steps = s.get("saveSteps").getAsInt();
          return type.equals("CheckpointSaverHook")
              ? new CheckpointSaverHook(dir, null, steps, null, basename, null, listeners, null)
              : new AsyncCheckpointSaverHook(
                  dir, null, steps, null, basename, null, listeners, null);
        }
      default:
        throw new IllegalArgumentException(
            "hook '" + hookSpec.get("name").getAsString() + "': unknown standard hook " + type);
    }
  }

  /** A {@link FinalOpsHook}'s {@code finalOpsValues} as recorded JSON ({@code null}: never ran). */
  public static JsonElement finalOpsValues(Hook hook) {
    Object v = ((FinalOpsHook) hook).finalOpsValues();
    return v == null ? JsonNull.INSTANCE : Values.toJson(v);
  }
}
