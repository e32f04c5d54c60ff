package org.jhooks.hooks;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.SaveDecision;
import org.jhooks.Session;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.conformance.ModelRecipe;
import org.jhooks.testing.CounterGraph;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;

/**
 * Listener veto ({@link SaveDecision#SKIP}) and {@link BestCheckpointsListener} on the JVM driver
 * with real checkpoints.
 */
public class ListenerVetoAndBestTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final Pattern FILE = Pattern.compile("^model\\.ckpt-(\\d+)\\..*");

  /** Skips the saves of {@code skip}; records calls and the state file's bytes at each decision. */
  static final class Vetoing implements CheckpointSaverListener {
    final Path dir;
    final List<Long> skip;
    final List<String> calls = new ArrayList<>();
    final Map<Long, byte[]> stateAt = new HashMap<>();

    Vetoing(Path dir, Long... skip) {
      this.dir = dir;
      this.skip = List.of(skip);
    }

    @Override
    public SaveDecision decideSave(Session session, long step) {
      calls.add("decideSave@" + step);
      try {
        Path state = dir.resolve(Checkpoints.STATE_FILE);
        stateAt.put(step, Files.exists(state) ? Files.readAllBytes(state) : null);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return skip.contains(step) ? SaveDecision.SKIP : SaveDecision.SAVE;
    }

    @Override
    public boolean afterSave(Session session, long step) {
      calls.add("afterSave@" + step);
      return false;
    }
  }

  /** A listener written before decideSave existed: only the void beforeSave. */
  static final class Legacy implements CheckpointSaverListener {
    final List<String> calls = new ArrayList<>();

    @Override
    public void beforeSave(Session session, long step) {
      calls.add("beforeSave@" + step);
    }

    @Override
    public boolean afterSave(Session session, long step) {
      calls.add("afterSave@" + step);
      return false;
    }
  }

  static List<Long> steps(Path dir) throws IOException {
    TreeSet<Long> out = new TreeSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.forEach(
          p -> {
            Matcher m = FILE.matcher(p.getFileName().toString());
            if (m.matches()) {
              out.add(Long.parseLong(m.group(1)));
            }
          });
    }
    return new ArrayList<>(out);
  }

  @Test
  public void aSkippedSaveWritesNothingAndFiresNoAfterSaveInBothSavers() throws IOException {
    for (boolean async : new boolean[] {false, true}) {
      Path dir = tmp.newFolder().toPath();
      Vetoing veto = new Vetoing(dir, 2L);
      Legacy legacy = new Legacy();
      CheckpointSaverHookBase saver =
          async
              ? AsyncCheckpointSaverHook.builder(dir.toString())
                  .saveSteps(1)
                  .maxToKeep(0)
                  .listeners(veto, legacy)
                  .build()
              : CheckpointSaverHook.builder(dir.toString())
                  .saveSteps(1)
                  .maxToKeep(0)
                  .listeners(veto, legacy)
                  .build();
      try (Graph g = CounterGraph.counter()) {
        HookGraphs.train(g, 3, saver);
      }
      assertEquals(List.of(0L, 1L, 3L), steps(dir));
      assertEquals(List.of(0L, 1L, 3L), saver.savedSteps());
      assertEquals(
          List.of(
              "beforeSave@0",
              "afterSave@0",
              "beforeSave@1",
              "afterSave@1",
              "beforeSave@2",
              "beforeSave@3",
              "afterSave@3"),
          legacy.calls);
      assertFalse(veto.calls.contains("afterSave@2"));
      assertArrayEquals(veto.stateAt.get(2L), veto.stateAt.get(3L));
      assertFalse(
          Checkpoints.readState(dir)
              .orElseThrow()
              .allModelCheckpointPaths()
              .contains("model.ckpt-2"));
    }
  }

  @Test
  public void aSkippedFinalSaveKeepsTheLatest() throws IOException {
    Path dir = tmp.newFolder().toPath();
    CheckpointSaverHook saver =
        CheckpointSaverHook.builder(dir.toString())
            .saveSteps(100)
            .listeners(new Vetoing(dir, 4L))
            .build();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 4, saver);
    }
    assertEquals(List.of(0L), steps(dir));
    assertEquals(dir.resolve("model.ckpt-0").toString(), Checkpoints.latestCheckpoint(dir).get());
  }

  private static Graph recipe() {
    Graph g = new Graph();
    ModelRecipe.build(g, JsonParser.parseString("{}").getAsJsonObject());
    return g;
  }

  @Test
  public void bestCheckpointsKeepsTheBestNInItsSubdirOnly() throws IOException {
    for (boolean async : new boolean[] {false, true}) {
      Path dir = tmp.newFolder().toPath();
      Files.createDirectories(dir.resolve("best"));
      Files.writeString(dir.resolve("best").resolve("other.ckpt-99.index"), "keep me");
      // an orphan of its own basename (a kill between a copy and the index write): removed
      Files.writeString(dir.resolve("best").resolve("model.ckpt-99.index"), "orphan");
      Files.writeString(dir.resolve("notes.txt"), "keep me");
      Files.writeString(dir.resolve("best").resolve("model.ckpt-7.index.tempstate.copy"), "half");
      Files.writeString(dir.resolve("best").resolve("best_checkpoints.json.tmp12"), "half");
      BestCheckpointsListener best =
          new BestCheckpointsListener(dir.toString(), "counter_read:0", "min", 2);
      CheckpointSaverHookBase saver =
          async
              ? AsyncCheckpointSaverHook.builder(dir.toString())
                  .saveSteps(1)
                  .maxToKeep(3)
                  .listeners(best)
                  .build()
              : CheckpointSaverHook.builder(dir.toString())
                  .saveSteps(1)
                  .maxToKeep(3)
                  .listeners(best)
                  .build();
      try (Graph g = recipe();
          org.jhooks.tf.MonitoredSession s =
              org.jhooks.tf.MonitoredSession.builder(g).hooks(saver).build()) {
        for (int i = 0; i < 5; i++) {
          s.run("train");
        }
      }
      Path bestDir = dir.resolve("best");
      assertEquals(List.of(0L, 1L), steps(bestDir));
      assertEquals(List.of(3L, 4L, 5L), steps(dir));
      assertEquals(bestDir.resolve("model.ckpt-0").toString(), best.bestCheckpoint());
      assertEquals(
          bestDir.resolve("model.ckpt-0").toString(), Checkpoints.latestCheckpoint(bestDir).get());
      assertEquals(
          List.of("model.ckpt-1", "model.ckpt-0"),
          Checkpoints.readState(bestDir).orElseThrow().allModelCheckpointPaths());
      assertEquals("keep me", Files.readString(bestDir.resolve("other.ckpt-99.index")));
      assertEquals("keep me", Files.readString(dir.resolve("notes.txt")));
      assertTrue(Files.exists(bestDir.resolve(BestCheckpointsListener.INDEX_FILE)));
      assertFalse(Files.exists(bestDir.resolve("model.ckpt-7.index.tempstate.copy")));
      assertFalse(Files.exists(bestDir.resolve("best_checkpoints.json.tmp12")));
      try (Graph g = recipe();
          org.tensorflow.Session s = new org.tensorflow.Session(g)) {
        s.restore(bestDir.resolve("model.ckpt-1").toString());
        try (org.tensorflow.Result r = s.runner().fetch("counter").fetch("global_step").run()) {
          assertEquals(1f, ((org.tensorflow.types.TFloat32) r.get(0)).getFloat(), 0f);
          assertEquals(1L, ((org.tensorflow.types.TInt64) r.get(1)).getLong());
        }
      }
    }
  }

  @Test
  public void bestCheckpointsRefusesBadArgumentsNamingThem() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new BestCheckpointsListener("/tmp/x", "m:0", "median", 1));
    assertEquals(
        "BestCheckpointsListener: mode must be 'min' or 'max', got median", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new BestCheckpointsListener("/tmp/x", "m:0", "min", 1, "../up", null));
    assertTrue(e.getMessage(), e.getMessage().contains("subdir must be a directory name"));
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new BestCheckpointsListener("/tmp/x", "m:0", "max", 0));
    assertTrue(e.getMessage(), e.getMessage().contains("keep must be an int >= 1, got 0"));
  }
}
