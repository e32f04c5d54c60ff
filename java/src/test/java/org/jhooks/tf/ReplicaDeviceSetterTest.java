package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.tensorflow.DeviceSpec;
import org.tensorflow.Graph;
import org.tensorflow.op.Ops;

/** The JVM replica device setter: TensorFlow's placement rule, and every op of its Ops placed. */
public class ReplicaDeviceSetterTest {
  private static final Cluster CLUSTER =
      Cluster.of(
          Map.of(
              "ps", List.of("127.0.0.1:1", "127.0.0.1:2"),
              "worker", List.of("127.0.0.1:3", "127.0.0.1:4")));

  @Test
  public void variablesGoRoundRobinToThePsTasksAndTheRestToTheWorker() {
    ReplicaDeviceSetter setter = ReplicaDeviceSetter.of(CLUSTER, "worker", 1);
    assertEquals("/job:ps/task:0", setter.deviceFor("VariableV2", ""));
    assertEquals("/job:worker/task:1", setter.deviceFor("MatMul", ""));
    assertEquals("/job:ps/task:1", setter.deviceFor("VarHandleOp", ""));
    assertEquals("/job:ps/task:0", setter.deviceFor("VariableV2", ""));
  }

  @Test
  public void theRequestedDeviceIsMergedInAndWins() {
    ReplicaDeviceSetter setter = ReplicaDeviceSetter.of(CLUSTER, "worker", 0);
    assertEquals("/job:ps/task:1", setter.deviceFor("VariableV2", "/job:ps/task:1"));
    // The round robin advanced anyway (TensorFlow calls its strategy for every ps-job op).
    assertEquals("/job:ps/task:1", setter.deviceFor("VariableV2", ""));
    // Another job: kept, no task from the round robin.
    assertEquals("/job:local", setter.deviceFor("VariableV2", "/job:local"));
    assertEquals("/job:ps/task:0", setter.deviceFor("VariableV2", ""));
    assertEquals("/job:worker/task:0/device:CPU:0", setter.deviceFor("Add", "/device:CPU:0"));
  }

  @Test
  public void noPsTasksPlacesEverythingOnTheWorker() {
    ReplicaDeviceSetter setter = new ReplicaDeviceSetter(0, "/job:ps", "/job:worker/task:2");
    assertEquals("/job:worker/task:2", setter.deviceFor("VariableV2", ""));
    assertThrows(
        IllegalArgumentException.class, () -> new ReplicaDeviceSetter(-1, "/job:ps", "/job:w"));
  }

  @Test
  public void everyOpOfItsOpsIsPlaced() {
    try (Graph g = new Graph()) {
      Ops tf = ReplicaDeviceSetter.of(CLUSTER, "worker", 1).ops(g);
      tf.withName("v0").variable(tf.constant(new float[] {1f}));
      tf.withName("v1").variable(tf.constant(new float[] {2f}));
      tf.withName("sum").math.add(tf.constant(1f), tf.constant(2f));
      tf.withDevice(DeviceSpec.newBuilder().job("ps").task(0).build())
          .withName("pinned")
          .variable(tf.constant(new float[] {3f}));
      assertEquals("/job:ps/task:0", g.operation("v0").device());
      assertEquals("/job:ps/task:1", g.operation("v1").device());
      assertEquals("/job:worker/task:1", g.operation("sum").device());
      assertEquals("/job:ps/task:0", g.operation("pinned").device());
    }
  }
}
