package org.jhooks.hooks;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.TfSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TBool;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TFloat64;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;

/**
 * The asynchronous saver's reused snapshot buffers on the JVM driver ({@code
 * TfSession.takeSnapshot} and the writer thread's {@code saveSnapshot}): every checkpoint holds its
 * labelled step while training goes on, is byte for byte what tensorflow-java's {@code
 * Session.save} writes for the same state (every dtype), the buffers are no variables of the graph,
 * and they are reused save after save.
 */
public class SnapshotBuffersTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  /**
   * {@code big} [elements] float32 and {@code count} int64 hold the global step after every {@code
   * train_step}; {@code d} (float64), {@code i} (int32), {@code flag} (bool) and {@code text}
   * (string) change every step too.
   */
  private static Graph model(long elements) {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Variable<TFloat32> big =
        tf.withName("big").variable(tf.fill(tf.constant(new long[] {elements}), tf.constant(0f)));
    Variable<TInt64> count = tf.withName("count").variable(tf.constant(0L));
    Variable<TFloat64> d = tf.withName("d").variable(tf.constant(new double[] {Math.PI, -0.0}));
    Variable<TInt32> i = tf.withName("i").variable(tf.constant(new int[][] {{-7, 1 << 30}}));
    Variable<TBool> flag = tf.withName("flag").variable(tf.constant(true));
    Variable<TString> text =
        tf.withName("text")
            .variable(tf.constant(java.nio.charset.StandardCharsets.UTF_8, new String[] {"a", ""}));
    var bump =
        tf.withControlDependencies(
                List.of(
                    tf.assignAdd(big, tf.fill(tf.constant(new long[] {elements}), tf.constant(1f))),
                    tf.assignAdd(count, tf.constant(1L)),
                    tf.assign(d, tf.math.mul(d, tf.constant(1.5))),
                    tf.assignSub(i, tf.constant(new int[][] {{1, 3}})),
                    tf.assign(flag, tf.math.logicalNot(flag)),
                    tf.assign(text, tf.strings.join(List.of(text, tf.constant("x"))))))
            .noOp();
    GlobalStep.create(tf, bump);
    return g;
  }

  /** {@code big[0]}, {@code big[last]}, count and global_step of checkpoint {@code prefix}. */
  private static float[] restored(String prefix, long elements) {
    try (Graph g = model(elements);
        Session s = new Session(g)) {
      s.restore(prefix);
      try (Result r = s.runner().fetch("big").fetch("count").fetch("global_step").run()) {
        TFloat32 big = (TFloat32) r.get(0);
        return new float[] {
          big.getFloat(0),
          big.getFloat(elements - 1),
          ((TInt64) r.get(1)).getLong(),
          ((TInt64) r.get(2)).getLong()
        };
      }
    }
  }

  @Test
  public void everyCheckpointHoldsItsStepWhileTrainingRunsDuringTheWrite() throws Exception {
    Path dir = tmp.newFolder().toPath();
    long elements = 1 << 16;
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(3).maxToKeep(0).build();
    AtomicLong trained = new AtomicLong();
    List<Long> heldPast = new ArrayList<>();
    hook.beforeWrite =
        step -> { // each write waits until training has gone 2 steps past its snapshot
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (trained.get() < step + 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
          }
          heldPast.add(trained.get());
        };
    try (Graph g = model(elements);
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      for (int k = 0; k < 11; k++) {
        s.run(GlobalStep.TRAIN_STEP);
        trained.set(k + 1);
      }
      trained.set(Long.MAX_VALUE); // the final save in end() is not held
    }
    assertEquals(List.of(0L, 3L, 6L, 9L, 11L), hook.savedSteps());
    for (int k = 0; k < 4; k++) {
      assertTrue("write " + k + " overlapped training: " + heldPast, heldPast.get(k) >= 3 * k + 2);
    }
    for (long step : hook.savedSteps()) {
      float[] v = restored(dir.resolve("model.ckpt-" + step).toString(), elements);
      assertArrayEquals("checkpoint " + step, new float[] {step, step, step, step}, v, 0f);
    }
  }

  @Test
  public void checkpointsAreByteForByteWhatSessionSaveWritesForTheSameState() throws Exception {
    Path ours = tmp.newFolder().toPath();
    Path raw = tmp.newFolder().toPath();
    AsyncCheckpointSaverHook async =
        AsyncCheckpointSaverHook.builder(ours.toString()).saveSteps(2).maxToKeep(0).build();
    CheckpointSaverHook sync =
        CheckpointSaverHook.builder(raw.toString()).saveSteps(2).maxToKeep(0).build();
    List<String> listed = new ArrayList<>();
    try (Graph g = model(1000)) {
      // async first: the buffers exist before tensorflow-java builds its saver at the first save
      try (MonitoredSession s = MonitoredSession.builder(g).hooks(async, sync).build()) {
        for (int k = 0; k < 5; k++) {
          s.run(GlobalStep.TRAIN_STEP);
        }
        async.waitForPendingSaves();
        try (TfSession view = new TfSession(new Session(g), g)) {
          listed.addAll(view.saveableVariables().keySet());
        }
      }
      assertFalse(listed.toString(), listed.stream().anyMatch(n -> n.contains("jhooks_snapshot")));
      assertTrue(
          "the graph holds the buffers",
          g.operation("jhooks_snapshot/buffer") != null
              && "Variable".equals(g.operation("jhooks_snapshot/buffer").type()));
    }
    assertEquals(List.of(0L, 2L, 4L, 5L), async.savedSteps());
    assertEquals(async.savedSteps(), sync.savedSteps());
    for (long step : async.savedSteps()) {
      for (String suffix : List.of(".index", ".data-00000-of-00001")) {
        String name = "model.ckpt-" + step + suffix;
        assertArrayEquals(
            name, Files.readAllBytes(raw.resolve(name)), Files.readAllBytes(ours.resolve(name)));
      }
    }
  }

  private static double rssMb() throws Exception {
    String[] statm = Files.readString(Path.of("/proc/self/statm")).trim().split(" ");
    return Long.parseLong(statm[1]) * 4096.0 / (1 << 20);
  }

  @Test
  public void theBuffersAreReusedSaveAfterSave() throws Exception {
    Path dir = tmp.newFolder().toPath();
    long elements = 16L << 20; // 64 MB of float32
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(1).maxToKeep(1).build();
    double grown;
    try (Graph g = model(elements);
        MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
      for (int k = 0; k < 3; k++) {
        s.run(GlobalStep.TRAIN_STEP);
      }
      hook.waitForPendingSaves();
      double before = rssMb();
      for (int k = 0; k < 20; k++) {
        s.run(GlobalStep.TRAIN_STEP);
      }
      hook.waitForPendingSaves();
      grown = rssMb() - before;
    }
    assertEquals(24, hook.savedSteps().size());
    float[] v = restored(dir.resolve("model.ckpt-23").toString(), elements);
    assertArrayEquals(new float[] {23, 23, 23, 23}, v, 0f);
    assertTrue("the resident set grew by " + grown + " MB over 20 saves of 64 MB", grown < 48);
  }
}
