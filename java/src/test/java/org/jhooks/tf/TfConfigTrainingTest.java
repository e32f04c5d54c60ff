package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * Between-graph training set up from TF_CONFIG texts alone, as an operator hands them out (a {@code
 * chief} job, a worker, a ps; real TensorFlow servers in this JVM on 127.0.0.1, which live until
 * the test JVM exits): {@code builder(graph).tfConfig(TfConfig.parse(...))} gives each task its
 * master, chief flag and device filters.
 */
public class TfConfigTrainingTest {
  private static String tfConfig(List<String> addresses, String type) {
    return "{\"cluster\": {\"chief\": [\""
        + addresses.get(0)
        + "\"], \"worker\": [\""
        + addresses.get(1)
        + "\"], \"ps\": [\""
        + addresses.get(2)
        + "\"]}, \"task\": {\"type\": \""
        + type
        + "\", \"index\": 0}}";
  }

  private static List<String> freeAddresses(int n) throws Exception {
    List<String> addresses = new ArrayList<>();
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(s);
        addresses.add("127.0.0.1:" + s.getLocalPort());
      }
    } finally {
      for (ServerSocket s : sockets) {
        s.close();
      }
    }
    return addresses;
  }

  /** x (float, on the ps) += 1 per step, then global_step += 1, placed for the task. */
  private static Graph graph(TfConfig task) {
    Graph g = new Graph();
    Ops tf = task.replicaDeviceSetter().ops(g);
    Variable<TFloat32> x = tf.withName("x").variable(tf.constant(0f));
    Op add = tf.assignAdd(x, tf.constant(1f));
    GlobalStep.create(tf, add);
    assertEquals("/job:ps/task:0", g.operation("x").device());
    return g;
  }

  @Test
  public void theChiefJobTrainsWithAWorkerFromTfConfigAlone() throws Exception {
    List<String> addresses = freeAddresses(3);
    TfConfig ps = TfConfig.parse(tfConfig(addresses, "ps"));
    assertSame(ps.server(), ps.server()); // started once per JVM
    TfConfig chiefTask = TfConfig.parse(tfConfig(addresses, "chief"));
    TfConfig workerTask = TfConfig.parse(tfConfig(addresses, "worker"));
    assertTrue(chiefTask.isChief());
    assertFalse(workerTask.isChief());
    List<String> chiefCalls = Collections.synchronizedList(new ArrayList<>());
    List<String> workerCalls = Collections.synchronizedList(new ArrayList<>());
    try (Graph g0 = graph(chiefTask);
        Graph g1 = graph(workerTask)) {
      MonitoredTrainingSession.Builder chiefBuilder =
          MonitoredTrainingSession.builder(g0)
              .tfConfig(chiefTask)
              .logStepCountSteps(0)
              .chiefOnlyHooks(new RecordingHook(chiefCalls, "chiefOnly:"));
      try (MonitoredSession chief = chiefBuilder.build()) {
        assertEquals(chiefTask.master(), chiefTask.server().target());
        for (int i = 0; i < 4; i++) {
          chief.run(GlobalStep.TRAIN_STEP);
        }
        MonitoredTrainingSession.Builder workerBuilder =
            MonitoredTrainingSession.builder(g1)
                .tfConfig(workerTask)
                .logStepCountSteps(0)
                .workerWait(0.2, 60)
                .chiefOnlyHooks(new RecordingHook(workerCalls, "chiefOnly:"))
                .hooks(new RecordingHook(workerCalls, "hook:"));
        try (MonitoredSession worker = workerBuilder.build()) {
          assertEquals(4L, worker.session().globalStep()); // waited for, not initialized
          for (int i = 0; i < 3; i++) {
            worker.run(GlobalStep.TRAIN_STEP);
          }
        }
        assertEquals(7L, chief.session().globalStep());
      }
    }
    assertTrue(chiefCalls.toString(), chiefCalls.contains("chiefOnly:begin"));
    assertFalse(
        workerCalls.toString(), workerCalls.stream().anyMatch(c -> c.contains("chiefOnly")));
    assertTrue(workerCalls.toString(), workerCalls.contains("hook:before:6"));
  }
}
