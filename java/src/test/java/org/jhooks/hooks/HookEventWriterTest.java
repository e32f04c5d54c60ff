package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jhooks.testing.CounterGraph;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;

/**
 * A summary-writing hook reused for a second session opens a new event file, not the closed one;
 * hooks on one output dir share one writer per directory, as TensorFlow's {@code
 * SummaryWriterCache} and Python's {@code jhooks.hooks.event_writer}.
 */
public class HookEventWriterTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void hooksWithAnOutputDirWriteInEverySessionTheyAreUsedFor() throws Exception {
    Path dir = tmp.newFolder("events").toPath();
    SummarySaverHook summaries =
        new SummarySaverHook(1, null, dir.toString(), null, null, Map.of("v", "v:0"));
    StepCounterHook counter = new StepCounterHook(1, null, dir.toString(), null);
    for (int session = 0; session < 2; session++) {
      try (Graph g = CounterGraph.counter()) {
        assertEquals(2, HookGraphs.train(g, 2, summaries, counter));
      }
    }
    assertEquals(4, summaries.writtenSteps().size());
    // the step counter's rates are not counted (a rate needs a measurable elapsed time), nor v's
    // values (read in the run that also assigns v)
    List<Long> steps =
        EventFiles.readAll(dir).stream()
            .filter(e -> e.hasSummary() && e.getSummary().getValue(0).getTag().equals("v"))
            .map(e -> e.getStep())
            .collect(Collectors.toList());
    assertEquals(List.of(1L, 2L, 1L, 2L), steps);
    try (var files = Files.list(dir)) {
      assertEquals("one event file per session", 2, files.count());
    }
  }

  @Test
  public void hooksOnOneOutputDirWriteOneEventFile() throws Exception {
    Path dir = tmp.newFolder("shared").toPath();
    SummarySaverHook summaries =
        new SummarySaverHook(1, null, dir.toString(), null, null, Map.of("v", "v:0"));
    StepCounterHook counter = new StepCounterHook(1, null, dir.toString(), null);
    SummarySaverHook second =
        new SummarySaverHook(1, null, dir.toString(), null, null, Map.of("w", "v:0"));
    try (Graph g = CounterGraph.counter()) {
      assertEquals(3, HookGraphs.train(g, 3, summaries, counter, second));
    }
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count());
    }
    List<String> tags =
        EventFiles.readAll(dir).stream()
            .filter(e -> e.hasSummary())
            .map(e -> e.getSummary().getValue(0).getTag())
            .filter(
                t -> !t.equals("global_step/sec")) // the step counter's, if a rate was measurable
            .distinct()
            .sorted()
            .collect(Collectors.toList());
    assertEquals(List.of("v", "w"), tags);
  }

  @Test
  public void theSharedWriterClosesWithItsLastUser() throws Exception {
    String dir = tmp.newFolder("refcount").toString();
    EventFileWriter a = EventFileWriter.acquire(dir);
    EventFileWriter b = EventFileWriter.acquire(dir + "/.");
    assertSame(a, b);
    EventFileWriter.release(a);
    a.addScalar("still-open", 1.0, 1);
    EventFileWriter.release(b);
    assertThrows(IllegalStateException.class, () -> a.addScalar("closed", 1.0, 2));
    EventFileWriter c = EventFileWriter.acquire(dir);
    assertNotSame(a, c);
    EventFileWriter.release(c);
  }
}
