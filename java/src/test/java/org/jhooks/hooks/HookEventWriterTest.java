package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jhooks.testing.CounterGraph;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;

/** A summary-writing hook reused for a second session opens a new event file, not the closed one. */
public class HookEventWriterTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void hooksWithAnOutputDirWriteInEverySessionTheyAreUsedFor() throws Exception {
    Path dir = tmp.newFolder("events").toPath();
    SummarySaverHook summaries = new SummarySaverHook(1, null, dir.toString(), null, null, Map.of("v", "v:0"));
    StepCounterHook counter = new StepCounterHook(1, null, dir.toString(), null);
    for (int session = 0; session < 2; session++) {
      try (Graph g = CounterGraph.counter()) {
        assertEquals(2, HookGraphs.train(g, 2, summaries, counter));
      }
    }
    assertEquals(4, summaries.summariesWritten());
    // the step counter's rates are not counted (a rate needs a measurable elapsed time), nor v's
    // values (read in the run that also assigns v)
    List<Long> steps = EventFiles.readAll(dir).stream()
        .filter(e -> e.hasSummary() && e.getSummary().getValue(0).getTag().equals("v"))
        .map(e -> e.getStep()).collect(Collectors.toList());
    assertEquals(List.of(1L, 2L, 1L, 2L), steps);
  }
}
