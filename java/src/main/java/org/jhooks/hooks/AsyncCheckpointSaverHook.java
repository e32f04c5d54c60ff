package org.jhooks.hooks;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Session;
import org.jhooks.checkpoint.SnapshotWriter;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArray;

/**
 * Saves checkpoints every N steps or seconds, writing them in a background thread. Twin of {@code
 * jhooks.hooks.AsyncCheckpointSaverHook}; TensorFlow's {@code AsyncCheckpointSaverHook} (TF 2.x,
 * since removed) with its defects fixed. When it saves is the same as {@link CheckpointSaverHook}.
 *
 * <p>A save: on the training thread, listeners' {@code beforeSave} and ONE raw run reading every
 * variable of the {@link Saver} together with the global step (the snapshot; the global step read
 * in it is the label, so the checkpoint holds the values of the step it is named after); then, on
 * the writer thread, a V2 checkpoint with exactly those values, the {@code checkpoint} state file
 * replaced atomically, and rotation. When the view has snapshot buffers ({@link
 * Session#takeSnapshot()}, as the JVM driver's {@code org.jhooks.tf.TfSession} has) and the Saver
 * lists no variables, the run copies every variable into buffers in the training graph (after the
 * first save into their existing memory) and the writer thread writes the buffers from the training
 * session ({@link Session#saveSnapshot}): the training thread is blocked for about one copy of the
 * saved bytes and the process holds one snapshot, nothing more. Otherwise the run fetches the
 * values into the heap and the writer thread writes them with {@link
 * org.jhooks.checkpoint.SnapshotWriter}.
 *
 * <ul>
 *   <li>Overlap policy WAIT: at most one write is in flight. A save that falls due while the
 *       previous write is still running waits for it before taking its snapshot; no save is
 *       skipped. Each wait is counted ({@link #overlapCount()}) and logged at DEBUG.
 *   <li>A failed write is raised on the training thread as a {@link
 *       org.jhooks.checkpoint.CheckpointSaveException} (cause: the original error) at the next
 *       callback, in {@link #waitForPendingSaves()} or in {@code end()}.
 *   <li>No poisoned checkpoint: the writer thread checks the snapshot's float values for NaN and
 *       infinity (one fused op in the {@link SnapshotWriter}'s session) and writes nothing when one
 *       holds either (a WARNING names the step and the variables; no {@code afterSave}).
 *   <li>Listeners' {@code afterSave} runs on the training thread at the first callback after the
 *       files and the state file are on disk; {@code true} asks training to stop.
 * </ul>
 *
 * <p>If the monitored session ends with an error, {@code end()} is not called; call {@link
 * #close()} then to wait for the last write and to see its failure. Listener veto and no poisoned
 * checkpoints as {@link CheckpointSaverHook}. See {@code docs/standard-hooks.md}.
 */
public final class AsyncCheckpointSaverHook extends CheckpointSaverHookBase {
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final String STEP_KEY = "\u0000global_step";

