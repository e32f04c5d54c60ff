package org.jhooks.tf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.checkpoint.FiniteOps;
import org.tensorflow.Graph;
import org.tensorflow.GraphOperation;
import org.tensorflow.Operand;
import org.tensorflow.Output;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Assign;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TType;

/**
 * One buffer per saved variable, in the training graph, for the asynchronous saver. Twin of
 * Python's {@code jhooks.tf.saver.SnapshotBuffers}.
 *
 * <p>{@link #take()} is one grouped op copying every variable into its buffer (TensorFlow's {@code
 * Assign} into a ref variable of the variable's dtype: after the first run a copy into the buffer's
 * existing memory, so a snapshot is one copy of the saved bytes, with nothing fetched into the heap
 * and nothing allocated); {@link #save} writes the buffers as a V2 checkpoint keyed by the
 * variables' names ({@code SaveV2}: the files {@code Session.save} writes for the same values) and
 * {@link #nonFinite} checks them ({@link FiniteOps}); both run in the training session from another
 * thread while training goes on, since training runs never touch the buffers. The caller never
 * takes a snapshot while a save of the previous one runs (the async saver's overlap policy WAIT).
 * The buffers are ops of type {@code Variable} (the ref variable op before {@code VariableV2}, same
 * kernel), so neither tensorflow-java's {@code Session.save} nor {@link
 * TfSession#saveableVariables} (both list {@code VariableV2} ops) sees them; they hold one copy of
 * the variables from the first {@code take} until the session closes.
 */
final class SnapshotBuffers {
  private final String take;
  private final Placeholder<TString> prefixInput;
  private final String saveOp;
  private final FiniteOps.Check finite;

  private SnapshotBuffers(
      String take, Placeholder<TString> prefixInput, String saveOp, FiniteOps.Check finite) {
    this.take = take;
    this.prefixInput = prefixInput;
    this.saveOp = saveOp;
    this.finite = finite;
  }

  /**
   * Adds the buffers of {@code variables} (checkpoint key to the tensor reading the variable, as
   * {@link TfSession#saveableVariables}) to {@code graph}.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static SnapshotBuffers build(Graph graph, Map<String, String> variables) {
    Ops tf = Ops.create(graph).withSubScope("jhooks_snapshot");
    List<Op> assigns = new ArrayList<>();
    Map<String, Operand<?>> buffers = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : variables.entrySet()) {
      Output<?> variable = graph.outputOrThrow(e.getValue());
      String buffer = tf.scope().makeOpName("buffer");
      GraphOperation op =
          graph
              .opBuilder("Variable", buffer, tf.scope())
              .setAttr("shape", Shape.unknown())
              .setAttr("dtype", baseType(variable.dataType()))
              .setAttr("shared_name", buffer)
              .setDevice(((GraphOperation) variable.op()).device())
              .build();
      Output<TType> ref = op.output(0);
      assigns.add(tf.assign(ref, (Operand) variable, Assign.validateShape(false)));
      buffers.put(e.getKey(), ref);
    }
    String take = tf.withControlDependencies(assigns).withName("take").noOp().op().name();
    Placeholder<TString> prefix = tf.withName("prefix").placeholder(TString.class);
    String[] keys = buffers.keySet().toArray(new String[0]);
    String[] slices = new String[keys.length];
    Arrays.fill(slices, "");
    String save =
        tf.withName("save")
            .train
            .save(
                prefix,
                tf.constant(StandardCharsets.UTF_8, keys),
                tf.constant(StandardCharsets.UTF_8, slices),
                new ArrayList<>(buffers.values()))
            .op()
            .name();
    FiniteOps.Check finite = FiniteOps.build(Ops.create(graph), buffers, "jhooks_snapshot_finite");
    return new SnapshotBuffers(take, prefix, save, finite);
  }

  /** {@code DT_FLOAT} for {@code DT_FLOAT_REF} (a ref type is its base type + 100). */
  private static DataType baseType(DataType dtype) {
    int n = dtype.getNumber();
    return n > 100 ? DataType.forNumber(n - 100) : dtype;
  }

  /** The op copying every variable into its buffer (one run of it is one snapshot). */
  String take() {
    return take;
  }

  /** Writes the buffers at {@code prefix} ({@code .index}, {@code .data-00000-of-00001}). */
  void save(org.tensorflow.Session session, String prefix) {
    try (TString p = TString.scalarOf(prefix)) {
      session.runner().feed(prefixInput, p).addTarget(saveOp).run().close();
    }
  }

  /** The keys of the float buffers holding a NaN or an infinity; empty when all are finite. */
  List<String> nonFinite(org.tensorflow.Session session) {
    return finite.nonFinite(name -> session.runner().fetch(name).run());
  }
}
