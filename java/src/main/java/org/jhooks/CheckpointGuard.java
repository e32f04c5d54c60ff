package org.jhooks;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The session-level signal that keeps NaN weights out of checkpoints; twin of {@code
 * jhooks.api.checkpoint_guard.CheckpointGuard}. TensorFlow has no such signal: its {@code
 * CheckpointSaverHook} writes the NaN weights.
 *
 * <p>One guard belongs to one raw session (a session re-created by recovery, restored from the last
 * finite checkpoint, starts with a clear guard); every hook of that session, in either language,
 * reaches the same guard with {@link #of(Session)}. {@code NanTensorHook} watches its loss tensor
 * here ({@link #watchLoss}) and reports a NaN ({@link #reportNanLoss}); the checkpoint saver hooks
 * fetch the watched losses with every run, report a NaN they see themselves (so the order of the
 * hooks does not matter) and write no checkpoint that {@link #allowsSave} refuses (see {@code
 * docs/standard-hooks.md}, "No poisoned checkpoints").
 *
 * <p>An interface so that a guard living in Python can be seen from Java (the bridge proxies it);
 * {@link #create()} makes the thread-safe implementation. Implementations must be thread-safe.
 */
public interface CheckpointGuard {

  /** A new, clear, thread-safe guard (what {@code org.jhooks.tf.TfSession} holds). */
  static CheckpointGuard create() {
    return new SharedCheckpointGuard();
  }

  /**
   * The guard of {@code session}: {@link Session#checkpointGuard()}.
   *
   * @throws NullPointerException {@code session} is null
   */
  static CheckpointGuard of(Session session) {
    return session.checkpointGuard();
  }

  /**
   * Asks every saver of the session to fetch {@code tensorName} (a float tensor of any shape) with
   * each run and to treat a NaN in it as {@link #reportNanLoss}. Idempotent.
   */
  void watchLoss(String tensorName);

  /** The watched loss tensors, in the order first watched (a copy). */
  List<String> watchedLosses();

  /**
   * Records that the weights of global step {@code globalStep} (and later) come from a run whose
   * {@code lossTensor} was NaN; the lowest step reported is kept.
   */
  void reportNanLoss(long globalStep, String lossTensor);

  /** The first global step no saver may checkpoint, or empty. */
  OptionalLong nanStep();

  /** The loss tensor that was NaN at {@link #nanStep()}, or empty. */
  Optional<String> nanLoss();

  /** Whether a checkpoint labelled {@code globalStep} may be written. */
  default boolean allowsSave(long globalStep) {
    OptionalLong step = nanStep();
    return !step.isPresent() || globalStep < step.getAsLong();
  }
}