  // Made with the hook: a JVM without TensorFlow's natives refuses it here, not at its first save.
  private final SnapshotWriter writer = new SnapshotWriter();
  private final ExecutorService executor =
      new ThreadPoolExecutor(
          0,
          1,
          1,
          TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(),
          r -> {
            Thread t =
                new Thread(r, "AsyncCheckpointSaverHook-writer-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
          });

  /** Writes started and not yet delivered, oldest first; touched by the training thread only. */
  private final ArrayDeque<PendingSave> pending = new ArrayDeque<>();

  private int overlapCount;

  /** Test seam: runs on the writer thread before each write, with the step being written. */
  volatile java.util.function.LongConsumer beforeWrite;

  private boolean released;

  private static final class PendingSave {
    final long step;
    final String prefix;
    final Future<Boolean> write;

    PendingSave(long step, String prefix, Future<Boolean> write) {
      this.step = step;
      this.prefix = prefix;
      this.write = write;
    }
  }

  /**
   * Same parameters and errors as {@link CheckpointSaverHook#CheckpointSaverHook}, and {@code
   * IllegalStateException} in a JVM that cannot load TensorFlow's natives (its {@link
   * SnapshotWriter} needs them): refused here, not at the first save.
   */
  public AsyncCheckpointSaverHook(
      String checkpointDir,
      Double saveSecs,
      Integer saveSteps,
      Saver saver,
      String checkpointBasename,
      Scaffold scaffold,
      List<CheckpointSaverListener> listeners,
      Integer maxToKeep) {
    this(
        CheckpointSaverHook.args(
            builder(checkpointDir),
            saveSecs,
            saveSteps,
            saver,
            checkpointBasename,
            scaffold,
            listeners,
            maxToKeep));
  }

  private AsyncCheckpointSaverHook(CheckpointSaverHookBuilder<?> b) {
    super("AsyncCheckpointSaverHook", b);
  }

  /** Named parameters: {@code AsyncCheckpointSaverHook.builder(dir).saveSteps(100).build()}. */
  public static CheckpointSaverHookBuilder<AsyncCheckpointSaverHook> builder(String checkpointDir) {
    return new CheckpointSaverHookBuilder<>(checkpointDir, AsyncCheckpointSaverHook::new);
  }

  @Override
  void save(Session session, long decidedStep, String callback) {
    PendingSave previous = pending.peekLast();
    if (previous != null && !previous.write.isDone()) {
      overlapCount++;
      long t0 = System.nanoTime();
      awaitQuietly(previous);
      log.log(
          System.Logger.Level.DEBUG,
          String.format(
              "%s: save for step %d waited %.3f s for the save of step %d (overlap #%d)",
              name, decidedStep, (System.nanoTime() - t0) / 1e9, previous.step, overlapCount));
    }
    deliver(callback, false);
    String prefix = keeper.prefixFor(decidedStep);
    if (!beforeSave(session, decidedStep, prefix)) {
      return;
    }
    Map<String, Tensor> snapshot; // null: the snapshot is in the session's buffers
    long step;
    try {
      Long buffered = saver.variables() == null ? takeSnapshot(session) : null;
      if (buffered != null) {
        snapshot = null;
        step = buffered;
      } else {
        Map<String, String> fetches = new LinkedHashMap<>(saver.variablesIn(session));
        fetches.put(STEP_KEY, session.globalStepTensorName());
        @SuppressWarnings("unchecked")
        Map<String, NdArray<?>> values = (Map<String, NdArray<?>>) session.run(fetches);
        step = ((Number) values.remove(STEP_KEY).getObject()).longValue();
        // copied now: a fetched value may be a view valid only during this callback
        snapshot = tensorsOf(values);
      }
    } catch (RuntimeException e) {
      throw saveFailure(callback, decidedStep, prefix, e);
    }
    if (step != decidedStep) {
      // Only possible if something else trains concurrently: label by the values' own step.
      log.log(
          System.Logger.Level.WARNING,
          name
              + ": global step moved from "
              + decidedStep
              + " to "
              + step
              + " before the snapshot; the checkpoint is labelled "
              + step
              + ".");
      prefix = keeper.prefixFor(step);
    }
    String finalPrefix = prefix;
    long labelled = step;
    Future<Boolean> write =
        executor.submit(
            () -> {
              java.util.function.LongConsumer seam = beforeWrite;
              if (seam != null) {
                seam.accept(labelled);
              }
              List<String> nonFinite;
              if (snapshot == null) {
                nonFinite = session.nonFiniteSnapshot();
                if (nonFinite.isEmpty()) {
                  session.saveSnapshot(finalPrefix);
                }
              } else {
                nonFinite = writeTensors(writer, finalPrefix, snapshot);
              }
              if (!nonFinite.isEmpty()) {
                refuseNonFinite(labelled, "writer thread", nonFinite);
                return false;
              }
              keeper.commit(finalPrefix);
              return true;
            });
    pending.addLast(new PendingSave(step, prefix, write));
  }

  /**
   * The global step of a snapshot taken into the view's buffers ({@link Session#takeSnapshot()}),
   * or null when the view has none.
   */
  private static Long takeSnapshot(Session session) {
    try {
      return session.takeSnapshot();
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }

  @Override
  void checkBackground(String callback) {
    deliver(callback, false);
  }

  @Override
  void finishPending(String callback) {
    deliver(callback, true);
  }

  /**
   * Blocks until every started save is on disk, calls the listeners' {@code afterSave} for them and
   * raises a write failure.
   *
   * @throws org.jhooks.checkpoint.CheckpointSaveException a background write failed (cause: its
   *     error)
   */
  public void waitForPendingSaves() {
    deliver("waitForPendingSaves", true);
  }

  /** How many saves had to wait for the previous write (overlap policy WAIT). */
  public int overlapCount() {
    return overlapCount;
  }

  /**
   * Delivers finished saves in order (afterSave on this thread); with {@code wait}, all of them.
   */
  private void deliver(String callback, boolean wait) {
    while (!pending.isEmpty()) {
      PendingSave p = pending.peekFirst();
      if (!wait && !p.write.isDone()) {
        return;
      }
      pending.removeFirst();
      boolean written;
      try {
        written = p.write.get();
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        release();
        throw saveFailure(callback, p.step, p.prefix, cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failure(callback, "interrupted while waiting for checkpoint " + p.prefix, e);
      }
      if (written) {
        afterSave(current, p.step, p.prefix);
      }
    }
  }

  private static void awaitQuietly(PendingSave p) {
    try {
      p.write.get();
    } catch (ExecutionException e) {
      // Raised by deliver() right after, with the callback's name.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  void release() {
    if (released) {
      return;
    }
    released = true;
    executor.shutdown();
    try {
      executor.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    writer.close();
  }
}
