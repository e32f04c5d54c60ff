package org.jhooks.tf;

import java.util.List;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TInt64;

/**
 * The global step convention: an int64 scalar {@code VariableV2} named {@code global_step},
 * starting at 0, saved in checkpoints under that key (so Python's {@code
 * tf.compat.v1.train.get_or_create_global_step} variable restores from it).
 *
 * <p>Create it <em>after</em> {@code Optimizer.minimize}: tensorflow-framework optimizers take
 * gradients for every {@code VariableV2} in the graph and fail on one the loss does not reach.
 */
public final class GlobalStep {
  /** The op name. */
  public static final String NAME = "global_step";

  /** The tensor name hooks fetch. */
  public static final String TENSOR_NAME = "global_step:0";

  /** The name of the op {@link #create} returns. */
  public static final String TRAIN_STEP = "train_step";

  private GlobalStep() {}

  /**
   * Creates {@code global_step} and an op named {@code train_step} that runs {@code trainOp} and
   * then adds 1 to the step; run {@code train_step} as the training target.
   *
   * @throws IllegalStateException the graph already has a {@code global_step} op
   */
  public static Op create(Ops tf, Op trainOp) {
    Variable<TInt64> step = createVariable(tf);
    return tf.withControlDependencies(List.of(trainOp))
        .withName(TRAIN_STEP)
        .assignAdd(step, tf.constant(1L));
  }

  /** Creates only the {@code global_step} variable (initialized to 0 by the init scope). */
  public static Variable<TInt64> createVariable(Ops tf) {
    if (tf.scope().env() instanceof org.tensorflow.Graph
        && ((org.tensorflow.Graph) tf.scope().env()).operation(NAME) != null) {
      throw new IllegalStateException("the graph already has an op named '" + NAME + "'");
    }
    return tf.withName(NAME).variable(tf.constant(0L));
  }
}
