package org.jhooks.tf;

import java.util.ArrayList;
import java.util.List;
import org.tensorflow.Server;

/**
 * A TensorFlow gRPC server for one task of a {@link Cluster}, hosted in this JVM: the twin of
 * Python's {@code tf.distribute.Server} (wrapped as {@code
 * jhooks.tf.cluster_server.ClusterServer}).
 *
 * <p>Started once and never deleted. TensorFlow cannot stop a started gRPC server: {@code
 * org.tensorflow.Server.close()} throws Unimplemented, and deleting a started server aborts the
 * process ({@code GrpcServer::~GrpcServer} checks {@code Stop()}). Python's {@code Server} leaks it
 * for the same reason. So every started server is kept reachable here until the process exits,
 * {@link #close()} does nothing, and the port is released only when the process ends. Note that
 * TensorFlow binds {@code 0.0.0.0:port}: the host in the cluster only changes the target string.
 */
public final class ClusterServer implements AutoCloseable {
  // Strong references: a collected Server would be deleted by its deallocator, aborting the JVM.
  private static final List<ClusterServer> STARTED = new ArrayList<>();

  private final Cluster cluster;
  private final String job;
  private final int task;
  private final Server server;

  private ClusterServer(Cluster cluster, String job, int task, Server server) {
    this.cluster = cluster;
    this.job = job;
    this.task = task;
    this.server = server;
  }

  /**
   * Creates and starts the server of task {@code task} of {@code job}.
   *
   * @throws IllegalArgumentException no such job or task in the cluster
   * @throws org.tensorflow.exceptions.TensorFlowException TensorFlow could not start it (the port
   *     is taken, for example)
   */
  public static ClusterServer start(Cluster cluster, String job, int task) {
    Server server = new Server(cluster.serverDef(job, task));
    server.start();
    ClusterServer started = new ClusterServer(cluster, job, task, server);
    synchronized (STARTED) {
      STARTED.add(started);
    }
    return started;
  }

  /** The session target of this server, {@code grpc://host:port} (Python's {@code target}). */
  public String target() {
    return cluster.target(job, task);
  }

  public Cluster cluster() {
    return cluster;
  }

  public String job() {
    return job;
  }

  public int task() {
    return task;
  }

  /** Blocks until the server ends, which is never before the process exits (a ps does this). */
  public void join() {
    server.join();
  }

  /** Does nothing: a started TensorFlow server lives until the process exits (see the class). */
  @Override
  public void close() {}

  @Override
  public String toString() {
    return "ClusterServer(/job:" + job + "/task:" + task + ", " + target() + ")";
  }
}
