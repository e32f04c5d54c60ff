package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jhooks.CheckpointGuard;
import org.jhooks.Hook;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.conformance.ModelRecipe;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;
import org.jhooks.tf.TfSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Output;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;

/**
 * No poisoned checkpoints on the JVM driver: once the loss is NaN in the run that makes global step
 * 3, no saver writes step 3 or later (timer save, final save), whatever the hook order; real
 * checkpoints on disk.
 */
public class NoPoisonedCheckpointsTest {
  private static final long POISONED = 3;

  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static Graph nanGraph() {
    Graph g = new Graph();
    ModelRecipe.build(g, JsonParser.parseString("{\"nanLossAtStep\": 3}").getAsJsonObject());
    return g;
  }

  /** Trains until a stop, a NaN exception or 10 runs; the runs done, negated after a NaN error. */
  private static int train(Graph g, List<Hook> hooks) {
    int runs = 0;
    try (MonitoredSession s = MonitoredSession.builder(g).hooks(hooks).build()) {
      while (!s.shouldStop() && runs < 10) {
        s.run("train");
        runs++;
      }
    } catch (NanLossDuringTrainingException e) {
      return -runs;
    }
    return runs;
  }

  private static List<Long> stepsOnDisk(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("model.ckpt-") && n.endsWith(".index"))
          .map(n -> Long.parseLong(n.substring("model.ckpt-".length(), n.indexOf(".index"))))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static void assertNoPoison(Path dir, long lastFinite) throws IOException {
    List<Long> steps = stepsOnDisk(dir);
    assertEquals(Long.valueOf(lastFinite), steps.get(steps.size() - 1));
    try (Stream<Path> files = Files.list(dir)) {
      assertTrue(
          files.noneMatch(p -> p.getFileName().toString().startsWith("model.ckpt-" + POISONED)));
    }
    assertEquals(
        dir.resolve("model.ckpt-" + lastFinite).toString(),
        Checkpoints.latestCheckpoint(dir).orElse(null));
  }

  private void check(boolean async, boolean nanFirst, boolean fail, int saveSteps, long lastFinite)
      throws IOException {
    Path dir = tmp.newFolder().toPath();
    CheckpointSaverHookBase saver =
        async
            ? AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(saveSteps).build()
            : CheckpointSaverHook.builder(dir.toString()).saveSteps(saveSteps).build();
    NanTensorHook nan = new NanTensorHook("loss:0", fail);
    List<Hook> hooks = nanFirst ? List.of(nan, saver) : List.of(saver, nan);
    try (Graph g = nanGraph();
        StandardHooksTest.Captured log =
            new StandardHooksTest.Captured("org.jhooks.hooks." + saver.name)) {
      int runs = train(g, hooks);
      saver.close();
      assertEquals(fail ? -(int) (POISONED - 1) : (int) POISONED, runs);
      assertNoPoison(dir, lastFinite);
      boolean attempted = !(fail && nanFirst) && (saveSteps == 1 || !fail);
      List<String> warnings = new ArrayList<>();
      for (String line : log.lines) {
        if (line.contains("not saving the checkpoint of step " + POISONED)) {
          warnings.add(line);
        }
      }
      assertEquals(log.lines.toString(), attempted, !warnings.isEmpty());
    }
  }

  @Test
  public void timerSaveOfTheNanStepIsNotWrittenInAnyOrder() throws IOException {
    for (boolean async : new boolean[] {false, true}) {
      for (boolean nanFirst : new boolean[] {false, true}) {
        for (boolean fail : new boolean[] {false, true}) {
          check(async, nanFirst, fail, 1, POISONED - 1);
        }
      }
    }
  }

  @Test
  public void finalSaveInEndIsNotWritten() throws IOException {
    for (boolean async : new boolean[] {false, true}) {
      for (boolean nanFirst : new boolean[] {false, true}) {
        check(async, nanFirst, false, 100, 0);
      }
    }
  }

  @Test
  public void theDriversDefaultSaverWritesNoPoisonedCheckpoint() throws IOException {
    Path dir = tmp.newFolder().toPath();
    try (Graph g = nanGraph();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .checkpointDir(dir)
                .saveCheckpointSteps(1)
                .logStepCountSteps(0)
                .hooks(new NanTensorHook("loss:0", false))
                .build()) {
      while (!s.shouldStop()) {
        s.run("train");
      }
    }
    assertNoPoison(dir, POISONED - 1);
  }

