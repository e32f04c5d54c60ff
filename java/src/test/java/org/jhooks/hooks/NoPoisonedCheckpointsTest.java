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
}
