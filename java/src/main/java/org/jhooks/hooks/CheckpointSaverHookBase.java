package org.jhooks.hooks;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.jhooks.CheckpointGuard;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.Logs;
import org.jhooks.SaveDecision;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.checkpoint.CheckpointKeeper;
import org.jhooks.checkpoint.CheckpointSaveException;
import org.jhooks.checkpoint.CheckpointStateException;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.checkpoint.SnapshotWriter;
import org.jhooks.tf.TensorValues;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArray;

/**
 * What the synchronous and the asynchronous checkpoint saver share: parameters, the step/seconds
 * timer and when to save, as TensorFlow's {@code CheckpointSaverHook}: once after each session
 * creation, when the timer fires for the global step (re-read with a raw run before deciding, never
 * twice for one step), and once in {@code end()} unless the last step was already saved. How a save
 * is written is up to the subclass. See {@code docs/standard-hooks.md}.
 *
 * <p>Checkpoint files ({@code docs/contract.md}, "Checkpoints"): the hook writes, overwrites and
 * deletes only inside {@code checkpointDir}; rotation deletes only {@code
 * <checkpointBasename>-<step>} checkpoints of that dir, whatever the state file lists. {@code
 * begin()} deletes the temporaries a killed save left ({@code checkpoint.tmp*}, {@code
 * <checkpointBasename>-*.tempstate*}) and the checkpoints a save killed during its rotation had
 * dropped but not deleted (listed in {@code checkpoint.rotation}; TensorFlow's Saver leaves them
 * forever), and throws a {@link HookException} (cause: {@link CheckpointStateException}) for a
 * garbage or unreadable state file, writing nothing. The constructor refuses a {@code
 * checkpointBasename} with a path separator or {@code ..} (IllegalArgumentException naming the hook
 * and the value). A failed save throws {@link CheckpointSaveException} naming hook, callback,
 * global step and prefix: never end of input.
 *
 * <p>The graph, as TensorFlow's {@code after_create_session}: after each session creation, before
 * that creation's save, the hook writes the view's {@link Session#graphDef()} as text to {@code
 * checkpointDir/graph.pbtxt} ({@link Checkpoints#writeGraph}: a temporary {@code graph.pbtxt.tmp*}
 * moved over it) and appends a {@code graph_def} event and a {@code meta_graph_def} event ({@link
 * Session#metaGraphDef()}) to the event file of {@code checkpointDir} ({@link
 * EventFileWriter#acquire}, shared per directory; flushed before the callback returns). A view
 * without a graph gets neither. A failed write throws a {@link HookException} naming the hook,
 * {@code afterCreateSession} and the file, the I/O error as cause; no checkpoint is saved then.
 */
abstract class CheckpointSaverHookBase implements Hook, AutoCloseable {
  final String name;
  final System.Logger log;
  private final String checkpointDir;
  private final String checkpointBasename;
  final Saver saver;
  final List<CheckpointSaverListener> listeners;
  final SecondOrStepTimer timer;
  final CheckpointKeeper keeper;
  private final List<Long> savedSteps = Collections.synchronizedList(new ArrayList<>());
  private volatile boolean stopAsked;
  private static final String STEP_FETCH = "globalStep";
  private static final String LOSSES_FETCH = "losses";

  /** The guard's watched losses, read at the first run after session creation. */
  private List<String> watched;

  /**
   * The session of the callback running now: the one listeners get (after recovery, the new one).
   */
  Session current;

  CheckpointSaverHookBase(String name, CheckpointSaverHookBuilder<?> b) {
    this.name = name;
    this.log = Logs.get("org.jhooks.hooks." + name);
    if (b.checkpointDir == null || b.checkpointDir.isEmpty()) {
      throw new IllegalArgumentException("checkpointDir must be given");
    }
    if (b.saver != null && b.scaffold != null) {
      throw new IllegalArgumentException("You cannot provide both saver and scaffold.");
    }
    // TensorFlow's texts (its hook's SecondOrStepTimer)
    if (b.saveSecs == null && b.saveSteps == null) {
      throw new IllegalArgumentException("Either every_secs or every_steps should be provided.");
    }
    if (b.saveSecs != null && b.saveSteps != null) {
      throw new IllegalArgumentException("Can not provide both every_secs and every_steps.");
    }
    if (b.saveSteps != null && b.saveSteps <= 0) {
      throw new IllegalArgumentException("saveSteps must be positive, got " + b.saveSteps);
    }
    if (b.saveSecs != null && !(b.saveSecs > 0)) {
      throw new IllegalArgumentException("saveSecs must be positive, got " + b.saveSecs);
    }
    if (b.saver != null && b.maxToKeep != null && b.maxToKeep != Saver.DEFAULT_MAX_TO_KEEP) {
      throw new IllegalArgumentException("You cannot provide both saver and maxToKeep.");
    }
    this.checkpointDir = b.checkpointDir;
    this.checkpointBasename = b.checkpointBasename;
    Saver s = b.saver != null ? b.saver : b.scaffold != null ? b.scaffold.saver() : null;
    this.saver = s != null ? s : new Saver(null, b.maxToKeep);
    this.listeners =
        Collections.unmodifiableList(
            new ArrayList<>(b.listeners == null ? List.of() : b.listeners));
    this.timer =
        new SecondOrStepTimer(b.saveSecs, b.saveSteps == null ? null : (long) (int) b.saveSteps);
    this.keeper =
        new CheckpointKeeper(name, b.checkpointDir, b.checkpointBasename, this.saver.maxToKeep());
  }

