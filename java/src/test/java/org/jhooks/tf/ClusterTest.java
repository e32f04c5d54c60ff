package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.op.Ops;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TFloat32;

/** Cluster strings, session targets and a JVM-hosted server. */
public class ClusterTest {
  private static Cluster cluster(String... workers) {
    Map<String, List<String>> jobs = new LinkedHashMap<>();
    jobs.put("ps", List.of("127.0.0.1:2222"));
    jobs.put("worker", List.of(workers));
    return Cluster.of(jobs);
  }

  @Test
  public void targetsAndDeviceFilters() {
    Cluster c = cluster("127.0.0.1:2223", "127.0.0.1:2224");
    assertEquals("grpc://127.0.0.1:2224", c.target("worker", 1));
    assertEquals(List.of("/job:ps", "/job:worker/task:1"), c.deviceFilters("worker", 1));
    assertEquals(List.of("/job:ps/task:0"), c.deviceFilters("ps", 0));
    ConfigProto config =
        c.sessionConfig("worker", 0, ConfigProto.newBuilder().setOperationTimeoutInMs(5).build());
    assertEquals(List.of("/job:ps", "/job:worker/task:0"), config.getDeviceFiltersList());
    assertEquals(5, config.getOperationTimeoutInMs());
    assertEquals("worker", c.serverDef("worker", 1).getJobName());
    assertEquals("127.0.0.1:2224", c.clusterDef().getJob(1).getTasksMap().get(1));
  }

  @Test
  public void badInputNamesTheValue() {
    Cluster c = cluster("127.0.0.1:2223");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> c.target("worker", 3));
    assertTrue(e.getMessage(), e.getMessage().contains("not 3"));
    e = assertThrows(IllegalArgumentException.class, () -> c.address("chief", 0));
    assertTrue(e.getMessage(), e.getMessage().contains("'chief'"));
    e = assertThrows(IllegalArgumentException.class, () -> cluster("localhost"));
    assertTrue(e.getMessage(), e.getMessage().contains("'localhost'"));
  }

  @Test
  public void targetSessionsAcceptOnlyTargetsTensorFlowHasAFactoryFor() {
    try (Graph g = new Graph()) {
      for (String bad : List.of("local", "127.0.0.1:2222", "grpc://")) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> TargetSessions.open(g, bad, null));
        assertTrue(e.getMessage(), e.getMessage().contains("'" + bad + "'"));
      }
      assertThrows(
          IllegalArgumentException.class,
          () -> MonitoredTrainingSession.builder(g).master("127.0.0.1:2222"));
    }
  }

  @Test
  public void aJvmHostedServerRunsAGraphThroughItsGrpcTarget() throws Exception {
    int port;
    try (java.net.ServerSocket s =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Cluster c = Cluster.of(Map.of("local", List.of("127.0.0.1:" + port)));
    // Lives until this test JVM exits (TensorFlow cannot stop it); close() is a no-op.
    try (ClusterServer server = ClusterServer.start(c, "local", 0);
        Graph g = new Graph()) {
      assertEquals("grpc://127.0.0.1:" + port, server.target());
      Ops tf = Ops.create(g);
      tf.withName("product").math.mul(tf.constant(6f), tf.constant(7f));
      try (Session s = TargetSessions.open(g, server.target(), c.sessionConfig("local", 0, null));
          Result r = s.runner().fetch("product").run()) {
        assertEquals(42f, ((TFloat32) r.get(0)).getFloat(), 0f);
      }
    }
  }
}
