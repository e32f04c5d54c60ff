package org.jhooks.tf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * A minimal synchronous checkpoint saver, the built-in of {@link MonitoredTrainingSession}:
 * TensorFlow's {@code CheckpointSaverHook} without summaries or a graph file. Saves {@code
 * <dir>/<basename>-<global step>} (TF V2) after the session is created, whenever the step/seconds
 * timer fires (the global step is re-read with a raw run before deciding), and in {@code end()} if
 * the last step was not saved; each save updates the {@code checkpoint} state file atomically and
 * keeps at most {@code maxToKeep} checkpoints. Listeners' callbacks run around each save; one
 * returning true from {@code afterSave} requests a stop.
 */
public final class BasicCheckpointSaver implements Hook {
  private static final Logger LOG = Logger.getLogger(BasicCheckpointSaver.class.getName());

  private final Path dir;
  private final String basename;
  private final int maxToKeep;
  private final SaveTimer timer;
  private final List<CheckpointSaverListener> listeners;
  private final List<Long> savedSteps = new ArrayList<>();
  private Coordinator coord;

  /**
   * @param saveSteps save every this many global steps, or 0
   * @param saveSecs save every this many seconds, or 0; exactly one of the two is positive
   * @param maxToKeep checkpoints to keep (TensorFlow's default is 5); 0 keeps all
   */
  public BasicCheckpointSaver(
      Path dir, int saveSteps, double saveSecs, String basename, int maxToKeep, List<CheckpointSaverListener> listeners) {
    this.dir = dir;
    this.basename = basename;
    this.maxToKeep = maxToKeep;
    this.timer = new SaveTimer(saveSteps, saveSecs);
    this.listeners = List.copyOf(listeners);
  }

  public BasicCheckpointSaver(Path dir, int saveSteps, double saveSecs) {
    this(dir, saveSteps, saveSecs, Checkpoints.DEFAULT_BASENAME, 5, List.of());
  }

  @Override
  public void begin() {
    listeners.forEach(CheckpointSaverListener::begin);
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    this.coord = coord;
    long step = session.globalStep();
    if (timer.lastStep() == null || timer.lastStep() != step) {
      timer.update(step);
      save(session, step);
    }
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return SessionRunArgs.of(runContext.session().globalStepTensorName());
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    long staleStep = ((Number) ((NdArray<?>) runValues.results()).getObject()).longValue();
    if (timer.shouldTrigger(staleStep + 1)) {
      long step = runContext.session().globalStep();
      if (timer.shouldTrigger(step)) {
        timer.update(step);
        if (save(runContext.session(), step)) {
          runContext.requestStop();
        }
      }
    }
  }

  @Override
  public void end(Session session) {
    long step = session.globalStep();
    if (timer.lastStep() == null || timer.lastStep() != step) {
      timer.update(step);
      save(session, step);
    }
    for (CheckpointSaverListener l : listeners) {
      l.end(session, step);
    }
  }

  /** Global steps saved so far, in order. */
  public List<Long> savedSteps() {
    return List.copyOf(savedSteps);
  }

  private boolean save(Session session, long step) {
    Path prefix = Checkpoints.prefixFor(dir, basename, step);
    for (CheckpointSaverListener l : listeners) {
      l.beforeSave(session, step);
    }
    session.save(prefix.toString());
    Checkpoints.recordCheckpoint(dir, prefix, maxToKeep);
    savedSteps.add(step);
    LOG.info("saved checkpoint " + prefix);
    boolean stop = false;
    for (CheckpointSaverListener l : listeners) {
      stop |= l.afterSave(session, step);
    }
    if (stop && coord != null) {
      coord.requestStop();
    }
    return stop;
  }
}
