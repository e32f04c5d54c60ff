package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.Session;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.DefaultHooks;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.proto.Event;

/**
 * The JVM MonitoredTrainingSession's default hooks are the standard hooks, as TensorFlow's are
 * basic_session_run_hooks; the drift of the former built-in copies is fixed.
 */
public class DefaultHooksTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final class Saves implements CheckpointSaverListener {
    final List<Long> steps = new ArrayList<>();

    @Override
    public void beforeSave(Session session, long globalStep) {
      steps.add(globalStep);
    }
  }

  private static List<Long> train(Path dir, int runs, Saves saves) throws Exception {
    CheckpointSaverHook saver;
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .checkpointDir(dir)
                .saveCheckpointSteps(100)
                .logStepCountSteps(0)
                .checkpointSaverListeners(saves)
                .build()) {
      saver = (CheckpointSaverHook) s.hooks().get(0);
      for (int i = 0; i < runs; i++) {
        s.run(CounterGraph.TRAIN);
      }
    }
    return saver.savedSteps();
  }

  @Test
  public void theDefaultSaverDoesNotSaveAgainTheStepItJustRestored() throws Exception {
    Path dir = tmp.newFolder().toPath();
    Saves first = new Saves();
    assertEquals(List.of(0L, 3L), train(dir, 3, first));
    Saves resumed = new Saves();
    // restored step 3: no save after creation (the copy saved 3 again), the final save is step 5
    assertEquals(List.of(5L), train(dir, 2, resumed));
    assertEquals(List.of(5L), resumed.steps);
    Saves idle = new Saves();
    assertEquals(List.of(), train(dir, 0, idle));
    assertEquals(List.of(), idle.steps);
  }

  /** Advances the global step with a raw run after every hooked run (before the step counter). */
  private static final class ExtraStep implements Hook {
    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      runContext.session().run(CounterGraph.TRAIN);
    }
  }

  @Test
  public void theDefaultStepCounterIsTheStandardHookAndReReadsTheGlobalStep() throws Exception {
    Path events = tmp.newFolder("events").toPath();
    Path twinEvents = tmp.newFolder("twin").toPath();
    StepCounterHook twin = new StepCounterHook(2, null, twinEvents.toString(), null);
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .chiefOnlyHooks(new ExtraStep())
                .summaryDir(events)
                .logStepCountSteps(2)
                .hooks(twin)
                .build()) {
      assertTrue(s.hooks().get(1) instanceof StepCounterHook);
      assertSame(twin, s.hooks().get(2));
      for (int i = 0; i < 6; i++) {
        s.run(CounterGraph.TRAIN);
      }
    }
    List<Long> steps = summarySteps(events);
    assertEquals(summarySteps(twinEvents), steps);
    // every hooked run advances the step by 2 (the run and ExtraStep's raw run): the fetched
    // step lags the real one, and the counter records at the re-read step
    assertEquals(List.of(4L, 6L, 8L, 10L, 12L), steps);
  }

  /** Records what MonitoredTrainingSession asks of it, and makes the standard hooks. */
  private static final class RecordingDefaults implements DefaultHooks {
    final List<String> calls = new ArrayList<>();
    private final StandardDefaultHooks standard = new StandardDefaultHooks();

    @Override
    public Hook stepCounter(int everySteps, String outputDir) {
      calls.add("stepCounter " + everySteps + " " + outputDir);
      return standard.stepCounter(everySteps, outputDir);
    }

    @Override
    public Hook summarySaver(Integer saveSteps, Double saveSecs, String outputDir, Object op) {
      calls.add("summarySaver " + saveSteps + " " + saveSecs + " " + outputDir + " " + op);
      return standard.summarySaver(saveSteps, saveSecs, outputDir, op);
    }

    @Override
    public Hook checkpointSaver(
        String dir,
        Integer saveSteps,
        Double saveSecs,
        int maxToKeep,
        List<CheckpointSaverListener> listeners) {
      calls.add(
          "checkpointSaver "
              + dir
              + " "
              + saveSteps
              + " "
              + saveSecs
              + " "
              + maxToKeep
              + " "
              + listeners.size());
      return standard.checkpointSaver(dir, saveSteps, saveSecs, maxToKeep, listeners);
    }
  }

  @Test
  public void theDefaultHooksComeFromTheServiceOrTheFactoryGivenByTensorFlowsRule()
      throws Exception {
    Path dir = tmp.newFolder().toPath();
    try (Graph g = CounterGraph.counter()) {
      List<Class<?>> service =
          MonitoredTrainingSession.builder(g).checkpointDir(dir).summaryOp("s").allHooks().stream()
              .map(Object::getClass)
              .collect(Collectors.toList());
      assertEquals(
          List.of(StepCounterHook.class, SummarySaverHook.class, CheckpointSaverHook.class),
          service);

      RecordingDefaults defaults = new RecordingDefaults();
      MonitoredTrainingSession.builder(g)
          .checkpointDir(dir)
          .summaryOp("s")
          .checkpointSaverListeners(new Saves())
          .defaultHooks(defaults)
          .allHooks();
      // TensorFlow's defaults: step rate every 100 steps and summaries every 100 steps to the
      // checkpoint dir, a checkpoint every 600 s keeping 5
      assertEquals(
          List.of(
              "stepCounter 100 " + dir,
              "summarySaver 100 null " + dir + " s",
              "checkpointSaver " + dir + " null 600.0 5 1"),
          defaults.calls);

      defaults.calls.clear();
      MonitoredTrainingSession.builder(g)
          .checkpointDir(dir)
          .saveCheckpointSteps(7)
          .maxToKeep(2)
          .logStepCountSteps(0)
          .defaultHooks(defaults)
          .allHooks();
      assertEquals(List.of("checkpointSaver " + dir + " 7 null 2 0"), defaults.calls);

      defaults.calls.clear();
      MonitoredTrainingSession.builder(g)
          .checkpointDir(dir)
          .isChief(false)
          .defaultHooks(defaults)
          .allHooks();
      assertEquals(List.of(), defaults.calls);
    }
  }

  @Test
  public void resumingACopiedRunDirRestoresTheSourceButNeverDeletesIt() throws Exception {
    Path src = tmp.newFolder("src").toPath();
    train(src, 3, new Saves()); // model.ckpt-0 and -3 in src
    Path copy = tmp.newFolder("copy").toPath();
    // TensorFlow's Saver writes absolute paths: the copied state file names the source's files
    Files.writeString(
        copy.resolve("checkpoint"),
        "model_checkpoint_path: \""
            + src.resolve("model.ckpt-3")
            + "\"\nall_model_checkpoint_paths: \""
            + src.resolve("model.ckpt-0")
            + "\"\nall_model_checkpoint_paths: \""
            + src.resolve("model.ckpt-3")
            + "\"\n");
    List<String> before = names(src);
    CheckpointSaverHook saver;
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredTrainingSession.builder(g)
                .checkpointDir(copy)
                .saveCheckpointSteps(1)
                .maxToKeep(1)
                .logStepCountSteps(0)
                .build()) {
      saver = (CheckpointSaverHook) s.hooks().get(0);
      assertEquals(3L, s.session().globalStep());
      for (int i = 0; i < 3; i++) {
        s.run(CounterGraph.TRAIN);
      }
    }
    assertEquals(List.of(3L, 4L, 5L, 6L), saver.savedSteps());
    assertEquals(before, names(src));
    assertEquals(
        CheckpointSaverHookTest.withGraphFiles(
            copy, List.of("checkpoint", "model.ckpt-6.data-00000-of-00001", "model.ckpt-6.index")),
        names(copy));
  }

  @Test
  public void aGarbageStateFileStopsTheDefaultSaverAndNothingIsWritten() throws Exception {
    Path dir = tmp.newFolder().toPath();
    Files.writeString(dir.resolve("checkpoint"), "garbage\n");
    Files.writeString(dir.resolve("model.ckpt-0.index"), "old");
    Files.writeString(dir.resolve("model.ckpt-0.data-00000-of-00001"), "old");
    try (Graph g = CounterGraph.counter()) {
      HookException e =
          assertThrows(
              HookException.class,
              () ->
                  MonitoredTrainingSession.builder(g)
                      .checkpointDir(dir)
                      .logStepCountSteps(0)
                      .build()
                      .close());
      assertTrue(
          e.getMessage(),
          e.getMessage()
              .startsWith(
                  "CheckpointSaverHook.begin: checkpoint state file " + dir.resolve("checkpoint")));
    }
    assertEquals(
        List.of("checkpoint", "model.ckpt-0.data-00000-of-00001", "model.ckpt-0.index"),
        names(dir));
    assertEquals("old", Files.readString(dir.resolve("model.ckpt-0.index")));
    assertEquals("garbage\n", Files.readString(dir.resolve("checkpoint")));
  }

  private static List<String> names(Path dir) throws Exception {
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  private static List<Long> summarySteps(Path dir) throws Exception {
    return EventFiles.readAll(dir).stream()
        .filter(Event::hasSummary)
        .map(Event::getStep)
        .collect(Collectors.toList());
  }
}
