package org.jhooks.tf;

import java.lang.reflect.Constructor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.tensorflow.DeviceSpec;
import org.tensorflow.ExecutionEnvironment;
import org.tensorflow.Graph;
import org.tensorflow.Operation;
import org.tensorflow.OperationBuilder;
import org.tensorflow.op.Ops;
import org.tensorflow.op.Scope;

/**
 * Places a between-graph replica's ops as TensorFlow's {@code
 * tf.compat.v1.train.replica_device_setter} does, written once for the JVM: ops whose type is a ps
 * op ({@link #STANDARD_PS_OPS}: variables, hash tables, ...) go to {@code /job:ps/task:i}, {@code
 * i} round-robin over the ps tasks in creation order; every other op goes to the worker device. The
 * device an op already asks for is merged in and wins field by field, as {@code merge_devices} does
 * in TensorFlow (a variable under {@code withDevice(task 1 of job ps)} stays on task 1; a ps op
 * that asks for another job keeps it and does not advance the round robin).
 *
 * <p>{@link #ops(Graph)} gives an {@code Ops} whose every op is placed by this rule; {@link
 * #deviceFor} is the rule itself. Ops that tensorflow-java builds with its own {@code Ops} (an
 * optimizer's {@code ApplyGradientDescent}, gradients) are not placed by it; TensorFlow colocates
 * ops with reference and resource inputs with their variable, and places the rest on the session's
 * own task, which is the worker device. Python's side is TensorFlow's own function ({@code
 * jhooks.tf.device_setter.ReplicaDeviceSetter}); {@code tests/tf/test_replica_device_setter.py}
 * checks that both give the same devices.
 */
public final class ReplicaDeviceSetter {
  /** TensorFlow's {@code device_setter.STANDARD_PS_OPS} (2.18). */
  public static final Set<String> STANDARD_PS_OPS =
      Set.of(
          "Variable",
          "VariableV2",
          "AutoReloadVariable",
          "MutableHashTable",
          "MutableHashTableV2",
          "MutableHashTableOfTensors",
          "MutableHashTableOfTensorsV2",
          "MutableDenseHashTable",
          "MutableDenseHashTableV2",
          "VarHandleOp",
          "BoostedTreesEnsembleResourceHandleOp",
          "BoostedTreesQuantileStreamResourceHandleOp",
          "ResourceConditionalAccumulator",
          "DecisionTreeResource");

  private final int psTasks;
  private final String psDevice;
  private final String workerDevice;
  private final Set<String> psOps;
  private int nextTask;

  /**
   * @param psTasks the number of ps tasks; 0 places nothing on a ps (TensorFlow then returns no
   *     device function at all)
   * @param psDevice the ps job's device, {@code /job:ps} in TensorFlow
   * @param workerDevice this replica's device, e.g. {@code /job:worker/task:1}
   * @throws IllegalArgumentException negative {@code psTasks}
   */
  public ReplicaDeviceSetter(int psTasks, String psDevice, String workerDevice) {
    this(psTasks, psDevice, workerDevice, STANDARD_PS_OPS);
  }

  public ReplicaDeviceSetter(int psTasks, String psDevice, String workerDevice, Set<String> psOps) {
    if (psTasks < 0) {
      throw new IllegalArgumentException("ReplicaDeviceSetter: psTasks < 0: " + psTasks);
    }
    this.psTasks = psTasks;
    this.psDevice = psDevice == null ? "" : psDevice;
    this.workerDevice = workerDevice == null ? "" : workerDevice;
    this.psOps = Set.copyOf(psOps);
  }

  /**
   * TensorFlow's {@code replica_device_setter(cluster=cluster, worker_device=...)}: as many ps
   * tasks as the cluster's {@code ps} job has, ps device {@code /job:ps}, worker device {@code
   * /job:<job>/task:<task>}.
   */
  public static ReplicaDeviceSetter of(Cluster cluster, String job, int task) {
    cluster.address(job, task);
    return new ReplicaDeviceSetter(
        cluster.numTasks(Cluster.PS), "/job:" + Cluster.PS, "/job:" + job + "/task:" + task);
  }

  /**
   * The device of a new op of type {@code opType} that asks for {@code requested} (may be empty);
   * advances the round robin for a ps op. The string is TensorFlow's {@code DeviceSpec.to_string}
   * form, e.g. {@code /job:ps/task:0} or {@code /job:worker/task:1/device:CPU:0}.
   */
  public synchronized String deviceFor(String opType, String requested) {
    Map<String, String> current = parse(requested);
    if (psTasks > 0 && !psDevice.isEmpty() && psOps.contains(opType)) {
      Map<String, String> ps = parse(psDevice);
      String currentJob = current.get("job");
      String psJob = ps.get("job");
      if (psJob != null && (currentJob == null || currentJob.equals(psJob))) {
        ps.put("task", Integer.toString(nextTask));
        nextTask = (nextTask + 1) % psTasks;
      }
      ps.putAll(current);
      return format(ps);
    }
    Map<String, String> worker = parse(workerDevice);
    worker.putAll(current);
    return format(worker);
  }

  /** An {@code Ops} on {@code graph} whose every op is placed by this rule. */
  public Ops ops(Graph graph) {
    return ops(Ops.create(graph));
  }

  /** {@code tf} with this rule applied to every op it builds (its device request is merged in). */
  public Ops ops(Ops tf) {
    return newOps(new PlacingScope(tf.scope(), this));
  }