  @Override
  public void begin() {
    try {
      keeper.open();
    } catch (UncheckedIOException e) {
      throw failure("begin", e.getMessage(), e.getCause());
    } catch (CheckpointStateException e) {
      throw failure("begin", e.getMessage() + "; remove or repair it (nothing was written)", e);
    }
    for (CheckpointSaverListener l : listeners) {
      l.begin();
    }
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    current = session;
    watched = null;
    checkBackground("afterCreateSession");
    long step = session.globalStep();
    writeGraph(session, "afterCreateSession");
    // Never twice for one step: a session re-created (recovery) or restored from the dir's latest
    // checkpoint, which already holds this step, is not saved again.
    if (timer.lastTriggeredStep() == null || step != timer.lastTriggeredStep()) {
      timer.updateLastTriggeredStep(step);
      if (!keeper.latestIs(step) && guardAllows(session, step, "afterCreateSession")) {
        save(session, step, "afterCreateSession");
      }
    }
    if (takeStopRequest()) {
      coord.requestStop();
    }
  }

  /**
   * {@code graph.pbtxt} and the {@code graph_def} and {@code meta_graph_def} events of the view's
   * graph, as TensorFlow's hook writes them at session creation; nothing (a DEBUG record) when the
   * view has no graph.
   *
   * @throws HookException naming this hook, {@code callback} and the file when a write fails
   */
  private void writeGraph(Session session, String callback) {
    byte[] graphDef;
    try {
      graphDef = session.graphDef();
    } catch (UnsupportedOperationException e) {
      log.log(
          System.Logger.Level.DEBUG,
          name + ": " + session + " has no graph: no graph.pbtxt or graph events written.");
      return;
    }
    byte[] metaGraphDef;
    try {
      metaGraphDef = session.metaGraphDef();
    } catch (UnsupportedOperationException e) {
      metaGraphDef = null;
    }
    Path dir = Paths.get(checkpointDir);
    String target = dir.resolve(Checkpoints.GRAPH_FILE).toString();
    try {
      Checkpoints.writeGraph(dir, graphDef);
      target = "the event file in " + checkpointDir;
      EventFileWriter events = EventFileWriter.acquire(checkpointDir);
      target = events.path().toString();
      try {
        events.addGraph(graphDef);
        if (metaGraphDef != null) {
          events.addMetaGraph(metaGraphDef);
        }
      } finally {
        EventFileWriter.release(events); // flushes: a failed write is thrown here
      }
    } catch (UncheckedIOException e) {
      throw failure(callback, "cannot write the graph to " + target + ": " + e.getCause(), e);
    }
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    current = runContext.session();
    checkBackground("beforeSessionRun");
    if (takeStopRequest()) {
      runContext.requestStop();
    }
    Session session = runContext.session();
    if (watched == null) { // every hook's afterCreateSession (where losses are watched) ran
      watched = CheckpointGuard.of(session).watchedLosses();
    }
    if (watched.isEmpty()) {
      return SessionRunArgs.of(session.globalStepTensorName());
    }
    Map<String, Object> fetches = new LinkedHashMap<>();
    fetches.put(STEP_FETCH, session.globalStepTensorName());
    fetches.put(LOSSES_FETCH, new ArrayList<>(watched));
    return SessionRunArgs.of(fetches);
  }

