package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * Between-graph training with the JVM driver on real TensorFlow gRPC servers (a ps and two workers,
 * hosted in this test JVM on 127.0.0.1; TensorFlow cannot stop them, so they live until the test
 * JVM exits): the chief initializes the variables on the ps and runs the chief-only hooks; a
 * non-chief waits for the chief, never runs chief-only hooks, and trains the shared global step;
 * without a chief the wait ends in a clear error. Python chiefs with JVM workers in separate
 * processes: {@code tests/distributed/test_cluster_runs.py}.
 */
public class DistributedTrainingTest {
  private static Cluster cluster;
  private static ClusterServer chiefServer;
  private static ClusterServer workerServer;

  @BeforeClass
  public static void startCluster() throws Exception {
    List<String> addresses = new ArrayList<>();
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(s);
        addresses.add("127.0.0.1:" + s.getLocalPort());
      }
    } finally {
      for (ServerSocket s : sockets) {
        s.close();
      }
    }
    Map<String, List<String>> jobs = new LinkedHashMap<>();
    jobs.put("ps", List.of(addresses.get(0)));
    jobs.put("worker", List.of(addresses.get(1), addresses.get(2)));
    cluster = Cluster.of(jobs);
    ClusterServer.start(cluster, "ps", 0);
    chiefServer = ClusterServer.start(cluster, "worker", 0);
    workerServer = ClusterServer.start(cluster, "worker", 1);
  }

  /** x (float, on the ps) += 1 per step, then global_step += 1. */
  private static Graph graph(int task) {
    Graph g = new Graph();
    Ops tf = ReplicaDeviceSetter.of(cluster, "worker", task).ops(g);
    Variable<TFloat32> x = tf.withName("x").variable(tf.constant(0f));
    Op add = tf.assignAdd(x, tf.constant(1f));
    GlobalStep.create(tf, add);
    assertEquals("/job:ps/task:0", g.operation("x").device());
    assertEquals("/job:ps/task:0", g.operation(GlobalStep.NAME).device());
    return g;
  }

  private static MonitoredTrainingSession.Builder builder(Graph g, ClusterServer server) {
    return MonitoredTrainingSession.builder(g)
        .master(server.target())
        .isChief(server.task() == 0)
        .config(cluster.sessionConfig("worker", server.task(), null))
        .logStepCountSteps(0)
        .workerWait(0.2, 60);
  }

  @Test
  public void chiefInitializesRunsChiefOnlyHooksAndANonChiefJoinsTheSharedStep() {
    List<String> chiefCalls = Collections.synchronizedList(new ArrayList<>());
    List<String> workerCalls = Collections.synchronizedList(new ArrayList<>());
    try (Graph g0 = graph(0);
        Graph g1 = graph(1)) {
      MonitoredTrainingSession.Builder chiefBuilder =
          builder(g0, chiefServer)
              .chiefOnlyHooks(new RecordingHook(chiefCalls, "chiefOnly:"))
              .hooks(new RecordingHook(chiefCalls, "hook:"));
      try (MonitoredSession chief = chiefBuilder.build()) {
        for (int i = 0; i < 5; i++) {
          chief.run(GlobalStep.TRAIN_STEP);
        }
        MonitoredTrainingSession.Builder workerBuilder =
            builder(g1, workerServer)
                .chiefOnlyHooks(new RecordingHook(workerCalls, "chiefOnly:"))
                .hooks(new RecordingHook(workerCalls, "hook:"));
        assertEquals(1, workerBuilder.allHooks().size());
        try (MonitoredSession worker = workerBuilder.build()) {
          // The non-chief did not initialize: it sees the chief's 5 steps on the ps.
          assertEquals(5L, worker.session().globalStep());
          for (int i = 0; i < 3; i++) {
            worker.run(GlobalStep.TRAIN_STEP);
          }
          assertEquals(8L, chief.session().globalStep());
        }
        chief.run(GlobalStep.TRAIN_STEP);
        assertEquals(9L, chief.session().globalStep());
      }
    }
    assertTrue(chiefCalls.toString(), chiefCalls.contains("chiefOnly:begin"));
    assertTrue(chiefCalls.toString(), chiefCalls.contains("chiefOnly:end"));
    assertFalse(
        workerCalls.toString(), workerCalls.stream().anyMatch(c -> c.contains("chiefOnly")));
    assertTrue(workerCalls.toString(), workerCalls.contains("hook:before:7"));
  }

  @Test
  public void aNonChiefWaitsBoundedForAChiefThatNeverComesAndNamesTheVariables() {
    // A cluster of its own: this ps has never seen a chief.
    try (Graph g = new Graph()) {
      Ops tf = Ops.create(g);
      tf.withName("lonely").variable(tf.constant(1f));
      MonitoredTrainingSession.Builder b =
          MonitoredTrainingSession.builder(g)
              .master(workerServer.target())
              .isChief(false)
              .config(cluster.sessionConfig("worker", 1, null))
              .workerWait(0.1, 0.5);
      ModelNotReadyException e = assertThrows(ModelNotReadyException.class, b::build);
      assertEquals(List.of("lonely"), e.notReady());
      assertTrue(e.getMessage(), e.getMessage().contains(workerServer.target()));
      assertTrue(e.getMessage(), e.getMessage().contains("variables not initialized: [lonely]"));
    }
  }
}
