package org.jhooks.bridgetest;

import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * A Java hook that, in {@code afterSessionRun} of its second run, makes a hooked run of the
 * monitored session driving it ({@code hookedRun}): re-entrance the drivers must refuse with an
 * error naming this hook and callback.
 */
public final class ReentrantHook implements Hook {
  private final Runnable hookedRun;
  private int runs;

  public ReentrantHook(Runnable hookedRun) {
    this.hookedRun = hookedRun;
  }

  /** One that runs {@code train_step} on the session {@link JvmDriver#run} is driving. */
  public static ReentrantHook onJvmDriver() {
    return new ReentrantHook(() -> JvmDriver.current.run(SessionRunArgs.of("train_step")));
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    if (++runs == 2) {
      hookedRun.run();
    }
  }
}
