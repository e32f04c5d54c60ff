package org.jhooks.tf;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tensorflow.proto.ConfigProto;

/**
 * One task's view of its cluster, from the {@code TF_CONFIG} environment variable: the {@link
 * Cluster}, the task's type (its job) and index, and whether it is the chief. {@code TF_CONFIG} is
 * how Kubeflow's TFJob operator, SageMaker and TensorFlow's {@code TFConfigClusterResolver} hand a
 * task its role:
 *
 * <pre>
 * {"cluster": {"chief": ["host:port"], "worker": ["host:port", ...], "ps": ["host:port", ...]},
 *  "task": {"type": "worker", "index": 1}}
 * </pre>
 *
 * <p>The twin of {@code jhooks.tf.tf_config.TfConfig}: the same JSON gives the same answers and the
 * same error messages in both languages (the table {@code tests/distributed/tf_config_cases.json};
 * only the parser's own words after "is not JSON:" differ). TensorFlow's rules ({@code
 * multi_worker_util._validate_cluster_spec}): jobs are {@code chief}, {@code worker}, {@code ps}
 * and {@code evaluator}; at most one {@code chief} task and one {@code evaluator} task; the task's
 * type is a job of the cluster, except {@code evaluator}, which the operators leave out of the
 * cluster (it does not train); the index defaults to 0. The chief is the {@code chief} task, else
 * worker 0 when the cluster has no {@code chief} job. Unlike TensorFlow's {@code
 * multi_worker_util.is_chief} (which calls the evaluator a chief "on its own"), the evaluator is
 * not the chief here: it runs no chief-only hooks and writes no training checkpoints. An unset or
 * empty {@code TF_CONFIG}, or one without {@code cluster}, is local training, as in TensorFlow: no
 * cluster, task {@code worker} 0, the chief, master {@code ""}.
 *
 * <p>A JVM worker's main: {@code
 * MonitoredTrainingSession.builder(graph).tfConfig(TfConfig.fromEnv())}, with the graph built by
 * {@code TfConfig.fromEnv().replicaDeviceSetter().ops(graph)} (see {@code docs/distributed.md}).
 */
public final class TfConfig {
  /** The environment variable: {@code TF_CONFIG}. */
  public static final String ENV = "TF_CONFIG";

  /** The job of the chief task, when the cluster has one (else worker 0 is the chief). */
  public static final String CHIEF = "chief";

  /** The job of the task that evaluates the chief's checkpoints; it is not in the cluster. */
  public static final String EVALUATOR = "evaluator";

  /** The job names TensorFlow allows in {@code TF_CONFIG}. */
  public static final List<String> JOBS = List.of(CHIEF, Cluster.WORKER, Cluster.PS, EVALUATOR);

  private static final String JOB_LIST = String.join(", ", JOBS);
  private static final String ADDRESS = "[^:/ \\t\\n\\x0B\\f\\r]+:[0-9]+";
  private static final Map<String, ClusterServer> SERVERS = new HashMap<>();

  private final Cluster cluster;
  private final String taskType;
  private final int taskIndex;

  private TfConfig(Cluster cluster, String taskType, int taskIndex) {
    this.cluster = cluster;
    this.taskType = taskType;
    this.taskIndex = taskIndex;
  }

  /**
   * Task {@code taskIndex} of {@code taskType} in {@code cluster}, checked by TensorFlow's rules
   * (see the class).
   *
   * @throws IllegalArgumentException naming the field and its value
   */
  public static TfConfig of(Cluster cluster, String taskType, int taskIndex) {
    Objects.requireNonNull(cluster, "cluster");
    checkJobs(cluster);
    if (!JOBS.contains(taskType)) {
      throw fail("task.type is " + quoted(taskType) + ", expected one of " + JOB_LIST);
    }
    if (taskIndex < 0) {
      throw fail("task.index is " + taskIndex + ", expected an integer >= 0");
    }
    Map<String, List<String>> jobs = cluster.jobs();
    if (jobs.isEmpty()) {
      if (!Cluster.WORKER.equals(taskType) || taskIndex != 0) {
        throw fail(
            "task is "
                + taskType
                + " "
                + taskIndex
                + " but cluster is empty (local training is worker 0)");
      }
    } else if (!EVALUATOR.equals(taskType) || jobs.containsKey(EVALUATOR)) {
      if (!jobs.containsKey(taskType)) {
        throw fail(
            "task.type is "
                + quoted(taskType)
                + ", which is not a job of the cluster ("
                + String.join(", ", jobs.keySet())
                + ")");
      }
      int n = jobs.get(taskType).size();
      if (taskIndex >= n) {
        throw fail(
            "task.index is "
                + taskIndex
                + ", but cluster."
                + taskType
                + " has tasks 0.."
                + (n - 1));
      }
    } else if (taskIndex != 0) {
      throw fail("task.index is " + taskIndex + ", but there is one evaluator, task 0");
    }
    return new TfConfig(cluster, taskType, taskIndex);
  }

