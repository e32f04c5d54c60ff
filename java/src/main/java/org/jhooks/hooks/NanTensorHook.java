package org.jhooks.hooks;

import org.jhooks.CheckpointGuard;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Logs;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * Watches a loss tensor and stops training when it is NaN. Twin of TensorFlow's {@code
 * tf.compat.v1.train.NanTensorHook} and of {@code jhooks.hooks.NanTensorHook}.
 *
 * <p>Each run fetches {@code lossTensor}; if any element is NaN, with {@code failOnNanLoss} it logs
 * "Model diverged with loss = NaN." at SEVERE and raises {@link NanLossDuringTrainingException}
 * ("NaN loss during training."), otherwise it logs the same line at WARNING and requests a stop.
 *
 * <p>Unlike TensorFlow, no checkpoint holds the NaN weights: in {@code afterCreateSession} the hook
 * watches {@code lossTensor} in the session's {@link CheckpointGuard} and on a NaN reports the
 * global step after the run there (before raising or stopping), so no saver of the session writes
 * that step or a later one, whatever the order of the hooks ({@code docs/standard-hooks.md}, "No
 * poisoned checkpoints").
 */
public final class NanTensorHook implements Hook {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.NanTensorHook");

  private final String lossTensor;
  private final boolean failOnNanLoss;

  /**
   * @param lossTensor a float tensor name, for example {@code "loss:0"}; any shape
   * @param failOnNanLoss raise (true, TF's default) or only stop (false)
   */
  public NanTensorHook(String lossTensor, boolean failOnNanLoss) {
    if (lossTensor == null || !org.jhooks.Nest.isTensorName(lossTensor)) {
      throw new IllegalArgumentException(
          "lossTensor must be a tensor name such as \"loss:0\", got " + lossTensor);
    }
    this.lossTensor = lossTensor;
    this.failOnNanLoss = failOnNanLoss;
  }

  public NanTensorHook(String lossTensor) {
    this(lossTensor, true);
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    CheckpointGuard.of(session).watchLoss(lossTensor);
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return SessionRunArgs.of(lossTensor);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    if (!hasNan((NdArray<?>) runValues.results())) {
      return;
    }
    long step = runContext.session().globalStep();
    CheckpointGuard.of(runContext.session()).reportNanLoss(step, lossTensor);
    if (failOnNanLoss) {
      LOG.log(System.Logger.Level.ERROR, "Model diverged with loss = NaN.");
      throw new NanLossDuringTrainingException(lossTensor, step);
    }
    LOG.log(System.Logger.Level.WARNING, "Model diverged with loss = NaN.");
    runContext.requestStop();
  }

  static boolean hasNan(NdArray<?> value) {
    for (NdArray<?> s : value.scalars()) {
      Object v = s.getObject();
      if (v instanceof Number && Double.isNaN(((Number) v).doubleValue())) {
        return true;
      }
    }
    return false;
  }
}
