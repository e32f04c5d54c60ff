package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;

import java.nio.file.Path;
import org.jhooks.Hook;
import org.jhooks.testing.CounterGraph;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.MonitoredSession;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;

/** A finished run stays finished: StopAtStepHook on a session restored at or past its step. */
public class StopAtStepResumeTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  /** Runs until a stop or 100 runs, restoring/saving {@code dir}; returns {runs, final step}. */
  private static long[] resume(Path dir, Hook stop) {
    try (Graph g = CounterGraph.counter();
        MonitoredSession s =
            MonitoredSession.builder(g)
                .sessionCreator(new CheckpointRestoringSessionCreator(dir))
                .hooks(stop, CheckpointSaverHook.builder(dir.toString()).saveSteps(1).build())
                .build()) {
      long runs = 0;
      while (!s.shouldStop() && runs < 100) {
        s.run(CounterGraph.TRAIN);
        runs++;
      }
      return new long[] {runs, s.session().globalStep()};
    }
  }

  @Test
  public void aSessionRestoredAtOrPastTheLastStepTrainsNoFurtherStep() throws Exception {
    Path dir = tmp.newFolder("ckpt").toPath();
    assertEquals(3, resume(dir, StopAtStepHook.ofLastStep(3))[0]);
    // TF's hook would run one more step in each of these
    long[] again = resume(dir, StopAtStepHook.ofLastStep(3));
    assertEquals(0, again[0]);
    assertEquals(3, again[1]);
    assertEquals(0, resume(dir, StopAtStepHook.ofLastStep(2))[0]);
    long[] more = resume(dir, StopAtStepHook.ofLastStep(5));
    assertEquals(2, more[0]);
    assertEquals(5, more[1]);
    // numSteps counts from the restored step
    assertEquals(2, resume(dir, StopAtStepHook.ofNumSteps(2))[0]);
  }
}
