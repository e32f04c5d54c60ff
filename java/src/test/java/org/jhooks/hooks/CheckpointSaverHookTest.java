package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.HookException;
import org.jhooks.Session;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.testing.CounterGraph;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.proto.Event;
import org.tensorflow.proto.GraphDef;
import org.tensorflow.proto.MetaGraphDef;
import org.tensorflow.proto.NodeDef;

/** The synchronous saver on the JVM driver with real checkpoints. */
public class CheckpointSaverHookTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  /** Records listener calls; checks at afterSave that the files and the state file are on disk. */
  static final class RecordingListener implements CheckpointSaverListener {
    final List<String> calls = new ArrayList<>();
    final Path dir;
    final long stopAt;

    RecordingListener(Path dir, long stopAt) {
      this.dir = dir;
      this.stopAt = stopAt;
    }

    @Override
    public void begin() {
      calls.add("begin");
    }

    @Override
    public void beforeSave(Session session, long step) {
      calls.add("beforeSave:" + step);
    }

    @Override
    public boolean afterSave(Session session, long step) {
      String prefix = dir.resolve("model.ckpt-" + step).toString();
      boolean onDisk =
          Checkpoints.checkpointExists(prefix)
              && prefix.equals(Checkpoints.latestCheckpoint(dir).orElse(null));
      calls.add("afterSave:" + step + (onDisk ? "" : ":NOT-ON-DISK"));
      return step == stopAt;
    }

    @Override
    public void end(Session session, long step) {
      calls.add("end:" + step);
    }
  }

  @Test
  public void savesAfterCreationEveryNStepsAndAtEndWithTheValuesOfTheStep() throws Exception {
    Path dir = tmp.newFolder().toPath();
    RecordingListener l = new RecordingListener(dir, -1);
    CheckpointSaverHook hook =
        CheckpointSaverHook.builder(dir.toString()).saveSteps(3).maxToKeep(0).listeners(l).build();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 7, hook);
    }
    assertEquals(List.of(0L, 3L, 6L, 7L), hook.savedSteps());
    assertEquals(
        List.of(
            "begin",
            "beforeSave:0",
            "afterSave:0",
            "beforeSave:3",
            "afterSave:3",
            "beforeSave:6",
            "afterSave:6",
            "beforeSave:7",
            "afterSave:7",
            "end:7"),
        l.calls);
    for (long step : hook.savedSteps()) {
      float[] restored = HookGraphs.restore(dir.resolve("model.ckpt-" + step).toString());
      assertEquals(step, restored[0], 0f);
      assertEquals(step, restored[1], 0f);
    }
    assertEquals(
        List.of("model.ckpt-0", "model.ckpt-3", "model.ckpt-6", "model.ckpt-7"),
        hook.keptCheckpoints());
  }

  @Test
  public void aCheckpointDirThatIsAFileFailsInBeginNamingHookAndDir() throws Exception {
    Path file = tmp.newFile().toPath();
    for (boolean async : new boolean[] {false, true}) {
      RecordingListener l = new RecordingListener(file, -1);
      CheckpointSaverHookBase hook =
          async
              ? AsyncCheckpointSaverHook.builder(file.toString()).saveSteps(1).listeners(l).build()
              : CheckpointSaverHook.builder(file.toString()).saveSteps(1).listeners(l).build();
      try (Graph g = CounterGraph.counter()) {
        HookException e = assertThrows(HookException.class, () -> HookGraphs.train(g, 2, hook));
        String name = async ? "AsyncCheckpointSaverHook" : "CheckpointSaverHook";
        assertEquals(
            name
                + ".begin: cannot create checkpointDir "
                + file.toAbsolutePath()
                + ": it exists and is not a directory",
            e.getMessage());
        assertTrue(e.getCause() instanceof java.nio.file.FileAlreadyExistsException);
      }
      assertEquals(List.of(), l.calls);
      assertTrue(Files.isRegularFile(file));
    }
  }

  @Test
  public void explicitVariablesAreWrittenFromOneSnapshot() throws Exception {
    Path dir = tmp.newFolder().toPath();
    CheckpointSaverHook hook =
        CheckpointSaverHook.builder(dir.toString())
            .saveSteps(2)
            .saver(new Saver(List.of("v", "global_step"), 0))
            .build();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 5, hook);
    }
    assertEquals(List.of(0L, 2L, 4L, 5L), hook.savedSteps());
    float[] restored = HookGraphs.restore(dir.resolve("model.ckpt-4").toString());
    assertEquals(4f, restored[0], 0f);
    assertEquals(4f, restored[1], 0f);
  }

  @Test
  public void rotationKeepsMaxToKeepNewestCheckpoints() throws Exception {
    Path dir = tmp.newFolder().toPath();
    CheckpointSaverHook hook =
        CheckpointSaverHook.builder(dir.toString()).saveSteps(1).maxToKeep(2).build();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 5, hook);
    }
    assertEquals(List.of("model.ckpt-4", "model.ckpt-5"), hook.keptCheckpoints());
    assertEquals(
        withGraphFiles(
            dir,
            List.of(
                "checkpoint",
                "model.ckpt-4.data-00000-of-00001",
                "model.ckpt-4.index",
                "model.ckpt-5.data-00000-of-00001",
                "model.ckpt-5.index")),
        fileNames(dir));
  }

  @Test
  public void listenerStopRequestIsHonoured() throws Exception {
    Path dir = tmp.newFolder().toPath();
    RecordingListener l = new RecordingListener(dir, 4);
    CheckpointSaverHook hook =
        CheckpointSaverHook.builder(dir.toString()).saveSteps(2).listeners(l).build();
    int runs;
    try (Graph g = CounterGraph.counter()) {
      runs = HookGraphs.train(g, 100, hook);
    }
    assertEquals(4, runs);
    assertEquals(
        List.of(
            "begin",
            "beforeSave:0",
            "afterSave:0",
            "beforeSave:2",
            "afterSave:2",
            "beforeSave:4",
            "afterSave:4",
            "end:4"),
        l.calls);
  }

  @Test
  public void argumentErrorsUseTensorFlowsMessages() {
    assertEquals(
        "Either every_secs or every_steps should be provided.",
        assertThrows(
                IllegalArgumentException.class, () -> CheckpointSaverHook.builder("/tmp/x").build())
            .getMessage());
    assertEquals(
        "Either every_secs or every_steps should be provided.",
        assertThrows(
                IllegalArgumentException.class,
                () -> AsyncCheckpointSaverHook.builder("/tmp/x").build())
            .getMessage());
    assertEquals(
        "Can not provide both every_secs and every_steps.",
        assertThrows(
                IllegalArgumentException.class,
                () -> AsyncCheckpointSaverHook.builder("/tmp/x").saveSecs(1).saveSteps(1).build())
            .getMessage());
    assertEquals(
        "Can not provide both every_secs and every_steps.",
        assertThrows(
                IllegalArgumentException.class,
                () -> CheckpointSaverHook.builder("/tmp/x").saveSecs(1).saveSteps(1).build())
            .getMessage());
    assertEquals(
        "You cannot provide both saver and scaffold.",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    CheckpointSaverHook.builder("/tmp/x")
                        .saveSteps(1)
                        .saver(Saver.defaults())
                        .scaffold(new Scaffold(null, null))
                        .build())
            .getMessage());
    assertEquals(
        "You cannot provide both saver and maxToKeep.",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new AsyncCheckpointSaverHook(
                        "/tmp/x", null, 1, Saver.defaults(), null, null, null, 2))
            .getMessage());
    assertEquals(
        "saveSteps must be positive, got 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> CheckpointSaverHook.builder("/tmp/x").saveSteps(0).build())
            .getMessage());
    assertEquals(
        "checkpointDir must be given",
        assertThrows(
                IllegalArgumentException.class,
                () -> CheckpointSaverHook.builder(null).saveSteps(1).build())
            .getMessage());
  }

  /**
   * TF's {@code test_summary_writer_defs} on the JVM driver: at session creation each saver writes
   * {@code graph.pbtxt} (the text GraphDef of the training graph) and a {@code graph_def} and a
   * {@code meta_graph_def} event of that graph into its dir's event file, once per session.
   */
  @Test
  public void writesGraphPbtxtAndTheGraphEventsAtSessionCreationAsTensorFlowsHook()
      throws Exception {
    for (boolean async : new boolean[] {false, true}) {
      Path dir = tmp.newFolder().toPath();
      CheckpointSaverHookBase hook =
          async
              ? AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(2).build()
              : CheckpointSaverHook.builder(dir.toString()).saveSteps(2).build();
      try (Graph g = CounterGraph.counter()) {
        HookGraphs.train(g, 3, hook);
      }
      GraphDef graph =
          com.google.protobuf.TextFormat.parse(
              Files.readString(dir.resolve(Checkpoints.GRAPH_FILE)), GraphDef.class);
      List<String> names =
          graph.getNodeList().stream().map(NodeDef::getName).collect(Collectors.toList());
      assertTrue(names.toString(), names.containsAll(List.of("global_step", "v", "bump", "loss")));
      List<Event> events =
          EventFiles.readAll(dir).stream()
              .filter(e -> e.hasGraphDef() || e.hasMetaGraphDef())
              .collect(Collectors.toList());
      assertEquals(2, events.size());
      assertEquals(graph, GraphDef.parseFrom(events.get(0).getGraphDef()));
      MetaGraphDef meta = MetaGraphDef.parseFrom(events.get(1).getMetaGraphDef());
      assertEquals(graph, meta.getGraphDef());
      assertEquals(
          org.tensorflow.TensorFlow.version(), meta.getMetaInfoDef().getTensorflowVersion());
      List<String> files = fileNames(dir);
      assertEquals(files.toString(), 1, files.stream().filter(f -> f.startsWith("events")).count());
    }
  }

  /**
   * {@code graph.pbtxt} taken by a directory: the write fails with a HookException naming the hook,
   * {@code afterCreateSession} and the file, the I/O error as cause; nothing is saved, no temporary
   * is left (also a killed write's, removed by {@code begin()}), the directory is untouched.
   */
  @Test
  public void aGraphPbtxtThatCannotBeWrittenThrowsNamingHookCallbackAndFile() throws Exception {
    for (boolean async : new boolean[] {false, true}) {
      Path dir = tmp.newFolder().toPath();
      Files.createDirectory(dir.resolve(Checkpoints.GRAPH_FILE));
      Files.writeString(dir.resolve(Checkpoints.GRAPH_FILE).resolve("keep"), "mine");
      Files.writeString(dir.resolve("graph.pbtxt.tmp0stale"), "a killed write's");
      CheckpointSaverHookBase hook =
          async
              ? AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(2).build()
              : CheckpointSaverHook.builder(dir.toString()).saveSteps(2).build();
      try (Graph g = CounterGraph.counter()) {
        HookException e = assertThrows(HookException.class, () -> HookGraphs.train(g, 3, hook));
        String name = async ? "AsyncCheckpointSaverHook" : "CheckpointSaverHook";
        assertTrue(
            e.getMessage(),
            e.getMessage()
                .startsWith(
                    name
                        + ".afterCreateSession: cannot write the graph to "
                        + dir.resolve(Checkpoints.GRAPH_FILE)));
        assertTrue(e.getCause() instanceof java.io.UncheckedIOException);
      } finally {
        hook.close();
      }
      assertEquals(List.of(Checkpoints.GRAPH_FILE), fileNames(dir));
      assertEquals(List.of("keep"), fileNames(dir.resolve(Checkpoints.GRAPH_FILE)));
    }
  }

  /**
   * {@code names} and what a saver writes at session creation besides checkpoints, as TF's: {@code
   * graph.pbtxt} and the dir's one event file (checked to be one), sorted.
   */
  static List<String> withGraphFiles(Path dir, List<String> names) throws Exception {
    List<String> events =
        fileNames(dir).stream()
            .filter(f -> f.startsWith("events.out.tfevents."))
            .collect(Collectors.toList());
    assertEquals(events.toString(), 1, events.size());
    List<String> out = new ArrayList<>(names);
    out.add(Checkpoints.GRAPH_FILE);
    out.addAll(events);
    out.sort(null);
    return out;
  }

  static List<String> fileNames(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  static void assertTrueMsg(String msg, boolean b) {
    assertTrue(msg, b);
  }
}
