package org.jhooks.hooks;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.Logs;
import org.jhooks.RunOptions;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.proto.RunMetadata;

/**
 * Every {@code saveSteps} global steps or {@code saveSecs} seconds asks for a FULL_TRACE of the run
 * and writes {@code <outputDir>/timeline-<global step>.json}, a Chrome trace (chrome://tracing,
 * Perfetto) of the run's {@code RunMetadata.step_stats}. Twin of TensorFlow's {@code
 * tf.compat.v1.train.ProfilerHook} and of {@code jhooks.hooks.ProfilerHook}.
 *
 * <p>As TF: the first run only starts the timer (no trace); a later run is traced when the timer
 * fires for the step after the last one seen; after a traced run the global step is re-read with a
 * raw run and names the file; INFO {@code "Saving timeline for S into 'path'."} (logger {@code
 * org.jhooks.hooks.ProfilerHook}); the run's {@code RunMetadata} goes to the event file of the
 * output dir (shared per directory, as TF's {@code SummaryWriterCache}) tagged {@code step_<global
 * step>}, for TensorBoard's per-run compute time and memory. The JSON is built here from the {@code
 * RunMetadata} proto ({@link #chromeTrace}), event for event what TF's Python {@code
 * timeline.Timeline} writes.
 */
public final class ProfilerHook implements Hook {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.ProfilerHook");
  private static final int FULL_TRACE = 3;

  private final SecondOrStepTimer timer;
  private final String outputDir;
  private final boolean showDataflow;
  private final boolean showMemory;
  private Long nextStep;
  private boolean requestTrace;
  private final List<String> written = new ArrayList<>();
  private final HookEventWriter events;

  /**
   * @param saveSteps trace every this many global steps, or {@code null}
   * @param saveSecs trace every this many seconds, or {@code null}
   * @param outputDir directory of the trace files and the event file (created if missing); {@code
   *     null} or "" means the working directory
   * @param showDataflow flow arrows between producers and consumers of tensors ({@code null}: true,
   *     TF's default)
   * @param showMemory tensor lifetimes and per-allocator memory counters ({@code null}: false)
   * @throws IllegalArgumentException both or neither of saveSteps/saveSecs (TF's timer messages)
   */
  public ProfilerHook(
      Integer saveSteps,
      Double saveSecs,
      String outputDir,
      Boolean showDataflow,
      Boolean showMemory) {
    this.timer = new SecondOrStepTimer(saveSecs, saveSteps == null ? null : (long) (int) saveSteps);
    this.outputDir = outputDir == null ? "" : outputDir;
    this.showDataflow = showDataflow == null || showDataflow;
    this.showMemory = showMemory != null && showMemory;
    this.events = new HookEventWriter(null, this.outputDir.isEmpty() ? "." : this.outputDir);
  }

  /** Paths of the trace files written so far, in order. */
  public List<String> writtenFiles() {
    return List.copyOf(written);
  }

  @Override
  public void begin() {
    nextStep = null;
    events.open();
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    requestTrace = nextStep != null && timer.shouldTriggerForStep(nextStep);
    RunOptions options = requestTrace ? RunOptions.ofTraceLevel(FULL_TRACE) : null;
    return new SessionRunArgs(
        Map.of("global_step", runContext.session().globalStepTensorName()), null, options);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    Map<?, ?> results = (Map<?, ?>) runValues.results();
    long stale = ((Number) ((NdArray<?>) results.get("global_step")).getObject()).longValue();
    if (nextStep == null) {
      timer.updateLastTriggeredStep(stale);
    }
    long step = stale + 1;
    if (requestTrace) {
      step = runContext.session().globalStep();
      timer.updateLastTriggeredStep(step);
      save(step, runValues.runMetadata());
    }
    nextStep = step + 1;
  }

  @Override
  public void end(Session session) {
    events.end();
  }

  private void save(long step, byte[] runMetadata) {
    Path path = Path.of(outputDir, "timeline-" + step + ".json");
    LOG.log(
        System.Logger.Level.INFO,
        () -> "Saving timeline for " + step + " into '" + path.toAbsolutePath() + "'.");
    String trace = chromeTrace(runMetadata, showDataflow, showMemory);
    try {
      if (!outputDir.isEmpty()) {
        Files.createDirectories(Path.of(outputDir));
      }
      Files.writeString(path, trace, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new HookException(
          "ProfilerHook", "afterSessionRun", "writing the timeline " + path + " failed", e);
    }
    written.add(path.toString());
    EventFileWriter writer = events.get();
    if (writer != null) { // null when a session skipped begin (TF's hooks always get it)
      writer.addRunMetadata("step_" + step, runMetadata);
    }
  }

  /**
   * The Chrome trace JSON of a serialized {@code RunMetadata} proto: what TF's Python {@code
   * timeline.Timeline(step_stats).generate_chrome_trace_format(showDataflow, showMemory)} writes
   * (same events in the same order; whitespace may differ).
   *
   * @throws IllegalArgumentException {@code runMetadata} is null or not a {@code RunMetadata}
   */
  public static String chromeTrace(byte[] runMetadata, boolean showDataflow, boolean showMemory) {
    if (runMetadata == null) {
      throw new IllegalArgumentException("ProfilerHook: the traced run returned no RunMetadata");
    }
    try {
      return ChromeTrace.of(
          RunMetadata.parseFrom(runMetadata).getStepStats(), showDataflow, showMemory);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("ProfilerHook: not a RunMetadata proto", e);
    }
  }
}
