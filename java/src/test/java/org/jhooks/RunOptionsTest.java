package org.jhooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

import org.junit.Test;

public class RunOptionsTest {
  @Test
  public void mergeTakesTheLargerNumbersAndOrsTheBooleans() {
    RunOptions caller = new RunOptions(1, 5_000, 0, false, true);
    RunOptions hook = new RunOptions(3, 1_000, 2, true, false);
    assertEquals(new RunOptions(3, 5_000, 2, true, true), RunOptions.merge(caller, hook));
    assertEquals(RunOptions.merge(caller, hook), RunOptions.merge(hook, caller));
  }

  @Test
  public void aHookCannotShortenTheCallersTimeout() {
    assertEquals(
        60_000,
        RunOptions.merge(
                new RunOptions(0, 60_000, 0, false, false), new RunOptions(0, 10, 0, false, false))
            .timeoutInMs);
  }

  @Test
  public void nullIsTheIdentity() {
    RunOptions o = RunOptions.ofTraceLevel(2);
    assertSame(o, RunOptions.merge(o, null));
    assertSame(o, RunOptions.merge(null, o));
    assertNull(RunOptions.merge(null, null));
  }
}
