package org.jhooks.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jhooks.checkpoint.Checkpoints;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The JVM demo run as a plain Java program (Java hooks), on the bundled data. */
public class JvmTrainingDemoTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static Path csv() {
    return Path.of(System.getProperty("jhooks.repo", "."), "jhooks", "demo", "data", "wdbc.csv");
  }

  @Test
  public void dataSplitsEveryFifthRowAndStandardizesWithTrainingStatistics() throws Exception {
    DemoData d = DemoData.load(csv());
    assertEquals(
        List.of(456, 113, 30), List.of(d.trainX.length, d.heldOutX.length, d.featureNames.size()));
    double mean = 0;
    double squares = 0;
    for (float[] row : d.trainX) {
      mean += row[0];
      squares += row[0] * row[0];
    }
    assertEquals(0.0, mean / d.trainX.length, 1e-5);
    assertEquals(1.0, squares / d.trainX.length, 1e-4);
    assertEquals(71.0 / 113, d.baselineAccuracy(), 1e-12);
  }

  @Test
  public void trainsSavesAndResumesFromItsCheckpoints() throws Exception {
    Path dir = tmp.newFolder("ckpt").toPath();
    JvmTrainingDemo.Options o =
        JvmTrainingDemo.Options.parse(
            csv().toString(),
            "--steps",
            "50",
            "--save-steps",
            "20",
            "--checkpoint-dir",
            dir.toString());
    JvmTrainingDemo.Result first = JvmTrainingDemo.run(o);
    assertEquals(List.of(0L, 50L), List.of(first.firstStep, first.lastStep));
    assertTrue("loss " + first.finalLoss, first.finalLoss < 0.2f);
    assertTrue("accuracy " + first.heldOutAccuracy, first.heldOutAccuracy > 0.9f);
    assertEquals(dir.resolve("model.ckpt-50").toString(), Checkpoints.latestCheckpoint(dir).get());
    assertEquals(
        List.of("model.ckpt-0", "model.ckpt-20", "model.ckpt-40", "model.ckpt-50"),
        Checkpoints.readState(dir).get().allModelCheckpointPaths());

    JvmTrainingDemo.Result second = JvmTrainingDemo.run(o);
    assertEquals(List.of(50L, 100L), List.of(second.firstStep, second.lastStep));
    assertTrue(second.finalLoss < first.finalLoss);

    Map<String, double[]> restored =
        JvmTrainingDemo.restoreVariables(
            csv().toString(), dir.resolve("model.ckpt-100").toString());
    assertEquals(List.of("w", "b", "global_step"), List.copyOf(restored.keySet()));
    assertEquals(30, restored.get("w").length);
    assertEquals(100.0, restored.get("global_step")[0], 0);
    assertTrue(Files.exists(dir.resolve("model.ckpt-100.index")));
  }
}
