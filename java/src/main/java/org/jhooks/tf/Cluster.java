package org.jhooks.tf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tensorflow.proto.ClusterDef;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.proto.JobDef;
import org.tensorflow.proto.ServerDef;

/**
 * A cluster description: job name to the {@code host:port} address of each task, like TensorFlow's
 * {@code tf.train.ClusterSpec}. One description serves every task of a cluster, in either language
 * ({@code jhooks.tf.cluster.Cluster} is the Python twin and gives the same strings): the server
 * definition of a task ({@link #serverDef}), its session target ({@link #target}) and the device
 * filters its sessions need ({@link #deviceFilters}).
 *
 * <p>Jobs keep their insertion order; tasks are numbered from 0 in list order.
 */
public final class Cluster {
  /** The job whose tasks hold the variables ({@link ReplicaDeviceSetter}'s default). */
  public static final String PS = "ps";

  /** The job whose tasks run the training loop; task 0 is the chief by convention. */
  public static final String WORKER = "worker";

  private final Map<String, List<String>> jobs;

  private Cluster(Map<String, List<String>> jobs) {
    Map<String, List<String>> copy = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : jobs.entrySet()) {
      String job = Objects.requireNonNull(e.getKey(), "job name");
      if (job.isEmpty() || !job.matches("[A-Za-z0-9_]+")) {
        throw new IllegalArgumentException("Cluster: job name '" + job + "' is not [A-Za-z0-9_]+");
      }
      List<String> tasks = List.copyOf(e.getValue());
      for (String address : tasks) {
        if (!address.matches("[^:/\\s]+:\\d+")) {
          throw new IllegalArgumentException(
              "Cluster: job '" + job + "' has address '" + address + "', expected host:port");
        }
      }
      copy.put(job, tasks);
    }
    this.jobs = Collections.unmodifiableMap(copy);
  }

  /**
   * A cluster of {@code jobs} (job name to task addresses, {@code host:port}).
   *
   * @throws IllegalArgumentException a job name that is not {@code [A-Za-z0-9_]+}, or an address
   *     that is not {@code host:port}
   */
  public static Cluster of(Map<String, List<String>> jobs) {
    return new Cluster(jobs);
  }

  /** Job name to task addresses, in insertion order. */
  public Map<String, List<String>> jobs() {
    return jobs;
  }

  /** The number of tasks of {@code job}, 0 if the cluster has no such job. */
  public int numTasks(String job) {
    List<String> tasks = jobs.get(job);
    return tasks == null ? 0 : tasks.size();
  }

  /**
   * The {@code host:port} of a task.
   *
   * @throws IllegalArgumentException no such job or task
   */
  public String address(String job, int task) {
    List<String> tasks = jobs.get(job);
    if (tasks == null) {
      throw new IllegalArgumentException(
          "Cluster: no job '" + job + "' (jobs: " + jobs.keySet() + ")");
    }
    if (task < 0 || task >= tasks.size()) {
      throw new IllegalArgumentException(
          "Cluster: job '" + job + "' has tasks 0.." + (tasks.size() - 1) + ", not " + task);
    }
    return tasks.get(task);
  }

  /** The session target of a task's server: {@code grpc://host:port}. */
  public String target(String job, int task) {
    return "grpc://" + address(job, task);
  }

  /**
   * The device filters a task's sessions use, TensorFlow's recommendation for between-graph
   * training: every ps task and the task itself ({@code ["/job:ps", "/job:worker/task:1"]}). With
   * them a session waits only for those tasks; without them a worker that starts after another has
   * exited waits for it forever (tensorflow/tensorflow#21629).
   */
  public List<String> deviceFilters(String job, int task) {
    address(job, task);
    List<String> filters = new ArrayList<>();
    if (jobs.containsKey(PS) && !PS.equals(job)) {
      filters.add("/job:" + PS);
    }
    filters.add("/job:" + job + "/task:" + task);
    return filters;
  }

  /** A session config with {@link #deviceFilters} of the task, added to {@code base} (or none). */
  public ConfigProto sessionConfig(String job, int task, ConfigProto base) {
    ConfigProto.Builder b = base == null ? ConfigProto.newBuilder() : base.toBuilder();
    return b.clearDeviceFilters().addAllDeviceFilters(deviceFilters(job, task)).build();
  }

  /** The cluster as TensorFlow's {@code ClusterDef} proto. */
  public ClusterDef clusterDef() {
    ClusterDef.Builder b = ClusterDef.newBuilder();
    for (Map.Entry<String, List<String>> e : jobs.entrySet()) {
      JobDef.Builder job = JobDef.newBuilder().setName(e.getKey());
      for (int i = 0; i < e.getValue().size(); i++) {
        job.putTasks(i, e.getValue().get(i));
      }
      b.addJob(job);
    }
    return b.build();
  }

  /** The {@code ServerDef} of one task (protocol {@code grpc}), for {@link ClusterServer}. */
  public ServerDef serverDef(String job, int task) {
    address(job, task);
    return ServerDef.newBuilder()
        .setCluster(clusterDef())
        .setJobName(job)
        .setTaskIndex(task)
        .setProtocol("grpc")
        .build();
  }

  @Override
  public String toString() {
    return "Cluster" + jobs;
  }
}
