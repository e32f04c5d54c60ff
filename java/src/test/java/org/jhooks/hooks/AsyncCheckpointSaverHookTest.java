package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jhooks.HookException;
import org.jhooks.checkpoint.CheckpointState;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.MonitoredSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;

/**
 * The asynchronous saver on the JVM driver: snapshot values, failures, overlap, listeners, state
 * file.
 */
public class AsyncCheckpointSaverHookTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void everyCheckpointHoldsTheValuesOfItsLabelledStep() throws Exception {
    Path dir = tmp.newFolder().toPath();
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(1).maxToKeep(0).build();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 30, hook);
    }
    List<Long> expected = new ArrayList<>();
    for (long s = 0; s <= 30; s++) {
      expected.add(s);
    }
    assertEquals(expected, hook.savedSteps());
    for (long step : expected) {
      float[] restored = HookGraphs.restore(dir.resolve("model.ckpt-" + step).toString());
      assertEquals("v in checkpoint " + step, step, restored[0], 0f);
      assertEquals("global_step in checkpoint " + step, step, restored[1], 0f);
    }
    assertEquals(Checkpoints.latestCheckpoint(dir).get(), dir.resolve("model.ckpt-30").toString());
  }

  @Test
  public void listenersSeeFilesOnDiskOnTheTrainingThreadAndInOrder() throws Exception {
    Path dir = tmp.newFolder().toPath();
    CheckpointSaverHookTest.RecordingListener l =
        new CheckpointSaverHookTest.RecordingListener(dir, -1);
    Thread trainer = Thread.currentThread();
    AtomicBoolean offThread = new AtomicBoolean();
    org.jhooks.CheckpointSaverListener threadCheck =
        new org.jhooks.CheckpointSaverListener() {
          @Override
          public boolean afterSave(org.jhooks.Session session, long step) {
            offThread.compareAndSet(false, Thread.currentThread() != trainer);
            return false;
          }
        };
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir.toString())
            .saveSteps(2)
            .maxToKeep(0)
            .listeners(l, threadCheck)
            .build();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 5, hook);
    }
    assertEquals(
        List.of(
            "begin",
            "beforeSave:0",
            "afterSave:0",
            "beforeSave:2",
            "afterSave:2",
            "beforeSave:4",
            "afterSave:4",
            "beforeSave:5",
            "afterSave:5",
            "end:5"),
        l.calls);
    assertFalse("afterSave ran off the training thread", offThread.get());
  }

  @Test
  public void aBackgroundWriteFailureIsRaisedOnTheTrainingThread() throws Exception {
    Path dir = tmp.newFolder().toPath();
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(2).build();
    List<Long> stepsRun = new ArrayList<>();
    try (Graph g = CounterGraph.counter()) {
      HookException e =
          assertThrows(
              HookException.class,
              () -> {
                try (MonitoredSession s = MonitoredSession.builder(g).hooks(hook).build()) {
                  hook.waitForPendingSaves();
                  // The disk goes away: the checkpoint dir becomes a plain file, so SaveV2 cannot
                  // write.
                  deleteTree(dir);
                  Files.writeString(dir, "not a directory");
                  for (int i = 0; i < 10; i++) {
                    s.run(CounterGraph.TRAIN);
                    stepsRun.add((long) i);
                  }
                }
              });
      assertEquals("AsyncCheckpointSaverHook", e.hook());
      assertTrue(
          e.getMessage(),
          e.getMessage().contains("checkpoint save of global step 2 to ")
              && e.getMessage().contains("model.ckpt-2 failed"));
      assertNotNull(e.getCause());
      assertTrue(
          e.callback(), List.of("beforeSessionRun", "afterSessionRun").contains(e.callback()));
    }
    assertTrue("training went on after the failure: " + stepsRun, stepsRun.size() < 10);
    assertEquals(List.of(0L), hook.savedSteps());
  }

  @Test
  public void aSaveDueWhileTheLastWriteRunsWaitsAndIsCounted() throws Exception {
    Path dir = tmp.newFolder().toPath();
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(1).maxToKeep(0).build();
    Thread trainer = Thread.currentThread();
    CountDownLatch release = new CountDownLatch(1);
    // Hold the write of step 1 until the training thread is blocked waiting for it (the overlap).
    hook.beforeWrite =
        step -> {
          if (step == 1) {
            while (trainer.getState() != Thread.State.WAITING
                && trainer.getState() != Thread.State.TIMED_WAITING) {
              Thread.onSpinWait();
            }
            release.countDown();
          }
        };
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 4, hook);
    }
    assertEquals(0, release.getCount());
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), hook.savedSteps());
    assertTrue("overlaps: " + hook.overlapCount(), hook.overlapCount() >= 1);
  }

  @Test
  public void aListenerStopRequestStopsTraining() throws Exception {
    Path dir = tmp.newFolder().toPath();
    CheckpointSaverHookTest.RecordingListener l =
        new CheckpointSaverHookTest.RecordingListener(dir, 2);
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(2).listeners(l).build();
    int runs;
    try (Graph g = CounterGraph.counter()) {
      runs = HookGraphs.train(g, 1000, hook);
    }
    assertTrue("runs after the stop request: " + runs, runs < 1000);
    assertTrue(l.calls.toString(), l.calls.contains("afterSave:2"));
    assertEquals("end:" + runs, l.calls.get(l.calls.size() - 1));
    for (String c : l.calls) {
      assertFalse(c, c.endsWith("NOT-ON-DISK"));
    }
  }

  @Test
  public void rotationAndAnAtomicStateFileUnderConcurrentReaders() throws Exception {
    Path dir = tmp.newFolder().toPath();
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(1).maxToKeep(3).build();
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> readerError = new AtomicReference<>();
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Thread reader =
        new Thread(
            () -> {
              try {
                while (!done.get()) {
                  Checkpoints.readState(dir)
                      .ifPresent(
                          st -> {
                            assertEquals(
                                st.modelCheckpointPath(),
                                st.allModelCheckpointPaths()
                                    .get(st.allModelCheckpointPaths().size() - 1));
                            assertTrue(st.allModelCheckpointPaths().size() <= 3);
                            seen.add(st.modelCheckpointPath());
                          });
                }
              } catch (Throwable t) {
                readerError.set(t);
              }
            });
    reader.start();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 40, hook);
    } finally {
      done.set(true);
      reader.join();
    }
    if (readerError.get() != null) {
      throw new AssertionError("a reader saw a torn or wrong state file", readerError.get());
    }
    assertFalse(seen.isEmpty());
    CheckpointState state = Checkpoints.readState(dir).get();
    assertEquals(
        List.of("model.ckpt-38", "model.ckpt-39", "model.ckpt-40"),
        state.allModelCheckpointPaths());
    assertEquals(
        CheckpointSaverHookTest.withGraphFiles(
            dir,
            List.of(
                "checkpoint",
                "model.ckpt-38.data-00000-of-00001",
                "model.ckpt-38.index",
                "model.ckpt-39.data-00000-of-00001",
                "model.ckpt-39.index",
                "model.ckpt-40.data-00000-of-00001",
                "model.ckpt-40.index")),
        CheckpointSaverHookTest.fileNames(dir));
  }

  @Test
  public void aNewSessionRestoresTheLatestAsyncCheckpoint() throws Exception {
    Path dir = tmp.newFolder().toPath();
    try (Graph g = CounterGraph.counter()) {
      HookGraphs.train(g, 7, AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(5).build());
    }
    AsyncCheckpointSaverHook second =
        AsyncCheckpointSaverHook.builder(dir.toString()).saveSteps(5).build();
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredSession.builder(g)
                .sessionCreator(new CheckpointRestoringSessionCreator(dir))
                .hooks(second)
                .build()) {
      assertEquals(7L, s.session().globalStep());
      s.run(CounterGraph.TRAIN);
    }
    // Step 7 is restored (not saved again), step 8 saved at the end; rotation continued the old
    // list.
    assertEquals(List.of(8L), second.savedSteps());
    assertEquals(
        List.of("model.ckpt-0", "model.ckpt-5", "model.ckpt-7", "model.ckpt-8"),
        Checkpoints.readState(dir).get().allModelCheckpointPaths());
  }

  static void deleteTree(Path dir) throws Exception {
    try (var s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toArray(Path[]::new)) {
        Files.delete(p);
      }
    }
  }
}