  /**
   * Reports a NaN among this run's watched losses to the session's guard (the NanTensorHook may
   * come later in the hook list).
   */
  private void checkLosses(Session session, List<?> losses) {
    for (int i = 0; i < losses.size() && i < watched.size(); i++) {
      if (NanTensorHook.hasNan((NdArray<?>) losses.get(i))) {
        CheckpointGuard.of(session).reportNanLoss(session.globalStep(), watched.get(i));
        return;
      }
    }
  }

  /**
   * Whether the session's {@link CheckpointGuard} lets the checkpoint of {@code step} be written;
   * logs a WARNING naming the step when not.
   */
  final boolean guardAllows(Session session, long step, String callback) {
    CheckpointGuard guard = CheckpointGuard.of(session);
    if (guard.allowsSave(step)) {
      return true;
    }
    Long last = lastSavedStep();
    log.log(
        System.Logger.Level.WARNING,
        name
            + ": not saving the checkpoint of step "
            + step
            + " ("
            + callback
            + "): loss "
            + guard.nanLoss().orElse("?")
            + " was NaN in the run that made global step "
            + guard.nanStep().getAsLong()
            + "; the latest checkpoint stays "
            + (last == null ? "none" : keeper.prefixFor(last))
            + " (TensorFlow's CheckpointSaverHook would write the NaN weights).");
    return false;
  }

  /**
   * Logs the WARNING for a checkpoint not written because {@code variables} (checkpoint keys) hold
   * a NaN or an infinity.
   */
  final void refuseNonFinite(long step, String callback, List<String> variables) {
    Long last = lastSavedStep();
    log.log(
        System.Logger.Level.WARNING,
        name
            + ": not saving the checkpoint of step "
            + step
            + " ("
            + callback
            + "): variables "
            + String.join(", ", variables)
            + " hold NaN or infinity; the latest checkpoint stays "
            + (last == null ? "none" : keeper.prefixFor(last))
            + " (TensorFlow's CheckpointSaverHook would write them).");
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    current = runContext.session();
    checkBackground("afterSessionRun");
    Object results = runValues.results();
    if (results instanceof Map) {
      Map<?, ?> both = (Map<?, ?>) results;
      checkLosses(runContext.session(), (List<?>) both.get(LOSSES_FETCH));
      results = both.get(STEP_FETCH);
    }
    long stale = ((Number) ((NdArray<?>) results).getObject()).longValue();
    OptionalLong due = timer.dueStep(runContext.session(), stale);
    if (due.isPresent()) {
      timer.updateLastTriggeredStep(due.getAsLong());
      if (guardAllows(runContext.session(), due.getAsLong(), "afterSessionRun")) {
        save(runContext.session(), due.getAsLong(), "afterSessionRun");
      }
    }
    if (takeStopRequest()) {
      runContext.requestStop();
    }
  }

  @Override
  public void end(Session session) {
    current = session;
    finishPending("end");
    long step = session.globalStep();
    if (timer.lastTriggeredStep() == null || step != timer.lastTriggeredStep()) {
      timer.updateLastTriggeredStep(step);
      if (guardAllows(session, step, "end")) {
        save(session, step, "end");
        finishPending("end");
      }
    }
    for (CheckpointSaverListener l : listeners) {
      l.end(session, step);
    }
    release();
  }

  /** Starts (and for the synchronous hook completes) the save labelled {@code step}. */
  abstract void save(Session session, long step, String callback);

  /**
   * Raises a failure of the background writer and delivers finished saves; no-op when synchronous.
   */
  void checkBackground(String callback) {}

  /** Waits for every started save, delivers it and raises a failure; no-op when synchronous. */
  void finishPending(String callback) {}

  /** Frees threads and native resources; called at the end of {@link #end}. */
  void release() {}

  /**
   * Waits for pending saves, raises their failure, frees threads and native resources. {@code
   * end()} does this; call it when the monitored session ended with an error (no {@code end()}).
   */
  @Override
  public void close() {
    try {
      finishPending("close");
    } finally {
      release();
    }
  }

  /** Calls every listener's afterSave (all of them, even after one asked to stop). */
  final void afterSave(Session session, long step, String prefix) {
    savedSteps.add(step);
    log.log(System.Logger.Level.INFO, "Saved checkpoint " + prefix + ".");
    for (CheckpointSaverListener l : listeners) {
      if (l.afterSave(session, step)) {
        log.log(
            System.Logger.Level.INFO,
            name
                + ": a CheckpointSaverListener ("
                + l.getClass().getName()
                + ") asked to stop training after the save of step "
                + step
                + ".");
        stopAsked = true;
      }
    }
  }

