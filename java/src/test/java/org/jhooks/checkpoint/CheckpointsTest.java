package org.jhooks.checkpoint;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.FloatNdArray;

public class CheckpointsTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void stateFileRoundTripsInTensorFlowsTextFormat() throws Exception {
    Path dir = tmp.newFolder().toPath();
    CheckpointState state =
        new CheckpointState("model.ckpt-20", List.of("model.ckpt-10", "model.ckpt-20"));
    Checkpoints.writeState(dir, state);
    assertEquals(
        "model_checkpoint_path: \"model.ckpt-20\"\n"
            + "all_model_checkpoint_paths: \"model.ckpt-10\"\n"
            + "all_model_checkpoint_paths: \"model.ckpt-20\"\n",
        Files.readString(dir.resolve("checkpoint")));
    assertEquals(Optional.of(state), Checkpoints.readState(dir));
    assertEquals(List.of("checkpoint"), listNames(dir)); // no temporary file left behind
  }

  @Test
  public void parsesTheTimestampsTensorFlow2Adds() {
    CheckpointState s =
        CheckpointState.parse(
            "model_checkpoint_path: \"a/b\\\"c\"\n"
                + "all_model_checkpoint_paths: \"x\"\n"
                + "all_model_checkpoint_timestamps: 1700000000.5\n"
                + "last_preserved_timestamp: 1699999999.25\n");
    assertEquals("a/b\"c", s.modelCheckpointPath());
    assertEquals(List.of("x"), s.allModelCheckpointPaths());
  }

  @Test
  public void latestCheckpointNeedsTheIndexFile() throws Exception {
    Path dir = tmp.newFolder().toPath();
    Checkpoints.writeState(dir, new CheckpointState("model.ckpt-5", List.of("model.ckpt-5")));
    assertEquals(Optional.empty(), Checkpoints.latestCheckpoint(dir));
    Files.writeString(dir.resolve("model.ckpt-5.index"), "");
    assertEquals(Optional.empty(), Checkpoints.latestCheckpoint(dir));
    Files.writeString(dir.resolve("model.ckpt-5.data-00000-of-00001"), "");
    assertEquals(
        Optional.of(dir.resolve("model.ckpt-5").toString()), Checkpoints.latestCheckpoint(dir));
  }

  @Test
  public void rotationKeepsTheNewestAndDeletesOlderFiles() throws Exception {
    Path dir = tmp.newFolder().toPath();
    for (int step = 1; step <= 4; step++) {
      Path prefix = Checkpoints.checkpointPrefix(dir, "model.ckpt", step);
      Files.writeString(Path.of(prefix + ".index"), "");
      Files.writeString(Path.of(prefix + ".data-00000-of-00001"), "");
      Checkpoints.recordCheckpoint(dir, "model.ckpt", prefix, 2);
    }
    assertEquals(
        new CheckpointState("model.ckpt-4", List.of("model.ckpt-3", "model.ckpt-4")),
        Checkpoints.readState(dir).get());
    assertEquals(
        List.of(
            "checkpoint",
            "model.ckpt-3.data-00000-of-00001",
            "model.ckpt-3.index",
            "model.ckpt-4.data-00000-of-00001",
            "model.ckpt-4.index"),
        listNames(dir));
  }

  @Test
  public void aNewSessionRestoresTheLatestCheckpoint() throws Exception {
    Path dir = tmp.newFolder().toPath();
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .checkpointDir(dir)
                .saveCheckpointSteps(100)
                .logStepCountSteps(0)
                .build()) {
      for (int i = 0; i < 3; i++) {
        s.run(CounterGraph.TRAIN);
      }
    }
    assertTrue(Files.exists(dir.resolve("model.ckpt-3.index")));
    CheckpointRestoringSessionCreator creator = new CheckpointRestoringSessionCreator(dir);
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .checkpointDir(dir)
                .sessionCreator(creator)
                .logStepCountSteps(0)
                .build()) {
      assertEquals(dir.resolve("model.ckpt-3").toString(), creator.lastRestored());
      assertEquals(3L, s.session().globalStep());
      assertEquals(
          3f, ((FloatNdArray) s.runWithoutHooks("v:0", java.util.Map.of(), null)).getFloat(), 0f);
    }
  }

  @Test
  public void withoutACheckpointTheSessionIsInitialized() throws Exception {
    Path dir = tmp.newFolder().toPath();
    CheckpointRestoringSessionCreator creator = new CheckpointRestoringSessionCreator(dir);
    try (Graph g = CounterGraph.counter();
        MonitoredSession s = MonitoredSession.builder(g).sessionCreator(creator).build()) {
      assertEquals(null, creator.lastRestored());
      assertEquals(0L, s.session().globalStep());
      assertFalse(Files.exists(dir.resolve("checkpoint")));
    }
  }

  @Test
  public void rotationDeletesOnlyThisBasenamesCheckpointsInTheDirByLiteralName() throws Exception {
    Path dir = tmp.newFolder().toPath();
    Path elsewhere = tmp.newFolder().toPath();
    for (String decoy : List.of("mA-1", "mB-2", "other-1")) {
      writeCheckpoint(dir.resolve(decoy));
    }
    writeCheckpoint(elsewhere.resolve("m?-1"));
    Checkpoints.writeState(
        dir,
        new CheckpointState(
            elsewhere.resolve("m?-1").toString(),
            List.of(elsewhere.resolve("m?-1").toString(), "other-1")));
    CheckpointRotation rotation = new CheckpointRotation(dir, "m?", 1);
    assertEquals(List.of(), rotation.kept());
    for (int step = 1; step <= 3; step++) {
      Path prefix = Checkpoints.checkpointPrefix(dir, "m?", step);
      writeCheckpoint(prefix);
      rotation.record(prefix.toString());
    }
    assertEquals(new CheckpointState("m?-3", List.of("m?-3")), Checkpoints.readState(dir).get());
    assertEquals(
        List.of(
            "checkpoint",
            "m?-3.data-00000-of-00001",
            "m?-3.index",
            "mA-1.data-00000-of-00001",
            "mA-1.index",
            "mB-2.data-00000-of-00001",
            "mB-2.index",
            "other-1.data-00000-of-00001",
            "other-1.index"),
        listNames(dir));
    assertEquals(List.of("m?-1.data-00000-of-00001", "m?-1.index"), listNames(elsewhere));
    assertThrows(
        IllegalArgumentException.class,
        () -> Checkpoints.deleteCheckpoint(dir, "m?", elsewhere.resolve("m?-1")));
  }

  @Test
  public void aBasenameWithPathPartsIsRefusedNamingTheHook() {
    for (String bad : List.of("a/b", "..", "../x", "x\\y", "")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> Checkpoints.validateBasename("SomeHook", bad));
      assertTrue(e.getMessage(), e.getMessage().startsWith("SomeHook: checkpointBasename"));
      assertTrue(e.getMessage(), e.getMessage().endsWith("got '" + bad + "'"));
    }
    assertEquals("run[1]", Checkpoints.validateBasename("SomeHook", "run[1]"));
  }

  @Test
  public void aGarbageStateFileIsAnErrorNamingTheFileAndLine() throws Exception {
    Path dir = tmp.newFolder().toPath();
    Files.writeString(dir.resolve("checkpoint"), "model_checkpoint_path: \"a\"\nnot a field\n");
    CheckpointStateException e =
        assertThrows(CheckpointStateException.class, () -> Checkpoints.readState(dir));
    assertEquals(dir.resolve("checkpoint").toString(), e.path());
    assertTrue(e.getMessage(), e.getMessage().contains("line 2 is not a CheckpointState field"));
    Files.write(dir.resolve("checkpoint"), new byte[] {(byte) 0xff, 0, 'x'});
    assertThrows(CheckpointStateException.class, () -> Checkpoints.latestCheckpoint(dir));
    Files.writeString(dir.resolve("checkpoint"), "");
    assertThrows(CheckpointStateException.class, () -> Checkpoints.readState(dir));
  }

  @Test
  public void staleTemporariesOfThisBasenameAreRemoved() throws Exception {
    Path dir = tmp.newFolder().toPath();
    for (String name :
        List.of(
            "checkpoint.tmp123",
            "model.ckpt-3.index.tempstate77",
            "model.ckpt-3.data-00000-of-00001.tempstate8",
            "other-3.index.tempstate1",
            "graph.pbtxt.tmp42",
            "graph.pbtxt",
            "notes.txt")) {
      Files.writeString(dir.resolve(name), "x");
    }
    assertEquals(4, Checkpoints.cleanStaleTemporaries(dir, "model.ckpt").size());
    assertEquals(List.of("graph.pbtxt", "notes.txt", "other-3.index.tempstate1"), listNames(dir));
  }

  /**
   * graph.pbtxt is the text format of the GraphDef (TF's write_graph as_text), replaced whole, and
   * only it is written in the dir.
   */
  @Test
  public void writeGraphWritesTheTextGraphDefReplacingTheOldOne() throws Exception {
    Path dir = tmp.newFolder().toPath().resolve("new");
    try (Graph g = CounterGraph.counter()) {
      byte[] graphDef = g.toGraphDef().toByteArray();
      assertEquals(dir.resolve("graph.pbtxt"), Checkpoints.writeGraph(dir, graphDef));
      Files.writeString(dir.resolve("graph.pbtxt"), "stale");
      Checkpoints.writeGraph(dir, graphDef);
      assertEquals(
          g.toGraphDef(),
          com.google.protobuf.TextFormat.parse(
              Files.readString(dir.resolve("graph.pbtxt")), org.tensorflow.proto.GraphDef.class));
    }
    assertEquals(List.of("graph.pbtxt"), listNames(dir));
    assertThrows(
        IllegalArgumentException.class,
        () -> Checkpoints.writeGraph(dir, new byte[] {(byte) 0xff}));
  }

  private static void writeCheckpoint(Path prefix) throws Exception {
    Files.writeString(Path.of(prefix + ".index"), "");
    Files.writeString(Path.of(prefix + ".data-00000-of-00001"), "");
  }

  private static List<String> listNames(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }
}