  private static Ops newOps(Scope scope) {
    try {
      Constructor<Ops> c = Ops.class.getDeclaredConstructor(Scope.class);
      c.setAccessible(true);
      return c.newInstance(scope);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "cannot reach tensorflow-java's package-private Ops(Scope) constructor", e);
    }
  }

  // job, replica, task, device ("CPU:0"); absent fields are unset.
  static Map<String, String> parse(String spec) {
    Map<String, String> fields = new LinkedHashMap<>();
    if (spec == null || spec.isEmpty()) {
      return fields;
    }
    String[] parts = spec.split("/");
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (p.isEmpty()) {
        continue;
      }
      String lower = p.toLowerCase(java.util.Locale.ROOT);
      if (lower.startsWith("job:")) {
        fields.put("job", p.substring(4));
      } else if (lower.startsWith("replica:")) {
        fields.put("replica", p.substring(8));
      } else if (lower.startsWith("task:")) {
        fields.put("task", p.substring(5));
      } else if (lower.startsWith("device:")) {
        fields.put("device", p.substring(7).toUpperCase(java.util.Locale.ROOT));
      } else if (lower.startsWith("cpu:") || lower.startsWith("gpu:")) {
        fields.put("device", p.toUpperCase(java.util.Locale.ROOT));
      } else {
        throw new IllegalArgumentException("device spec '" + spec + "': unknown part '" + p + "'");
      }
    }
    return fields;
  }

  static String format(Map<String, String> fields) {
    StringBuilder s = new StringBuilder();
    for (String key : new String[] {"job", "replica", "task", "device"}) {
      String v = fields.get(key);
      if (v != null) {
        s.append('/').append(key).append(':').append(v);
      }
    }
    return s.toString();
  }

  /** A scope that hands every op builder a device from the rule. */
  private static final class PlacingScope implements Scope {
    private final Scope delegate;
    private final ReplicaDeviceSetter setter;

    PlacingScope(Scope delegate, ReplicaDeviceSetter setter) {
      this.delegate = Objects.requireNonNull(delegate);
      this.setter = setter;
    }

    private Scope wrap(Scope s) {
      return new PlacingScope(s, setter);
    }

    @Override
    public OperationBuilder opBuilder(String type, String name) {
      String device = setter.deviceFor(type, delegate.getDeviceString());
      return env().opBuilder(type, makeOpName(name), new DeviceScope(delegate, device));
    }

    @Override
    public ExecutionEnvironment env() {
      return delegate.env();
    }

    @Override
    public Scope withSubScope(String childScopeName) {
      return wrap(delegate.withSubScope(childScopeName));
    }

    @Override
    public Scope withName(String opName) {
      return wrap(delegate.withName(opName));
    }

    @Override
    public Scope withNameAsSubScope(String defaultName) {
      return wrap(delegate.withNameAsSubScope(defaultName));
    }

    @Override
    public Scope withDevice(DeviceSpec newDevice) {
      return wrap(delegate.withDevice(newDevice));
    }

    @Override
    public Scope withInitScope() {
      return wrap(delegate.withInitScope());
    }

    @Override
    public String makeOpName(String defaultName) {
      return delegate.makeOpName(defaultName);
    }

    @Override
    public String makeUnique(String id) {
      return delegate.makeUnique(id);
    }

    @Override
    public void refreshNames() {
      delegate.refreshNames();
    }

    @Override
    public Scope withControlDependencyOps(Iterable<Operation> controls) {
      return wrap(delegate.withControlDependencyOps(controls));
    }

    @Override
    public OperationBuilder apply(OperationBuilder builder) {
      return delegate.apply(builder);
    }

    @Override
    public String getDeviceString() {
      return delegate.getDeviceString();
    }

    @Override
    public boolean isInit() {
      return delegate.isInit();
    }
  }

  /** The scope one op builder is made with: the delegate's settings, then the chosen device. */
  private static final class DeviceScope implements Scope {
    private final Scope delegate;
    private final String device;

    DeviceScope(Scope delegate, String device) {
      this.delegate = delegate;
      this.device = device;
    }

    @Override
    public OperationBuilder apply(OperationBuilder builder) {
      return delegate.apply(builder).setDevice(device);
    }

    @Override
    public ExecutionEnvironment env() {
      return delegate.env();
    }

    @Override
    public Scope withSubScope(String childScopeName) {
      return delegate.withSubScope(childScopeName);
    }

    @Override
    public Scope withName(String opName) {
      return delegate.withName(opName);
    }

    @Override
    public Scope withNameAsSubScope(String defaultName) {
      return delegate.withNameAsSubScope(defaultName);
    }

    @Override
    public Scope withDevice(DeviceSpec newDevice) {
      return delegate.withDevice(newDevice);
    }

    @Override
    public Scope withInitScope() {
      return delegate.withInitScope();
    }

    @Override
    public String makeOpName(String defaultName) {
      return delegate.makeOpName(defaultName);
    }

    @Override
    public String makeUnique(String id) {
      return delegate.makeUnique(id);
    }

    @Override
    public void refreshNames() {
      delegate.refreshNames();
    }

    @Override
    public Scope withControlDependencyOps(Iterable<Operation> controls) {
      return delegate.withControlDependencyOps(controls);
    }

    @Override
    public String getDeviceString() {
      return device;
    }

    @Override
    public boolean isInit() {
      return delegate.isInit();
    }
  }
}
