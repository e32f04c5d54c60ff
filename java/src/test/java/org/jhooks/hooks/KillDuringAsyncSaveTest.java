package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.testing.KillableTraining;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;

/**
 * SIGKILLs a training JVM ({@link KillableTraining}, saving asynchronously every step with 8 MB of
 * variables, so a write is nearly always in flight) at random points, repeatedly, and checks each
 * time that the latest checkpoint restores and is consistent: {@code v == global_step == w[i]} ==
 * the step in its name. Each next process resumes from it.
 */
public class KillDuringAsyncSaveTest {
  private static final Logger LOG = Logger.getLogger(KillDuringAsyncSaveTest.class.getName());
  private static final int W_SIZE = 2_000_000;
  private static final int KILLS = 5;

  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void theLatestCheckpointAlwaysRestoresAfterSigkill() throws Exception {
    Path dir = tmp.newFolder().toPath().resolve("ckpt");
    Random random = new Random(7);
    long previous = -1;
    List<Long> killedAt = new ArrayList<>();
    int tempLeftovers = 0;
    for (int round = 0; round < KILLS; round++) {
      Process p = start(dir, 1_000_000);
      LinkedBlockingQueue<String> out = lines(p);
      String first = out.poll(120, TimeUnit.SECONDS);
      assertTrue("no RESUMED line: " + first, first != null && first.startsWith("RESUMED "));
      long resumed = Long.parseLong(first.substring("RESUMED ".length()));
      assertEquals("resumed from the latest checkpoint", Math.max(previous, 0), resumed);
      // Let it save a few checkpoints past the resume point, then kill at a random moment.
      while (latestStep(dir) < resumed + 3) {
        Thread.sleep(5);
      }
      Thread.sleep(random.nextInt(300));
      p.destroyForcibly(); // SIGKILL on Linux
      p.waitFor();
      try (Stream<Path> files = Files.list(dir)) {
        tempLeftovers +=
            (int) files.filter(f -> f.getFileName().toString().contains("tempstate")).count();
      }
      long step = latestStep(dir);
      float[] restored = restore(Checkpoints.latestCheckpoint(dir).get());
      assertEquals("v of checkpoint " + step, step, restored[0], 0f);
      assertEquals("global_step of checkpoint " + step, step, restored[1], 0f);
      assertEquals("min(w) of checkpoint " + step, step, restored[2], 0f);
      assertEquals("max(w) of checkpoint " + step, step, restored[3], 0f);
      assertTrue(step > previous);
      previous = step;
      killedAt.add(step);
    }
    LOG.info(
        "killed at steps " + killedAt + "; half-written SaveV2 temp files seen: " + tempLeftovers);
    // A last run resumes and finishes normally.
    Process p = start(dir, previous + 5);
    assertEquals(0, p.waitFor());
    assertEquals(previous + 5, latestStep(dir));
  }

  private static Process start(Path dir, long lastStep) throws Exception {
    String java =
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-Dorg.bytedeco.javacpp.cachedir="
                + System.getProperty("org.bytedeco.javacpp.cachedir", ""),
            "-cp",
            System.getProperty("java.class.path"),
            KillableTraining.class.getName(),
            dir.toString(),
            Long.toString(lastStep),
            "1",
            Integer.toString(W_SIZE));
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    return pb.start();
  }

  private static LinkedBlockingQueue<String> lines(Process p) {
    LinkedBlockingQueue<String> q = new LinkedBlockingQueue<>();
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  q.add(line);
                }
              } catch (Exception e) {
                // the process was killed: its stdout closes
              }
            });
    t.setDaemon(true);
    t.start();
    return q;
  }

  private static long latestStep(Path dir) {
    return Checkpoints.latestCheckpoint(dir)
        .map(p -> Long.parseLong(p.substring(p.lastIndexOf('-') + 1)))
        .orElse(-1L);
  }

  /** {@code [v, global_step, min(w), max(w)]} of the checkpoint at {@code prefix}. */
  private static float[] restore(String prefix) {
    try (Graph g = KillableTraining.graph(W_SIZE);
        Session s = new Session(g)) {
      s.restore(prefix);
      try (Result r = s.runner().fetch("v").fetch("global_step").fetch("w").run()) {
        TFloat32 w = (TFloat32) r.get(2);
        float min = Float.MAX_VALUE;
        float max = -Float.MAX_VALUE;
        for (long i = 0; i < W_SIZE; i++) {
          float x = w.getFloat(i);
          min = Math.min(min, x);
          max = Math.max(max, x);
        }
        return new float[] {
          ((TFloat32) r.get(0)).getFloat(), ((TInt64) r.get(1)).getLong(), min, max
        };
      }
    }
  }
}
