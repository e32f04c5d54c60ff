package org.jhooks.hooks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Session;
import org.jhooks.checkpoint.SnapshotWriter;
import org.tensorflow.ndarray.NdArray;

/**
 * Saves checkpoints every N steps or seconds, on the training thread. Twin of TensorFlow's {@code
 * tf.compat.v1.train.CheckpointSaverHook} and of {@code jhooks.hooks.CheckpointSaverHook}.
 *
 * <p>Saves once after each session creation, when the timer fires for the global step (re-read with
 * a raw run; never twice for one step) and in {@code end()} unless that step is saved already. A
 * save: listeners' {@code beforeSave}; the V2 checkpoint {@code
 * checkpointDir/checkpointBasename-step} (with {@link Session#save} when the {@link Saver} lists no
 * variables, else the values of its variables fetched in one run and written by {@link
 * org.jhooks.checkpoint.SnapshotWriter}); the {@code checkpoint} state file replaced atomically;
 * rotation beyond {@code maxToKeep}; listeners' {@code afterSave}, where {@code true} asks training
 * to stop (honoured, unlike TF). As TF's, each session creation writes {@code graph.pbtxt} and the
 * graph and meta graph events into {@code checkpointDir} (see {@link CheckpointSaverHookBase}). See
 * {@code docs/standard-hooks.md} and {@code docs/contract.md}.
 *
 * <p>Beyond TF: a listener's {@link CheckpointSaverListener#decideSave} returning {@link
 * org.jhooks.SaveDecision#SKIP} skips that save (no files, state file untouched, no {@code
 * afterSave}; TF #20992); and no checkpoint of the step a NaN loss produced, or of a later one, is
 * written (the session's {@link org.jhooks.CheckpointGuard}, fed by {@link NanTensorHook} and by
 * the losses this hook fetches; a WARNING names each refused step); nor one whose float variables
 * hold a NaN or an infinity (weights can turn NaN one run before the loss): one fused check before
 * each save, {@link Session#nonFiniteVariables()} or of the snapshot's values. TF's hook writes the
 * NaN weights.
 */
public final class CheckpointSaverHook extends CheckpointSaverHookBase {
  private SnapshotWriter writer;

  /**
   * @param checkpointDir the directory of checkpoints and of the state file; created if missing
   * @param saveSecs seconds between saves, or {@code null}
   * @param saveSteps global steps between saves, or {@code null}
   * @param saver what to save, or {@code null} (then the scaffold's, else {@link Saver#defaults()})
   * @param checkpointBasename file name before {@code -step}; {@code null} for {@code "model.ckpt"}
   * @param scaffold where the saver comes from when {@code saver} is null, or {@code null}
   * @param listeners called around each save, or {@code null}
   * @param maxToKeep checkpoints kept when no saver is given ({@code null}: 5; 0 keeps all)
   * @throws IllegalArgumentException both or neither of saveSecs/saveSteps (TF's timer's texts:
   *     "Can not provide both every_secs and every_steps." / "Either every_secs or every_steps
   *     should be provided."), a non-positive one, both saver and scaffold, both saver and
   *     maxToKeep, or no checkpointDir (TF's messages); a checkpointBasename with a path separator
   *     or {@code ..}
   * @throws IllegalStateException a saver with explicit variables (written by {@link
   *     SnapshotWriter}) in a JVM that cannot load TensorFlow's natives
   */
  public CheckpointSaverHook(
      String checkpointDir,
      Double saveSecs,
      Integer saveSteps,
      Saver saver,
      String checkpointBasename,
      Scaffold scaffold,
      List<CheckpointSaverListener> listeners,
      Integer maxToKeep) {
    this(
        args(
            builder(checkpointDir),
            saveSecs,
            saveSteps,
            saver,
            checkpointBasename,
            scaffold,
            listeners,
            maxToKeep));
  }

  private CheckpointSaverHook(CheckpointSaverHookBuilder<?> b) {
    super("CheckpointSaverHook", b);
    if (saver.variables() != null) {
      writer = new SnapshotWriter(); // now: a JVM without TensorFlow's natives refuses the hook
    }
  }

  /** Named parameters: {@code CheckpointSaverHook.builder(dir).saveSteps(100).build()}. */
  public static CheckpointSaverHookBuilder<CheckpointSaverHook> builder(String checkpointDir) {
    return new CheckpointSaverHookBuilder<>(checkpointDir, CheckpointSaverHook::new);
  }

  static <H> CheckpointSaverHookBuilder<H> args(
      CheckpointSaverHookBuilder<H> b,
      Double saveSecs,
      Integer saveSteps,
      Saver saver,
      String checkpointBasename,
      Scaffold scaffold,
      List<CheckpointSaverListener> listeners,
      Integer maxToKeep) {
    b.maxToKeep = maxToKeep;
    b.saveSecs = saveSecs;
    b.saveSteps = saveSteps;
    b.saver = saver;
    if (checkpointBasename != null) {
      b.checkpointBasename = checkpointBasename;
    }
    b.scaffold = scaffold;
    if (listeners != null) {
      b.listeners(listeners);
    }
    return b;
  }

  @Override
  void save(Session session, long step, String callback) {
    String prefix = keeper.prefixFor(step);
    if (!beforeSave(session, step, prefix)) {
      return;
    }
    try {
      Map<String, String> variables = saver.variables();
      List<String> ownCheck = variables == null ? ownCheck(session) : null;
      if (variables == null && ownCheck != null) {
        if (!ownCheck.isEmpty()) {
          refuseNonFinite(step, callback, ownCheck);
          return;
        }
        session.save(prefix);
      } else if (variables == null && !listsVariables(session)) {
        session.save(prefix); // a view that can neither check nor list its variables: unchecked
      } else {
        @SuppressWarnings("unchecked")
        Map<String, NdArray<?>> values =
            (Map<String, NdArray<?>>) session.run(new LinkedHashMap<>(saver.variablesIn(session)));
        if (writer == null) {
          writer = new SnapshotWriter();
        }
        List<String> nonFinite = writeSnapshot(writer, prefix, values);
        if (!nonFinite.isEmpty()) {
          refuseNonFinite(step, callback, nonFinite);
          return;
        }
      }
      keeper.commit(prefix);
    } catch (RuntimeException e) {
      throw saveFailure(callback, step, prefix, e);
    }
    afterSave(session, step, prefix);
  }

  /** The view's own check of what {@link Session#save} writes, or null when it has none. */
  private static List<String> ownCheck(Session session) {
    try {
      return session.nonFiniteVariables();
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }

  private static boolean listsVariables(Session session) {
    try {
      session.saveableVariables();
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  @Override
  void release() {
    if (writer != null) {
      writer.close();
      writer = null;
    }
  }
}
