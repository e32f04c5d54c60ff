package org.jhooks.hooks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.Nest;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.tf.TensorValues;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.proto.SessionLog;

/**
 * Writes summaries to a TensorBoard event file every N steps or seconds. Twin of TensorFlow's
 * {@code tf.compat.v1.train.SummarySaverHook} and of {@code jhooks.hooks.SummarySaverHook}.
 *
 * <p>{@code summaryOp} is a tensor name or a List of names of serialized {@code Summary} protos
 * (string scalars such as a {@code ScalarSummary} or {@code MergeSummary} output), or (extension,
 * both languages) a Map tag to numeric scalar tensor name, written as {@code simple_value} scalars.
 * The summary is fetched on the first run and whenever the timer fires for the next step, and
 * written at the global step re-read raw; the first run also writes a {@code SessionLog START}
 * event. Serialized summaries need the session view to hand out bytes ({@code byte[]}); a String
 * leaf is re-encoded as UTF-8 and refused when its decoding was lossy.
 */
public final class SummarySaverHook implements Hook {
  private static final String STEP_KEY = "global_step";
  private static final String SUMMARY_KEY = "summary";

  private final SecondOrStepTimer timer;
  private final Object summaryOp;
  private final boolean scalarMap;
  private final HookEventWriter writer;
  private Long nextStep;
  private boolean requestSummary;
  private final List<Long> writtenSteps = new ArrayList<>();

  /**
   * @param saveSteps write every this many global steps, or {@code null}
   * @param saveSecs write every this many seconds, or {@code null}
   * @param outputDir the event file directory, or {@code null} when {@code summaryWriter} is given
   * @param summaryWriter the writer to use, or {@code null}
   * @param scaffold where the summary op comes from when {@code summaryOp} is null, or {@code null}
   * @param summaryOp see the class doc, or {@code null}
   * @throws IllegalArgumentException not exactly one of scaffold/summaryOp or of saveSteps/saveSecs
   *     (TF's messages), or neither outputDir nor summaryWriter
   */
  public SummarySaverHook(
      Integer saveSteps,
      Double saveSecs,
      String outputDir,
      EventFileWriter summaryWriter,
      Scaffold scaffold,
      Object summaryOp) {
    if ((scaffold == null) == (summaryOp == null)) {
      throw new IllegalArgumentException("Exactly one of scaffold or summary_op must be provided.");
    }
    this.timer = new SecondOrStepTimer(saveSecs, saveSteps == null ? null : (long) (int) saveSteps);
    if (outputDir == null && summaryWriter == null) {
      throw new IllegalArgumentException("one of outputDir or summaryWriter must be given");
    }
    Object op = summaryOp != null ? summaryOp : scaffold.summaryOp();
    Nest.validate(op);
    this.summaryOp = op instanceof Map ? new LinkedHashMap<>((Map<?, ?>) op) : op;
    this.scalarMap = op instanceof Map;
    this.writer = new HookEventWriter(summaryWriter, outputDir);
  }

  /** The global steps summaries were written at, in order (one entry per write). */
  public synchronized List<Long> writtenSteps() {
    return List.copyOf(writtenSteps);
  }

  @Override
  public void begin() {
    writer.open();
    nextStep = null;
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    requestSummary = nextStep == null || timer.shouldTriggerForStep(nextStep);
    Map<String, Object> requests = new LinkedHashMap<>();
    requests.put(STEP_KEY, runContext.session().globalStepTensorName());
    if (requestSummary && summaryOp != null) {
      requests.put(SUMMARY_KEY, summaryOp);
    }
    return SessionRunArgs.of(requests);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    Map<?, ?> results = (Map<?, ?>) runValues.results();
    long fetched = ((Number) ((NdArray<?>) results.get(STEP_KEY)).getObject()).longValue();
    long globalStep = fetched + 1;
    // The fetched step may already include this run's increment (a VariableV2 read in the training
    // run), one too high, which would fire the timer a step early; so the step is re-read raw
    // whenever it decides something: writing now or the next request.
    if (nextStep == null || requestSummary || timer.shouldTriggerForStep(globalStep + 1)) {
      globalStep = runContext.session().globalStep();
    }
    if (nextStep == null) {
      writer.get().addSessionLog(SessionLog.SessionStatus.START, globalStep);
    }
    if (requestSummary) {
      timer.updateLastTriggeredStep(globalStep);
      Object summaries = results.get(SUMMARY_KEY);
      if (summaries != null) {
        write(summaries, globalStep);
      }
    }
    nextStep = globalStep + 1;
  }

  private void write(Object summaries, long step) {
    if (scalarMap) {
      org.tensorflow.proto.Summary.Builder s = org.tensorflow.proto.Summary.newBuilder();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) summaries).entrySet()) {
        Object v = ((NdArray<?>) e.getValue()).getObject();
        Double number = TensorValues.scalarAsDouble((NdArray<?>) e.getValue()); // uint8 240 is 240
        if (!(v instanceof Number) || number == null) {
          throw new HookException(
              "SummarySaverHook",
              "afterSessionRun",
              "summaryOp tag '" + e.getKey() + "' is not a numeric scalar: " + v);
        }
        s.addValue(
            org.tensorflow.proto.Summary.Value.newBuilder()
                .setTag((String) e.getKey())
                .setSimpleValue(number.floatValue()));
      }
      writer.get().addSummary(s.build(), step);
      recordWrite(step);
      return;
    }
    List<Object> leaves = new ArrayList<>();
    if (summaries instanceof List) {
      leaves.addAll((List<?>) summaries);
    } else {
      leaves.add(summaries);
    }
    for (Object leaf : leaves) {
      writer.get().addSummary(bytesOf(((NdArray<?>) leaf).getObject()), step);
    }
    recordWrite(step);
  }

  private synchronized void recordWrite(long step) {
    writtenSteps.add(step);
  }

  private static byte[] bytesOf(Object v) {
    if (v instanceof byte[]) {
      return (byte[]) v;
    }
    if (v instanceof String) {
      String s = (String) v;
      if (s.indexOf('\uFFFD') >= 0) {
        throw new HookException(
            "SummarySaverHook",
            "afterSessionRun",
            "the serialized Summary came back as a lossily decoded String (U+FFFD found); this"
                + " session view decodes string tensors as UTF-8. Pass summaryOp as a Map tag ->"
                + " scalar tensor instead");
      }
      return s.getBytes(StandardCharsets.UTF_8);
    }
    throw new HookException(
        "SummarySaverHook",
        "afterSessionRun",
        "a summary tensor must be a string scalar (serialized Summary), got " + v);
  }

  @Override
  public void end(Session session) {
    writer.end();
  }
}