  /**
   * The configuration in {@code text}, a {@code TF_CONFIG} value (JSON, read strictly with Gson).
   * An empty text, or an object without {@code cluster} (or with an empty one) and without {@code
   * task}, is local training. {@code rpc_layer} must be absent or {@code "grpc"}; {@code
   * session_master} is refused (each task's master is its own server); other keys ({@code
   * environment}) are ignored, as TensorFlow does.
   *
   * @throws IllegalArgumentException not JSON, or a field that breaks TensorFlow's rules, naming
   *     the field and its value ({@code task.index is "1", expected an integer >= 0})
   */
  public static TfConfig parse(String text) {
    Objects.requireNonNull(text, "TF_CONFIG text");
    if (text.isBlank()) {
      return of(Cluster.of(Map.of()), Cluster.WORKER, 0);
    }
    JsonElement data = readJson(text);
    if (!data.isJsonObject()) {
      throw fail("TF_CONFIG is " + data + ", expected a JSON object");
    }
    JsonObject object = data.getAsJsonObject();
    JsonElement rpc = object.get("rpc_layer");
    if (rpc != null && !new JsonPrimitive("grpc").equals(rpc)) {
      throw fail("rpc_layer is " + rpc + "; TensorFlow's servers here speak only \"grpc\"");
    }
    if (object.has("session_master")) {
      throw fail(
          "session_master is "
              + object.get("session_master")
              + "; each task's master is its own server");
    }
    Cluster cluster = cluster(object.has("cluster") ? object.get("cluster") : new JsonObject());
    JsonElement task = object.get("task");
    if (task == null || task.isJsonNull()) {
      if (!cluster.jobs().isEmpty()) {
        throw fail("task is missing; a cluster task needs {\"type\": ..., \"index\": ...}");
      }
      return of(cluster, Cluster.WORKER, 0);
    }
    if (!task.isJsonObject()) {
      throw fail("task is " + task + ", expected an object {\"type\": ..., \"index\": ...}");
    }
    JsonObject t = task.getAsJsonObject();
    if (!t.has("type")) {
      throw fail("task.type is missing");
    }
    checkJobs(cluster);
    JsonElement type = t.get("type");
    if (!type.isJsonPrimitive()
        || !type.getAsJsonPrimitive().isString()
        || !JOBS.contains(type.getAsString())) {
      throw fail("task.type is " + type + ", expected one of " + JOB_LIST);
    }
    return of(cluster, type.getAsString(), index(t.get("index")));
  }

  /** {@link #parse} of the {@code TF_CONFIG} environment variable; unset is local training. */
  public static TfConfig fromEnv() {
    return fromEnv(System.getenv());
  }

  /** {@link #parse} of {@code TF_CONFIG} in {@code env}; unset is local training. */
  public static TfConfig fromEnv(Map<String, String> env) {
    String text = env.get(ENV);
    return parse(text == null ? "" : text);
  }

  /** The cluster (no jobs for local training; never the evaluator's own address). */
  public Cluster cluster() {
    return cluster;
  }

  /** The task's job: {@code chief}, {@code worker}, {@code ps} or {@code evaluator}. */
  public String taskType() {
    return taskType;
  }

  /** The task's index in its job, from 0. */
  public int taskIndex() {
    return taskIndex;
  }

  /** The {@code chief} task, else worker 0 when there is no {@code chief} job (local too). */
  public boolean isChief() {
    if (CHIEF.equals(taskType)) {
      return true;
    }
    return Cluster.WORKER.equals(taskType) && taskIndex == 0 && cluster.numTasks(CHIEF) == 0;
  }

  /** The {@code evaluator} task: it reads the chief's checkpoints and trains nothing. */
  public boolean isEvaluator() {
    return EVALUATOR.equals(taskType);
  }

  private boolean inCluster() {
    return !cluster.jobs().isEmpty() && !isEvaluator();
  }

  /**
   * The session target: the task's own server {@code grpc://host:port}; {@code ""} (in-process) for
   * local training and the evaluator.
   */
  public String master() {
    return inCluster() ? cluster.target(taskType, taskIndex) : "";
  }

  /** {@link Cluster#deviceFilters} of the task; none for local training and the evaluator. */
  public List<String> deviceFilters() {
    return inCluster() ? cluster.deviceFilters(taskType, taskIndex) : List.of();
  }

  /**
   * A session config with the task's {@link #deviceFilters}, added to {@code base} (or none);
   * {@code base} unchanged (or the default config) for local training and the evaluator.
   */
  public ConfigProto sessionConfig(ConfigProto base) {
    if (inCluster()) {
      return cluster.sessionConfig(taskType, taskIndex, base);
    }
    return base == null ? ConfigProto.getDefaultInstance() : base;
  }

