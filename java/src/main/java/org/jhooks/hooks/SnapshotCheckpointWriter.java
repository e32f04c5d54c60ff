package org.jhooks.hooks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Session;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TType;
import org.jhooks.tf.Values;

/**
 * Writes a standard TF V2 checkpoint ({@code prefix.index}, {@code prefix.data-00000-of-00001})
 * holding exactly the given values, keys = variable names. It runs a {@code SaveV2} op fed with
 * the values in a small private graph and session of its own, so the training session is not
 * touched and the values are those of one snapshot. The files are readable by {@code
 * tf.compat.v1.train.Saver}, {@code tf.train.load_checkpoint} and tensorflow-java's {@code
 * Session.restore}. The graph is rebuilt only when the variable names or dtypes change. Use from
 * one thread at a time; {@link #close()} releases the native graph and session.
 */
public final class SnapshotCheckpointWriter implements AutoCloseable {
  private Graph graph;
  private Session session;
  private String signature;
  private Placeholder<TString> prefixInput;
  private List<Placeholder<?>> valueInputs;
  private String saveOpName;

  /**
   * Writes {@code values} under {@code prefix}.
   *
   * @param values variable name to value, in the order the keys should be listed
   * @throws IllegalArgumentException a value has an element type with no TF dtype here
   * @throws org.tensorflow.exceptions.TensorFlowException the SaveV2 kernel failed (for example the
   *     directory is not writable)
   */
  public void write(String prefix, Map<String, NdArray<?>> values) {
    List<Tensor> tensors = new ArrayList<>();
    try (TString prefixTensor = TString.scalarOf(prefix)) {
      StringBuilder sig = new StringBuilder();
      for (Map.Entry<String, NdArray<?>> e : values.entrySet()) {
        Tensor t = tensorOf(e.getKey(), e.getValue());
        tensors.add(t);
        sig.append(e.getKey()).append('\u0000').append(t.dataType()).append('\u0000');
      }
      if (!sig.toString().equals(signature)) {
        build(new ArrayList<>(values.keySet()), tensors);
        signature = sig.toString();
      }
      Session.Runner runner = session.runner().feed(prefixInput, prefixTensor).addTarget(saveOpName);
      for (int i = 0; i < tensors.size(); i++) {
        runner.feed(valueInputs.get(i), tensors.get(i));
      }
      runner.run().close();
    } finally {
      for (Tensor t : tensors) {
        t.close();
      }
    }
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
    saveOpName =
        tf.train.save(prefixInput, tf.constant(StandardCharsets.UTF_8, keys), tf.constant(StandardCharsets.UTF_8, slices), inputs).op().name();
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
  }

  private static Tensor tensorOf(String variable, NdArray<?> value) {
    try {
      return Values.tensorOf(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot write variable '" + variable + "': " + e.getMessage(), e);
    }
  }
}