  /**
   * Every listener's {@code decideSave} (all of them, in order); whether the save goes ahead (no
   * listener returned {@link SaveDecision#SKIP}).
   */
  final boolean beforeSave(Session session, long step, String prefix) {
    List<String> skippedBy = new ArrayList<>();
    for (CheckpointSaverListener l : listeners) {
      if (l.decideSave(session, step) == SaveDecision.SKIP) {
        skippedBy.add(String.valueOf(l));
      }
    }
    if (!skippedBy.isEmpty()) {
      log.log(
          System.Logger.Level.INFO,
          name
              + ": skipping the checkpoint of step "
              + step
              + " ("
              + prefix
              + "): CheckpointSaverListener "
              + String.join(", ", skippedBy)
              + " returned SaveDecision.SKIP.");
      return false;
    }
    log.log(System.Logger.Level.INFO, "Saving checkpoints for " + step + " into " + prefix + ".");
    return true;
  }

  private boolean takeStopRequest() {
    boolean s = stopAsked;
    stopAsked = false;
    return s;
  }

  final HookException failure(String callback, String problem, Throwable cause) {
    return new HookException(name, callback, problem, cause);
  }

  /**
   * Writes heap values with the snapshot writer, as tensors converted here (the writer lives below
   * the TF adapter), unless a float value holds a NaN or an infinity.
   *
   * @return the keys of the values holding a NaN or an infinity (nothing was written), or empty
   *     (written)
   * @throws IllegalArgumentException a value has an element type with no TF dtype (names the
   *     variable)
   */
  static List<String> writeSnapshot(
      SnapshotWriter writer, String prefix, Map<String, NdArray<?>> values) {
    return writeTensors(writer, prefix, tensorsOf(values));
  }

  /**
   * The values copied into tensors (one copy each): what a snapshot keeps beyond the callback that
   * fetched it, since a value may be a view valid only during that callback (a Python session's
   * large results, {@code docs/bridge.md}, "Arrays and ownership").
   *
   * @throws IllegalArgumentException a value has an element type with no TF dtype (names the
   *     variable); the tensors made so far are closed
   */
  static Map<String, Tensor> tensorsOf(Map<String, NdArray<?>> values) {
    Map<String, Tensor> tensors = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, NdArray<?>> e : values.entrySet()) {
        try {
          tensors.put(e.getKey(), TensorValues.tensorOf(e.getValue()));
        } catch (IllegalArgumentException x) {
          throw new IllegalArgumentException(
              "cannot write variable '" + e.getKey() + "': " + x.getMessage(), x);
        }
      }
    } catch (RuntimeException e) {
      tensors.values().forEach(Tensor::close);
      throw e;
    }
    return tensors;
  }

  /**
   * Writes {@code tensors} with the snapshot writer unless a float value holds a NaN or an
   * infinity, then closes them.
   *
   * @return the keys of the values holding a NaN or an infinity (nothing was written), or empty
   */
  static List<String> writeTensors(
      SnapshotWriter writer, String prefix, Map<String, Tensor> tensors) {
    try {
      List<String> nonFinite = writer.nonFinite(tensors);
      if (nonFinite.isEmpty()) {
        writer.writeSnapshot(prefix, tensors);
      }
      return nonFinite;
    } finally {
      tensors.values().forEach(Tensor::close);
    }
  }

  /** A failed save: names this hook, the callback, the global step and the prefix. */
  final CheckpointSaveException saveFailure(
      String callback, long step, String prefix, Throwable cause) {
    if (cause instanceof CheckpointSaveException) {
      return (CheckpointSaveException) cause;
    }
    keeper.discardTemporaries();
    return new CheckpointSaveException(name, callback, step, prefix, cause);
  }

  /** The labelled global steps whose checkpoints are on disk, in the order they were saved. */
  public List<Long> savedSteps() {
    synchronized (savedSteps) {
      return new ArrayList<>(savedSteps);
    }
  }

  /** The checkpoint directory, as given. */
  public String checkpointDir() {
    return checkpointDir;
  }

  /** The checkpoints' basename ({@code model.ckpt} unless given). */
  public String checkpointBasename() {
    return checkpointBasename;
  }

  /** The global step of the latest checkpoint on disk, or {@code null}. */
  public Long lastSavedStep() {
    synchronized (savedSteps) {
      return savedSteps.isEmpty() ? null : savedSteps.get(savedSteps.size() - 1);
    }
  }

  /** The checkpoint prefixes kept on disk as listed in the state file, oldest first. */
  public List<String> keptCheckpoints() {
    return keeper.kept();
  }
}
