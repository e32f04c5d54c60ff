package org.jhooks.hooks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.Logs;
import org.jhooks.Nest;
import org.jhooks.Session;
import org.tensorflow.ndarray.NdArray;

/**
 * Runs ops once when the monitored session ends and keeps their values. Twin of TensorFlow's {@code
 * tf.compat.v1.train.FinalOpsHook} and of {@code jhooks.hooks.FinalOpsHook}.
 *
 * <p>{@code end(session)} runs {@code finalOps} with {@code finalOpsFeedDict} through the raw
 * session; {@link #finalOpsValues()} then has the structure of {@code finalOps}. Drivers do not
 * call {@code end()} when the session ends with an error other than end of input, so the ops are
 * not run then. An end-of-input error raised by the final run itself is logged as a warning and
 * re-raised, as TensorFlow does. See {@code docs/contract.md}.
 */
public final class FinalOpsHook implements Hook {
  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.FinalOpsHook");

  private final Object finalOps;
  private final Map<String, NdArray<?>> finalOpsFeedDict;
  private Object finalOpsValues;

  /**
   * @param finalOps a tensor or op name, or a List / Map nest of them
   * @param finalOpsFeedDict tensor name to value fed to the final run, or {@code null}
   * @throws IllegalArgumentException {@code finalOps} holds something other than names, lists, maps
   */
  public FinalOpsHook(Object finalOps, Map<String, ? extends NdArray<?>> finalOpsFeedDict) {
    Nest.validate(finalOps);
    this.finalOps = finalOps;
    this.finalOpsFeedDict =
        finalOpsFeedDict == null ? Collections.emptyMap() : new LinkedHashMap<>(finalOpsFeedDict);
  }

  public FinalOpsHook(Object finalOps) {
    this(finalOps, null);
  }

  /** The values of {@code finalOps} (same structure), or {@code null} before {@code end()}. */
  public Object finalOpsValues() {
    return finalOpsValues;
  }

  @Override
  public void end(Session session) {
    if (finalOps == null) {
      return;
    }
    try {
      finalOpsValues = session.run(finalOps, finalOpsFeedDict);
    } catch (RuntimeException e) {
      if (isEndOfInput(e)) {
        LOG.log(
            System.Logger.Level.WARNING,
            "FinalOpsHook: end of input (OutOfRange) raised by the final ops run; "
                + "final ops should depend only on variables, not on the input pipeline");
      }
      throw e;
    }
  }

  /** TF-Java's TFOutOfRangeException, or Python's OutOfRangeError carried across the bridge. */
  static boolean isEndOfInput(Throwable e) {
    String n = e.getClass().getSimpleName();
    return n.equals("TFOutOfRangeException")
        || n.equals("OutOfRangeError")
        || n.contains("OutOfRange");
  }
}