  /**
   * The task's TensorFlow server, started on the first call in this JVM and the same one afterwards
   * (TensorFlow cannot stop or restart a server; see {@link ClusterServer}).
   *
   * @throws IllegalArgumentException local training and the evaluator, which have no server
   * @throws org.tensorflow.exceptions.TensorFlowException TensorFlow could not start it
   */
  public ClusterServer server() {
    if (!inCluster()) {
      throw fail(taskType + " " + taskIndex + " has no server (" + why() + ")");
    }
    String key = taskType + "/" + taskIndex + "/" + cluster.address(taskType, taskIndex);
    synchronized (SERVERS) {
      return SERVERS.computeIfAbsent(key, k -> ClusterServer.start(cluster, taskType, taskIndex));
    }
  }

  /**
   * The task's {@link ReplicaDeviceSetter}: variables on the ps tasks, other ops on this task.
   *
   * @throws IllegalArgumentException local training and the evaluator
   */
  public ReplicaDeviceSetter replicaDeviceSetter() {
    if (!inCluster()) {
      throw fail(taskType + " " + taskIndex + " places no ops on a cluster (" + why() + ")");
    }
    return ReplicaDeviceSetter.of(cluster, taskType, taskIndex);
  }

  private String why() {
    return isEvaluator() ? "the evaluator runs in-process" : "local training: the cluster is empty";
  }

  @Override
  public String toString() {
    return "TfConfig(" + taskType + " " + taskIndex + ", chief=" + isChief() + ", " + cluster + ")";
  }

  private static IllegalArgumentException fail(String message) {
    return new IllegalArgumentException("TfConfig: " + message);
  }

  private static String quoted(String s) {
    return s == null ? "null" : new JsonPrimitive(s).toString();
  }

  private static JsonElement readJson(String text) {
    JsonReader reader = new JsonReader(new StringReader(text));
    reader.setStrictness(Strictness.STRICT);
    try {
      JsonElement data = JsonParser.parseReader(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw fail("TF_CONFIG is not JSON: more text after the value");
      }
      return data;
    } catch (JsonParseException | IOException e) {
      String why = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
      IllegalArgumentException error = fail("TF_CONFIG is not JSON: " + why);
      error.initCause(e);
      throw error;
    }
  }

  private static void checkJobs(Cluster cluster) {
    for (Map.Entry<String, List<String>> e : cluster.jobs().entrySet()) {
      String job = e.getKey();
      if (!JOBS.contains(job)) {
        throw fail("cluster has the job " + quoted(job) + "; TensorFlow's jobs are " + JOB_LIST);
      }
      if ((CHIEF.equals(job) || EVALUATOR.equals(job)) && e.getValue().size() > 1) {
        throw fail(
            "cluster."
                + job
                + " has "
                + e.getValue().size()
                + " tasks; TensorFlow allows at most one");
      }
    }
  }

  private static Cluster cluster(JsonElement value) {
    if (!value.isJsonObject()) {
      throw fail(
          "cluster is " + value + ", expected an object of job name to a list of \"host:port\"");
    }
    Map<String, List<String>> jobs = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> e : value.getAsJsonObject().entrySet()) {
      String job = e.getKey();
      if (!JOBS.contains(job)) {
        throw fail("cluster has the job " + quoted(job) + "; TensorFlow's jobs are " + JOB_LIST);
      }
      JsonElement tasks = e.getValue();
      if (!tasks.isJsonArray() || tasks.getAsJsonArray().isEmpty()) {
        throw fail(
            "cluster."
                + job
                + " is "
                + tasks
                + ", expected a list of \"host:port\" (at least one)");
      }
      List<String> addresses = new ArrayList<>();
      int i = 0;
      for (JsonElement address : tasks.getAsJsonArray()) {
        if (!address.isJsonPrimitive()
            || !address.getAsJsonPrimitive().isString()
            || !address.getAsString().matches(ADDRESS)) {
          throw fail("cluster." + job + "[" + i + "] is " + address + ", expected \"host:port\"");
        }
        addresses.add(address.getAsString());
        i++;
      }
      jobs.put(job, addresses);
    }
    return Cluster.of(jobs);
  }

  private static int index(JsonElement value) {
    if (value == null) {
      return 0;
    }
    if (value.isJsonPrimitive()
        && value.getAsJsonPrimitive().isNumber()
        && value.getAsString().matches("-?(0|[1-9][0-9]*)")) {
      BigInteger n = new BigInteger(value.getAsString());
      if (n.signum() >= 0) {
        return n.min(BigInteger.valueOf(Integer.MAX_VALUE)).intValueExact();
      }
    }
    throw fail("task.index is " + value + ", expected an integer >= 0");
  }
}
