package org.jhooks.tf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.Nest;
import org.jhooks.RunOptions;
import org.tensorflow.Graph;
import org.tensorflow.GraphOperation;
import org.tensorflow.Output;
import org.tensorflow.Result;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;

/**
 * The jhooks {@link org.jhooks.Session} view of a tensorflow-java {@link org.tensorflow.Session}.
 *
 * <p>Every fetched tensor is copied into a heap {@link NdArray} and the native {@link Result} is
 * closed before {@link #run} returns; feeds that are not already tensors are copied into tensors
 * that are closed after the run. So nothing native outlives a call (see {@code docs/contract.md},
 * "Values and ownership"). Thread-safe as far as the raw session is.
 *
 * <p>Subclasses may override {@link #runFlat} to observe or fail runs (fault injection in tests);
 * every run of this view goes through it.
 */
public class TfSession implements org.jhooks.Session, AutoCloseable {
  /** The conventional global step tensor. */
  public static final String GLOBAL_STEP = "global_step:0";

  private final org.tensorflow.Session raw;
  private final Graph graph;
  private final String globalStepTensorName;

  /**
   * @param raw the session; this view closes it in {@link #close()}
   * @param graph the graph {@code raw} runs
   */
  public TfSession(org.tensorflow.Session raw, Graph graph) {
    this(raw, graph, GLOBAL_STEP);
  }

  public TfSession(org.tensorflow.Session raw, Graph graph, String globalStepTensorName) {
    this.raw = raw;
    this.graph = graph;
    this.globalStepTensorName = globalStepTensorName;
  }

  /** The tensorflow-java session; runs through it bypass this view and the hooks. */
  public org.tensorflow.Session raw() {
    return raw;
  }

  public Graph graph() {
    return graph;
  }

  @Override
  public Object run(Object fetches, Map<String, ? extends NdArray<?>> feeds, RunOptions options) {
    if (fetches == null) {
      return null;
    }
    List<String> tensors = new ArrayList<>();
    List<String> targets = new ArrayList<>();
    for (String name : Nest.flatten(fetches)) {
      List<String> into = Nest.isTensorName(name) ? tensors : targets;
      if (!into.contains(name)) {
        into.add(name);
      }
    }
    FlatResult result = runFlat(tensors, targets, feeds, options);
    return Nest.map(fetches, name -> Nest.isTensorName(name) ? result.value(name) : null);
  }

  /**
   * One run of unique tensor names and op names.
   *
   * @param tensors unique tensor names {@code "op:N"} to fetch
   * @param targets unique op names to run without fetching
   * @param feeds tensor name to value; a value that is already a tensor is fed as is (the caller
   *     keeps owning it), others are copied into a tensor of the endpoint's dtype
   * @param options run options or {@code null}; a trace level above 0 also fetches {@code
   *     RunMetadata}
   * @throws IllegalArgumentException a name is not in the graph (the message names it), or a feed
   *     value does not fit the endpoint's dtype
   * @throws org.tensorflow.exceptions.TensorFlowException the run failed
   */
  public FlatResult runFlat(
      List<String> tensors, List<String> targets, Map<String, ? extends NdArray<?>> feeds, RunOptions options) {
    List<Output<?>> fetchOutputs = new ArrayList<>();
    for (String name : tensors) {
      fetchOutputs.add(outputOrThrow(name, "fetched"));
    }
    List<GraphOperation> targetOps = new ArrayList<>();
    for (String name : targets) {
      GraphOperation op = graph.operation(name);
      if (op == null) {
        throw new IllegalArgumentException("op '" + name + "' (run as a target) is not in the graph");
      }
      targetOps.add(op);
    }
    List<Tensor> owned = new ArrayList<>();
    Result result = null;
    try {
      org.tensorflow.Session.Runner runner = raw.runner();
      for (Map.Entry<String, ? extends NdArray<?>> feed : feeds.entrySet()) {
        Output<?> endpoint = outputOrThrow(feed.getKey(), "fed");
        String problem = feedProblem(endpoint, feed.getValue());
        if (problem != null) {
          throw new IllegalArgumentException("feed '" + feed.getKey() + "': " + problem);
        }
        Tensor tensor;
        if (Values.isTensor(feed.getValue())) {
          tensor = (Tensor) feed.getValue();
        } else {
          tensor = Values.tensorOf(endpoint.dataType(), feed.getValue());
          owned.add(tensor);
        }
        runner.feed(endpoint, tensor);
      }
      fetchOutputs.forEach(runner::fetch);
      targetOps.forEach(runner::addTarget);
      org.tensorflow.proto.RunOptions proto = RunOptionsProtos.toProto(options);
      if (proto != null) {
        runner.setOptions(proto);
      }
      boolean wantMetadata = RunOptionsProtos.wantsMetadata(options);
      result = wantMetadata ? runner.runAndFetchMetadata() : runner.run();
      Map<String, NdArray<?>> values = new LinkedHashMap<>();
      for (int i = 0; i < tensors.size(); i++) {
        values.put(tensors.get(i), Values.copyOf(result.get(i)));
      }
      byte[] metadata =
          wantMetadata ? result.getMetadata().map(m -> m.toByteArray()).orElse(null) : null;
      return new FlatResult(values, metadata);
    } finally {
      if (result != null) {
        result.close();
      }
      owned.forEach(Tensor::close);
    }
  }

