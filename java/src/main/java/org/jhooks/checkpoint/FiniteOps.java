package org.jhooks.checkpoint;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.tensorflow.Operand;
import org.tensorflow.Result;
import org.tensorflow.op.Ops;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.TBool;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.family.TNumber;
import org.tensorflow.types.family.TType;

/**
 * Builds the fused finiteness check of float tensors: the ops behind "no poisoned checkpoints" over
 * the saved variables ({@code docs/standard-hooks.md}). Twin of {@code
 * jhooks.checkpoint.finite_ops}. Used by {@code org.jhooks.tf.TfSession} for the variables of a
 * training graph and by {@link SnapshotWriter} for the values it is handed.
 *
 * <p>Per float tensor (half, bfloat16, float32, float64; ref variables count as their value type)
 * it adds {@code is_finite(reduce_sum(x))}, one read of the tensor, and combines them into one bool
 * scalar; and the exact {@code reduce_all(is_finite(x))} per tensor as one bool vector, run only
 * when a sum is not finite (a NaN or an infinity in the tensor, or a sum of finite values that
 * overflowed).
 */
public final class FiniteOps {
  private FiniteOps() {}

  /** The ops of one check (names in the graph they were added to) and the keys they cover. */
  public static final class Check {
    private final String sumsFinite;
    private final String eachFinite;
    private final List<String> keys;

    Check(String sumsFinite, String eachFinite, List<String> keys) {
      this.sumsFinite = sumsFinite;
      this.eachFinite = eachFinite;
      this.keys = Collections.unmodifiableList(new ArrayList<>(keys));
    }

    /**
     * The keys whose tensors hold a NaN or an infinity (empty: all finite), with one run of the
     * fused sums and, only when one is not finite, a second run of the exact per-tensor check.
     *
     * @param fetch runs the graph fetching the named op's first output; this method closes the
     *     result
     */
    public List<String> nonFinite(Function<String, Result> fetch) {
      if (keys.isEmpty()) {
        return List.of();
      }
      try (Result sums = fetch.apply(sumsFinite)) {
        if (((TBool) sums.get(0)).getBoolean()) {
          return List.of();
        }
      }
      List<String> out = new ArrayList<>();
      try (Result each = fetch.apply(eachFinite)) {
        TBool finite = (TBool) each.get(0);
        for (int i = 0; i < keys.size(); i++) {
          if (!finite.getBoolean(i)) {
            out.add(keys.get(i));
          }
        }
      }
      return out;
    }
  }

  /** Whether tensors of {@code dtype} (a ref dtype counts as its value type) are checked. */
  public static boolean isFloat(DataType dtype) {
    int n = dtype.getNumber();
    switch (n > 100 ? n - 100 : n) {
      case DataType.DT_HALF_VALUE:
      case DataType.DT_BFLOAT16_VALUE:
      case DataType.DT_FLOAT_VALUE:
      case DataType.DT_DOUBLE_VALUE:
        return true;
      default:
        return false;
    }
  }

  /**
   * Adds the check of the float tensors among {@code tensors} to the graph of {@code tf}, under sub
   * scope {@code name}.
   *
   * @param tensors key to tensor, in the order the keys are reported
   */
  @SuppressWarnings("unchecked")
  public static Check build(Ops tf, Map<String, ? extends Operand<?>> tensors, String name) {
    Ops scope = tf.withSubScope(name);
    List<String> keys = new ArrayList<>();
    List<Operand<TBool>> sums = new ArrayList<>();
    List<Operand<TBool>> each = new ArrayList<>();
    for (Map.Entry<String, ? extends Operand<?>> e : tensors.entrySet()) {
      if (!isFloat(e.getValue().asOutput().dataType())) {
        continue;
      }
      Operand<TNumber> x = (Operand<TNumber>) (Operand<? extends TType>) e.getValue();
      Operand<TInt32> axes = scope.range(scope.constant(0), scope.rank(x), scope.constant(1));
      keys.add(e.getKey());
      sums.add(scope.math.isFinite(scope.reduceSum(x, axes)));
      each.add(scope.reduceAll(scope.math.isFinite(x), axes));
    }
    if (keys.isEmpty()) {
      return new Check("", "", keys);
    }
    Operand<TBool> all =
        scope.withName("sums_finite").reduceAll(scope.stack(sums), scope.constant(0));
    Operand<TBool> vector = scope.withName("each_finite").stack(each);
    return new Check(all.op().name(), vector.op().name(), keys);
  }
}