  @Test
  public void guardIsPerRawSessionViewAndKeepsTheLowestStep() {
    try (Graph g = nanGraph();
        org.tensorflow.Session rawA = new org.tensorflow.Session(g);
        org.tensorflow.Session rawB = new org.tensorflow.Session(g)) {
      TfSession a = new TfSession(rawA, g);
      TfSession b = new TfSession(rawB, g);
      CheckpointGuard guard = CheckpointGuard.of(a);
      assertSame(guard, CheckpointGuard.of(a));
      assertNotSame(guard, CheckpointGuard.of(b));
      guard.watchLoss("loss:0");
      guard.watchLoss("loss:0");
      guard.reportNanLoss(7, "loss:0");
      guard.reportNanLoss(9, "other:0");
      guard.reportNanLoss(5, "loss:0");
      assertEquals(List.of("loss:0"), guard.watchedLosses());
      assertEquals(5L, guard.nanStep().getAsLong());
      assertEquals("loss:0", guard.nanLoss().get());
      assertTrue(guard.allowsSave(4));
      assertFalse(guard.allowsSave(5));
      assertTrue(CheckpointGuard.of(b).allowsSave(Long.MAX_VALUE));
    }
  }

  /**
   * Weights that turn NaN one run before the loss does (issue 30): {@code w} (float32 [3]) moves by
   * the gradient of {@code |w - stopGradient(w) + c|}, with {@code c} 1 before global step 2 and 0
   * from then on. The run starting at step 2 has a finite loss and the norm of the zero vector,
   * whose gradient is 0/0: step 3 holds NaN weights; the next run's loss is NaN.
   */
  private static Graph nanWeightsFirstGraph() {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Variable<TInt64> globalStep = tf.withName("global_step").variable(tf.constant(0L));
    Variable<TFloat32> w = tf.withName("w").variable(tf.constant(new float[] {1f, 1f, 1f}));
    Operand<TInt64> stepRead = tf.math.add(globalStep, tf.constant(0L));
    Operand<TFloat32> c =
        tf.dtypes.cast(tf.math.less(stepRead, tf.constant(POISONED - 1)), TFloat32.class);
    Operand<TFloat32> d = tf.math.add(tf.math.sub(w, tf.stopGradient(w)), c);
    Operand<TFloat32> norm = tf.math.sqrt(tf.reduceSum(tf.math.square(d), tf.constant(0)));
    Operand<TFloat32> fit =
        tf.reduceSum(tf.math.square(tf.math.sub(w, tf.constant(2f))), tf.constant(0));
    Operand<TFloat32> loss = tf.withName("loss").math.add(fit, norm);
    Output<?> gradient = g.addGradients(loss.asOutput(), new Output<?>[] {w.asOutput()})[0];
    Op update = tf.assignSub(w, tf.math.mul(tf.constant(0.01f), gradient.expect(TFloat32.class)));
    tf.withControlDependencies(List.of(update, stepRead))
        .withName("train")
        .assignAdd(globalStep, tf.constant(1L));
    return g;
  }

  @Test
  public void weightsNanOneRunBeforeTheLossAreNotSavedInAnyOrder() throws IOException {
    for (boolean async : new boolean[] {false, true}) {
      for (boolean nanFirst : new boolean[] {false, true}) {
        Path dir = tmp.newFolder().toPath();
        CheckpointSaverHookBase saver =
            async
                ? AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(1).build()
                : CheckpointSaverHook.builder(dir.toString()).saveSteps(1).build();
        NanTensorHook nan = new NanTensorHook("loss:0", false);
        try (Graph g = nanWeightsFirstGraph();
            StandardHooksTest.Captured log =
                new StandardHooksTest.Captured("org.jhooks.hooks." + saver.name)) {
          int runs = train(g, nanFirst ? List.of(nan, saver) : List.of(saver, nan));
          saver.close();
          String what = (async ? "async" : "sync") + (nanFirst ? " nan-hook-first" : "");
          assertEquals(what, (int) POISONED + 1, runs);
          assertNoPoison(dir, POISONED - 1);
          assertTrue(
              what + " " + log.lines,
              log.lines.stream()
                  .anyMatch(
                      l ->
                          l.contains("not saving the checkpoint of step " + POISONED)
                              && l.contains("variables w hold NaN or infinity")));
        }
      }
    }
  }

  @Test
  public void theDriversDefaultSaverRefusesWeightsNanBeforeTheLoss() throws IOException {
    Path dir = tmp.newFolder().toPath();
    try (Graph g = nanWeightsFirstGraph();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .checkpointDir(dir)
                .saveCheckpointSteps(1)
                .logStepCountSteps(0)
                .build()) {
      for (int i = 0; i < POISONED + 2 && !s.shouldStop(); i++) {
        s.run("train");
      }
    }
    assertNoPoison(dir, POISONED - 1);
  }
}
