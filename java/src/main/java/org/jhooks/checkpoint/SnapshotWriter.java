package org.jhooks.checkpoint;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Session;
import org.tensorflow.Tensor;
import org.tensorflow.TensorFlow;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TType;

/**
 * Writes a standard TF V2 checkpoint ({@code prefix.index}, {@code prefix.data-00000-of-00001})
 * holding exactly the given values, keys = variable names. It runs a {@code SaveV2} op fed with the
 * values in a small private graph and session of its own, so the training session is not touched
 * and the values are those of one snapshot. The files are readable by {@code
 * tf.compat.v1.train.Saver}, {@code tf.train.load_checkpoint} and tensorflow-java's {@code
 * Session.restore}. {@link #nonFinite} checks the same values for NaN and infinity with one fused
 * op ({@link FiniteOps}) in that graph. The graph is rebuilt only when the variable names or dtypes
 * change. Use from one thread at a time; {@link #close()} releases the native graph and session.
 * Twin of {@code jhooks.checkpoint.snapshot_writer.SnapshotWriter}, which takes numpy arrays; this
 * one takes tensors (the callers convert with {@code org.jhooks.tf.TensorValues}, a layer above
 * this one).
 */
public final class SnapshotWriter implements AutoCloseable {
  private Graph graph;
  private Session session;
  private String signature;
  private Placeholder<TString> prefixInput;
  private List<Placeholder<?>> valueInputs;
  private String saveOpName;
  private FiniteOps.Check finite;

  /**
   * A writer. It loads TensorFlow's native runtime now, so that an owner in a JVM that cannot load
   * it (a JVM that Python started for Java hooks only, docs/bridge.md "Start-up and the runtime
   * rule") is refused when it is built, not at its first save.
   *
   * @throws IllegalStateException TensorFlow's natives cannot be loaded; the cause is
   *     tensorflow-java's error
   */
  public SnapshotWriter() {
    try {
      TensorFlow.version();
    } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
      throw new IllegalStateException(
          "SnapshotWriter needs TensorFlow's native runtime (it writes checkpoints with"
              + " tensorflow-java's SaveV2), which this JVM cannot load",
          e);
    }
  }

  /**
   * Writes {@code values} under {@code prefix}.
   *
   * @param values checkpoint key (variable name) to value, in the order the keys should be listed;
   *     the tensors stay the caller's (not closed here)
   * @throws IllegalArgumentException no values
   * @throws org.tensorflow.exceptions.TensorFlowException the SaveV2 kernel failed (for example the
   *     directory is not writable, or a file size limit: OUT_OF_RANGE)
   */
  public void writeSnapshot(String prefix, Map<String, ? extends Tensor> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("SnapshotWriter: no values to write to " + prefix);
    }
    List<Tensor> tensors = graphFor(values);
    try (TString prefixTensor = TString.scalarOf(prefix)) {
      Session.Runner runner =
          session.runner().feed(prefixInput, prefixTensor).addTarget(saveOpName);
      for (int i = 0; i < tensors.size(); i++) {
        runner.feed(valueInputs.get(i), tensors.get(i));
      }
      runner.run().close();
    }
  }

  /**
   * The keys of the float values (half, bfloat16, float32, float64) holding a NaN or an infinity,
   * in the order of {@code values}; empty when all are finite. One fused check ({@link FiniteOps})
   * in this writer's private session; a second run names the values only when it fails.
   *
   * @param values checkpoint key to value; the tensors stay the caller's
   */
  public List<String> nonFinite(Map<String, ? extends Tensor> values) {
    if (values.isEmpty()) {
      return List.of();
    }
    List<Tensor> tensors = graphFor(values);
    return finite.nonFinite(
        name -> {
          Session.Runner runner = session.runner().fetch(name);
          for (int i = 0; i < tensors.size(); i++) {
            if (FiniteOps.isFloat(tensors.get(i).dataType())) {
              runner.feed(valueInputs.get(i), tensors.get(i));
            }
          }
          return runner.run();
        });
  }

  private List<Tensor> graphFor(Map<String, ? extends Tensor> values) {
    List<Tensor> tensors = new ArrayList<>(values.values());
    StringBuilder sig = new StringBuilder();
    for (Map.Entry<String, ? extends Tensor> e : values.entrySet()) {
      sig.append(e.getKey()).append('\u0000').append(e.getValue().dataType()).append('\u0000');
    }
    if (!sig.toString().equals(signature)) {
      build(new ArrayList<>(values.keySet()), tensors);
      signature = sig.toString();
    }
    return tensors;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void build(List<String> names, List<Tensor> tensors) {
    close();
    graph = new Graph();
    Ops tf = Ops.create(graph);
    prefixInput = tf.placeholder(TString.class);
    valueInputs = new ArrayList<>();
    List<Operand<?>> inputs = new ArrayList<>();
    for (Tensor t : tensors) {
      Placeholder<?> p = tf.placeholder((Class<TType>) ((TType) t).type());
      valueInputs.add(p);
      inputs.add(p);
    }
    String[] keys = names.toArray(new String[0]);
    String[] slices = new String[keys.length];
    java.util.Arrays.fill(slices, "");
    Map<String, Operand<?>> byKey = new java.util.LinkedHashMap<>();
    for (int i = 0; i < keys.length; i++) {
      byKey.put(keys[i], inputs.get(i));
    }
    finite = FiniteOps.build(tf, byKey, "finite");
    saveOpName =
        tf.train
            .save(
                prefixInput,
                tf.constant(StandardCharsets.UTF_8, keys),
                tf.constant(StandardCharsets.UTF_8, slices),
                inputs)
            .op()
            .name();
    session = new Session(graph);
  }

  @Override
  public void close() {
    if (session != null) {
      session.close();
      session = null;
    }
    if (graph != null) {
      graph.close();
      graph = null;
    }
    signature = null;
    finite = null;
  }
}
