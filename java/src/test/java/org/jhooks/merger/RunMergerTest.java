package org.jhooks.merger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.CallerFeedConflictException;
import org.jhooks.HookFeedConflictException;
import org.jhooks.RunOptions;
import org.jhooks.SessionRunArgs;
import org.junit.Test;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;

public class RunMergerTest {
  private static final NdArray<Float> ONE = NdArrays.scalarOf(1f);
  private static final NdArray<Float> TWO = NdArrays.scalarOf(2f);

  @Test
  public void fetchesAreDeduplicatedCallerFirstAndEachPartyGetsItsStructure() {
    Map<String, Object> hookMap = new LinkedHashMap<>();
    hookMap.put("l", "loss:0");
    hookMap.put("t", "train");
    RunMerger m = new RunMerger(SessionRunArgs.of(List.of("train", "loss:0")));
    m.add("hook #1 (A)", SessionRunArgs.of("global_step:0"));
    m.add("hook #2 (B)", null);
    m.add("hook #3 (C)", SessionRunArgs.of(hookMap));
    m.add("hook #4 (D)", SessionRunArgs.of(List.of("loss:0", "global_step:0")));
    MergedRun run = m.finish();
    assertEquals(List.of("loss:0", "global_step:0"), run.tensorFetches());
    assertEquals(List.of("train"), run.targets());
    assertEquals(4, run.hookCount());

    List<String> asked = new ArrayList<>();
    java.util.function.Function<String, Object> value =
        name -> {
          asked.add(name);
          return "value of " + name;
        };
    assertEquals(java.util.Arrays.asList(null, "value of loss:0"), run.callerResults(value));
    assertEquals("value of global_step:0", run.hookResults(0, value));
    assertNull(run.hookResults(1, value));
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("l", "value of loss:0");
    expected.put("t", null);
    assertEquals(expected, run.hookResults(2, value));
    assertEquals(List.of("value of loss:0", "value of global_step:0"), run.hookResults(3, value));
    assertEquals(List.of("loss:0", "global_step:0", "loss:0", "loss:0", "global_step:0"), asked);
  }

  @Test
  public void feedsAreUnited() {
    RunMerger m = new RunMerger(SessionRunArgs.of("y:0", Map.of("x:0", ONE)));
    m.add("hook #1 (A)", SessionRunArgs.of(null, Map.of("z:0", TWO)));
    Map<String, NdArray<?>> feeds = m.finish().feeds();
    assertEquals(2, feeds.size());
    assertSame(ONE, feeds.get("x:0"));
    assertSame(TWO, feeds.get("z:0"));
  }

  @Test
  public void twoHooksFeedingOneTensorFailAtTheSecondNamingBoth() {
    RunMerger m = new RunMerger(SessionRunArgs.of("y:0"));
    m.add("hook #1 (a.A)", SessionRunArgs.of(null, Map.of("x:0", ONE)));
    HookFeedConflictException e =
        assertThrows(
            HookFeedConflictException.class,
            () -> m.add("hook #2 (b.B)", SessionRunArgs.of(null, Map.of("x:0", TWO))));
    assertEquals("x:0", e.tensor());
    assertEquals("hook #2 (b.B)", e.hook());
    assertEquals("beforeSessionRun", e.callback());
    assertTrue(
        e.getMessage(),
        e.getMessage().contains("'x:0'")
            && e.getMessage().contains("hook #1 (a.A)")
            && e.getMessage().contains("two hooks"));
  }

  @Test
  public void aHookFeedingWhatTheCallerFeedsFailsAtFinish() {
    RunMerger m = new RunMerger(SessionRunArgs.of("y:0", Map.of("x:0", ONE)));
    m.add("hook #1 (a.A)", SessionRunArgs.of(null, Map.of("x:0", TWO)));
    CallerFeedConflictException e = assertThrows(CallerFeedConflictException.class, m::finish);
    assertEquals("x:0", e.tensor());
    assertEquals("hook #1 (a.A)", e.hook());
    assertTrue(
        e.getMessage(), e.getMessage().contains("'x:0'") && e.getMessage().contains("caller"));
  }

  @Test
  public void optionsMergeCallerAndHooks() {
    RunMerger m =
        new RunMerger(new SessionRunArgs("y:0", null, new RunOptions(0, 60_000, 0, false, false)));
    m.add("hook #1 (A)", new SessionRunArgs(null, null, RunOptions.ofTraceLevel(3)));
    m.add("hook #2 (B)", new SessionRunArgs(null, null, new RunOptions(1, 5, 1, true, false)));
    assertEquals(new RunOptions(3, 60_000, 1, true, false), m.finish().options());
    assertNull(new RunMerger(SessionRunArgs.of("y:0")).finish().options());
  }
}