  /**
   * The first fetched or fed name of {@code args} that is not in the graph, or {@code null}.
   * Fetches without {@code ":N"} are op names, feeds and other fetches tensor names.
   */
  public String missingName(org.jhooks.SessionRunArgs args) {
    for (String name : Nest.flatten(args.fetches())) {
      boolean found = Nest.isTensorName(name) ? exists(name) : graph.operation(name) != null;
      if (!found) {
        return name;
      }
    }
    for (String name : args.feeds().keySet()) {
      if (!exists(name)) {
        return name;
      }
    }
    return null;
  }

  /**
   * Why the value fed to {@code tensorName} cannot be fed, or {@code null} when it fits: its element
   * type does not match the tensor's dtype (no cast is made), or its shape is not compatible with
   * the tensor's static shape (TensorFlow's Python session checks this; the C API does not, so a
   * wrong shape would otherwise run silently). The tensor must be in the graph.
   */
  public String feedProblem(String tensorName, NdArray<?> value) {
    return feedProblem(graph.output(tensorName), value);
  }

  private static String feedProblem(Output<?> endpoint, NdArray<?> value) {
    if (value == null) {
      return "the value is null";
    }
    Shape expected = endpoint.shape();
    if (!compatible(expected, value.shape())) {
      return "a value of shape " + value.shape() + " does not fit the tensor's shape " + expected;
    }
    if (!Values.isTensor(value)) {
      return Values.feedTypeProblem(endpoint.dataType(), value);
    }
    return null;
  }

  private static boolean compatible(Shape expected, Shape actual) {
    if (expected.isUnknown()) {
      return true;
    }
    if (expected.numDimensions() != actual.numDimensions()) {
      return false;
    }
    for (int i = 0; i < expected.numDimensions(); i++) {
      long d = expected.size(i);
      if (d != Shape.UNKNOWN_SIZE && d != actual.size(i)) {
        return false;
      }
    }
    return true;
  }

  private boolean exists(String tensorName) {
    try {
      return graph.output(tensorName) != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private Output<?> outputOrThrow(String name, String use) {
    Output<?> output;
    try {
      output = graph.output(name);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("tensor '" + name + "' (" + use + ") is not in the graph: " + e.getMessage(), e);
    }
    if (output == null) {
      throw new IllegalArgumentException("tensor '" + name + "' (" + use + ") is not in the graph");
    }
    return output;
  }

  /** Writes a TF V2 checkpoint of every {@code VariableV2} with tensorflow-java's {@code Session.save}. */
  @Override
  public void save(String prefix) {
    raw.save(prefix);
  }

  /** Restores every {@code VariableV2} from {@code prefix}; counts as initialization. */
  @Override
  public void restore(String prefix) {
    raw.restore(prefix);
  }

  /**
   * Every {@code VariableV2} of the graph, in graph order: name to {@code name:0}. These are the
   * variables {@link #save} writes.
   */
  @Override
  public Map<String, String> saveableVariables() {
    Map<String, String> out = new LinkedHashMap<>();
    for (java.util.Iterator<GraphOperation> it = graph.operations(); it.hasNext(); ) {
      GraphOperation op = it.next();
      if (op.type().equals("VariableV2")) {
        out.put(op.name(), op.name() + ":0");
      }
    }
    return out;
  }

  @Override
  public String globalStepTensorName() {
    return globalStepTensorName;
  }

  /** Closes the raw session. */
  @Override
  public void close() {
    raw.close();
  }
}
