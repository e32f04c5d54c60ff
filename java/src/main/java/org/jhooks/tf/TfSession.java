package org.jhooks.tf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jhooks.Nest;
import org.jhooks.RunOptions;
import org.jhooks.checkpoint.FiniteOps;
import org.tensorflow.Graph;
import org.tensorflow.GraphOperation;
import org.tensorflow.Operand;
import org.tensorflow.Output;
import org.tensorflow.Result;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;

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
  private final org.jhooks.CheckpointGuard checkpointGuard = org.jhooks.CheckpointGuard.create();
  // The hook callback running on this thread, for GraphNameException
  private final ThreadLocal<Caller> caller = new ThreadLocal<>();

  // The hook's name is asked only when an error names it: a batch of hooks knows which one it is
  // calling only then (HookBatch.position()).
  private record Caller(java.util.function.Supplier<String> hook, String callback) {}

  // What graph lookups found (each a JNI call under the graph's lock): ops are never removed from
  // a graph, so a name once found stays valid; the driver asks for the same names every run.
  private final Map<String, GraphOperation> operations = new ConcurrentHashMap<>();
  private final Map<String, Output<?>> outputs = new ConcurrentHashMap<>();
  private final Map<String, String> dtypeProblems = new ConcurrentHashMap<>(); // "" for none
  private final java.util.Set<String> presentTensors = ConcurrentHashMap.newKeySet();
  private FiniteOps.Check finite; // of finiteOf, built by nonFiniteVariables()
  private Map<String, String> finiteOf;
  private SnapshotBuffers buffers; // of buffersOf, built by takeSnapshot()
  private Map<String, String> buffersOf;
  private volatile SnapshotBuffers taken; // the buffers of the last snapshot

  /**
   * @param rawSession the session; this view closes it in {@link #close()}
   * @param graph the graph {@code rawSession} runs
   */
  public TfSession(org.tensorflow.Session rawSession, Graph graph) {
    this(rawSession, graph, GLOBAL_STEP);
  }

  public TfSession(org.tensorflow.Session rawSession, Graph graph, String globalStepTensorName) {
    this.raw = rawSession;
    this.graph = graph;
    this.globalStepTensorName = globalStepTensorName;
  }

  /**
   * Runs {@code call} as hook {@code hook}'s {@code callback}: a name not in the graph in a run on
   * this thread meanwhile is a {@link GraphNameException} naming them (the driver wraps every hook
   * callback in this, as the Python adapter gives each hook a view that names it). Outside such a
   * call a missing name is an {@link IllegalArgumentException}.
   */
  <T> T calledBy(
      java.util.function.Supplier<String> hook,
      String callback,
      java.util.function.Supplier<T> call) {
    Caller outer = caller.get();
    caller.set(new Caller(hook, callback));
    try {
      return call.get();
    } finally {
      if (outer == null) {
        caller.remove();
      } else {
        caller.set(outer);
      }
    }
  }

  /**
   * The guard of this raw session, shared by every hook of it (a session re-created by recovery is
   * a new view with a clear guard).
   */
  @Override
  public org.jhooks.CheckpointGuard checkpointGuard() {
    return checkpointGuard;
  }

  /** The tensorflow-java session; runs through it bypass this view and the hooks. */
  public org.tensorflow.Session rawSession() {
    return raw;
  }

  public Graph graph() {
    return graph;
  }

  @Override
  public Object run(Object fetches, Map<String, ? extends NdArray<?>> feeds, RunOptions options) {
    new org.jhooks.SessionRunArgs(fetches, feeds, options); // SessionRunArgsException naming it
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
    FlatResult result = runFlat(tensors, targets, feeds == null ? Map.of() : feeds, options);
    return Nest.mapStructure(fetches, name -> Nest.isTensorName(name) ? result.value(name) : null);
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
   * @throws GraphNameException a name is not in the graph, in a hook callback ({@link #calledBy})
   * @throws org.jhooks.HookException a fetched tensor's dtype is not one jhooks copies, or a feed
   *     value does not fit the endpoint, in a hook callback (naming hook, callback and tensor)
   * @throws IllegalArgumentException the same outside a hook callback (the message names the tensor
   *     and the problem)
   * @throws org.tensorflow.exceptions.TensorFlowException the run failed
   */
  public FlatResult runFlat(
      List<String> tensors,
      List<String> targets,
      Map<String, ? extends NdArray<?>> feeds,
      RunOptions options) {
    List<Output<?>> fetchOutputs = new ArrayList<>();
    for (String name : tensors) {
      Output<?> output = outputOrThrow(name, "fetched");
      String problem = fetchProblem(name);
      if (problem != null) {
        throw refused("tensor '" + name + "' (fetched): " + problem);
      }
      fetchOutputs.add(output);
    }
    List<GraphOperation> targetOps = new ArrayList<>();
    for (String name : targets) {
      GraphOperation op = operation(name);
      if (op == null) {
        throw missing(
            name,
            "is not an op in the session's graph (run as a target)",
            "op '" + name + "' (run as a target) is not in the graph",
            null);
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
          throw refused("feed '" + feed.getKey() + "': " + problem);
        }
        Tensor tensor;
        if (TensorValues.isTensor(feed.getValue())) {
          tensor = (Tensor) feed.getValue();
        } else {
          tensor = TensorValues.tensorOf(endpoint.dataType(), feed.getValue());
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
        values.put(tensors.get(i), TensorValues.copyOf(result.get(i)));
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
      boolean found = Nest.isTensorName(name) ? exists(name) : operation(name) != null;
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
   * Why the value fed to {@code tensorName} cannot be fed, or {@code null} when it fits: its
   * element type does not match the tensor's dtype (no cast is made), or its shape is not
   * compatible with the tensor's static shape (TensorFlow's Python session checks this; the C API
   * does not, so a wrong shape would otherwise run silently). The tensor must be in the graph.
   */
  public String feedProblem(String tensorName, NdArray<?> value) {
    return feedProblem(output(tensorName), value);
  }

  private static String feedProblem(Output<?> endpoint, NdArray<?> value) {
    if (value == null) {
      return "the value is null";
    }
    Shape expected = endpoint.shape();
    if (!compatible(expected, value.shape())) {
      return "a value of shape " + value.shape() + " does not fit the tensor's shape " + expected;
    }
    if (!TensorValues.isTensor(value)) {
      return TensorValues.feedTypeProblem(endpoint.dataType(), value);
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
      long d = expected.get(i);
      if (d != Shape.UNKNOWN_SIZE && d != actual.get(i)) {
        return false;
      }
    }
    return true;
  }

  private boolean exists(String tensorName) {
    return whyMissing(tensorName) == null;
  }

  /**
   * Like {@link #whyMissing(String)}; for the global step, also TensorFlow's text naming the class
   * of {@code hook} (a hook label such as {@code hook #1 (org.jhooks.hooks.StopAtStepHook)}):
   * {@code is not in the session's graph: Global step should be created to use StopAtStepHook.}
   */
  public String whyMissing(String name, String hook) {
    String why = whyMissing(name);
    if (why != null
        && name.equals(globalStepTensorName)
        && graph.operation(name.split(":")[0]) == null) {
      // TensorFlow's own text: its hooks raise it in begin() when the graph has no global step
      return why + ": Global step should be created to use " + userClass(hook) + ".";
    }
    return why;
  }

  /** {@code StopAtStepHook} for {@code hook #2 (org.jhooks.hooks.StopAtStepHook, Java)}. */
  static String userClass(String hookLabel) {
    int open = hookLabel.indexOf('(');
    String inner = open < 0 ? hookLabel : hookLabel.substring(open + 1);
    int end = inner.indexOf(',') >= 0 ? inner.indexOf(',') : inner.indexOf(')');
    String name = (end >= 0 ? inner.substring(0, end) : inner).trim();
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /**
   * Why the tensor or op {@code name} is not in the graph ({@code "is not in the session's graph"},
   * or for {@code op:N} past the op's outputs {@code "is not in the session's graph: op 'op' has 1
   * output(s)"}), or {@code null} when it is. tensorflow-java's {@code Graph.output} does not check
   * the index; the run would fail later with a bare IndexOutOfBoundsException.
   */
  public String whyMissing(String name) {
    if (!Nest.isTensorName(name)) {
      return operation(name) != null ? null : "is not in the session's graph";
    }
    if (presentTensors.contains(name)) {
      return null;
    }
    int colon = name.lastIndexOf(':');
    GraphOperation op = operation(name.substring(0, colon));
    if (op == null) {
      return "is not in the session's graph";
    }
    int index;
    try {
      index = Integer.parseInt(name.substring(colon + 1));
    } catch (NumberFormatException e) {
      return "is not in the session's graph: bad output index";
    }
    if (index < 0 || index >= op.numOutputs()) {
      return "is not in the session's graph: op '"
          + op.name()
          + "' has "
          + op.numOutputs()
          + " output(s)";
    }
    presentTensors.add(name);
    return null;
  }

  private Output<?> outputOrThrow(String name, String use) {
    Caller who = caller.get();
    String why = who == null ? whyMissing(name) : whyMissing(name, who.hook().get());
    if (why != null) {
      throw missing(
          name, why + " (" + use + ")", "tensor '" + name + "' (" + use + ") " + why, null);
    }
    return output(name);
  }

  /** The op {@code name}, or null when the graph has none (found ops are remembered). */
  private GraphOperation operation(String name) {
    GraphOperation op = operations.get(name);
    if (op == null) {
      op = graph.operation(name);
      if (op != null) {
        operations.put(name, op);
      }
    }
    return op;
  }

  /** The endpoint of tensor {@code name}, which is in the graph (remembered). */
  private Output<?> output(String name) {
    return outputs.computeIfAbsent(name, graph::output);
  }

  /**
   * A run cannot use a tensor ({@code message} names it): its dtype, or the value fed. In a hook
   * callback ({@link #calledBy}) a {@link org.jhooks.HookException} naming the hook, the callback
   * and the tensor; outside one an {@link IllegalArgumentException}.
   */
  private RuntimeException refused(String message) {
    Caller who = caller.get();
    if (who == null) {
      return new IllegalArgumentException(message);
    }
    return new org.jhooks.HookException(
        who.hook().get(), who.callback(), message + " (in a raw run)");
  }

  /**
   * Why tensor {@code tensorName} (in the graph) cannot be fetched, or {@code null}: a dtype jhooks
   * does not copy ({@link TensorValues#dtypeProblem}).
   */
  public String fetchProblem(String tensorName) {
    String problem =
        dtypeProblems.computeIfAbsent(
            tensorName,
            n -> {
              String p = TensorValues.dtypeProblem(output(n).dataType());
              return p == null ? "" : p;
            });
    return problem.isEmpty() ? null : problem;
  }

  /**
   * A GraphNameException naming the calling hook and callback, else an IllegalArgumentException.
   */
  private RuntimeException missing(
      String name, String problem, String message, RuntimeException cause) {
    Caller who = caller.get();
    if (who == null) {
      return new IllegalArgumentException(message, cause);
    }
    return new GraphNameException(who.hook().get(), who.callback(), name, problem, cause);
  }

  /**
   * Writes a TF V2 checkpoint of every {@code VariableV2} with tensorflow-java's {@code
   * Session.save}.
   */
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

  /**
   * The {@link #saveableVariables} of float type holding a NaN or an infinity, with one fused check
   * ({@link FiniteOps}: one {@code reduce_sum} per variable, one bool fetched) added to the graph
   * at the first call and again when the variables change; a second run names the variables only
   * when it fails. Twin of Python's {@code TfSessionView.nonFiniteVariables}.
   */
  @Override
  public synchronized List<String> nonFiniteVariables() {
    Map<String, String> variables = saveableVariables();
    if (finite == null || !variables.equals(finiteOf)) {
      Map<String, Operand<?>> reads = new LinkedHashMap<>();
      variables.forEach((key, tensor) -> reads.put(key, graph.outputOrThrow(tensor)));
      finite = FiniteOps.build(Ops.create(graph), reads, "jhooks_variables_finite");
      finiteOf = variables;
    }
    return finite.nonFinite(name -> raw.runner().fetch(name).run());
  }

  /**
   * Copies every {@link #saveableVariables} variable into its snapshot buffer with ONE run of one
   * grouped op, and returns the global step read in that run. The buffers ({@link SnapshotBuffers}:
   * a ref {@code Variable} per variable and an {@code Assign} into it, the {@code SaveV2} and the
   * fused finiteness check over them) are added to the graph at the first call and again when the
   * variables change; after the first snapshot the copy goes into their existing memory. Twin of
   * Python's {@code TfSessionView.takeSnapshot}.
   */
  @Override
  public synchronized long takeSnapshot() {
    Map<String, String> variables = saveableVariables();
    if (buffers == null || !variables.equals(buffersOf)) {
      buffers = SnapshotBuffers.build(graph, variables);
      buffersOf = variables;
    }
    taken = buffers;
    try (Result r = raw.runner().addTarget(taken.take()).fetch(globalStepTensorName).run()) {
      return ((Number) TensorValues.copyOf(r.get(0)).getObject()).longValue();
    }
  }

  /**
   * Writes the buffers of the last {@link #takeSnapshot()} at {@code prefix} with the raw session
   * (the keys and files {@link #save} writes), from any thread.
   *
   * @throws IllegalStateException no snapshot was taken
   */
  @Override
  public void saveSnapshot(String prefix) {
    lastTaken().save(raw, prefix);
  }

  /** The fused finiteness check of the buffers of the last {@link #takeSnapshot()}. */
  @Override
  public List<String> nonFiniteSnapshot() {
    return lastTaken().nonFinite(raw);
  }

  private SnapshotBuffers lastTaken() {
    SnapshotBuffers t = taken;
    if (t == null) {
      throw new IllegalStateException("no snapshot was taken in this session (takeSnapshot)");
    }
    return t;
  }

  /**
   * The graph as a serialized {@code GraphDef} ({@link Graph#toGraphDef()}: every node, without
   * Python's {@code _output_shapes}). Twin of Python's {@code TfSessionView.graphDef}.
   */
  @Override
  public byte[] graphDef() {
    return graph.toGraphDef().toByteArray();
  }

  /**
   * A serialized {@code MetaGraphDef} of the graph, as TensorFlow's {@code CheckpointSaverHook}
   * writes to the event file: the {@link #graphDef()}, a {@code meta_info_def} naming
   * tensorflow-java's TensorFlow version and, once the graph has tensorflow-java's saver ops (built
   * by the first {@link #save} or {@link #restore}: {@code save/filename}, {@code
   * save/control_dependency}, {@code save/restore_all}), their {@code SaverDef}; before that none
   * ({@code tf.compat.v1.train.import_meta_graph} then builds a saver of the variables). Twin of
   * Python's {@code TfSessionView.metaGraphDef}.
   */
  @Override
  public byte[] metaGraphDef() {
    org.tensorflow.proto.MetaGraphDef.Builder meta =
        org.tensorflow.proto.MetaGraphDef.newBuilder()
            .setMetaInfoDef(
                org.tensorflow.proto.MetaGraphDef.MetaInfoDef.newBuilder()
                    .setTensorflowVersion(org.tensorflow.TensorFlow.version()))
            .setGraphDef(graph.toGraphDef());
    if (graph.operation(SAVER_RESTORE) != null) {
      meta.setSaverDef(
          org.tensorflow.proto.SaverDef.newBuilder()
              .setFilenameTensorName("save/filename:0")
              .setSaveTensorName("save/control_dependency")
              .setRestoreOpName(SAVER_RESTORE));
    }
    return meta.build().toByteArray();
  }

  /** The restore op of tensorflow-java's saver (its {@code Graph.saverDef()}'s names). */
  private static final String SAVER_RESTORE = "save/restore_all";

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
