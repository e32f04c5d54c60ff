package org.jhooks.bench;

import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * Fetches one tensor every run and keeps its element count (benchmark P4; twin of benchmarks'
 * Python FetchHook).
 */
public final class FetchHook implements Hook {
  private final String tensor;
  private volatile long lastSize = -1;

  public FetchHook(String tensor) {
    this.tensor = tensor;
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return SessionRunArgs.of(tensor);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    lastSize = ((NdArray<?>) runValues.results()).size();
  }

  /** Elements of the last fetched value; -1 before the first run. */
  public long lastSize() {
    return lastSize;
  }
}
