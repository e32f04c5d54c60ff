package org.jhooks.conformance;

import java.util.Map;
import org.jhooks.SessionRunArgs;
import org.tensorflow.ndarray.NdArray;

/**
 * The scenario's caller, the loop a driver runs: {@code while (!shouldStop() && runs < maxRuns())
 * run(args())}; a run that hits the end of input ends the loop. Twin of {@code
 * jhooks.conformance.driver.Caller}.
 */
public final class Caller {
  private final int maxRuns;
  private final Object fetches;
  private final Map<String, NdArray<?>> feeds;

  Caller(int maxRuns, Object fetches, Map<String, NdArray<?>> feeds) {
    this.maxRuns = maxRuns;
    this.fetches = fetches;
    this.feeds = Map.copyOf(feeds);
  }

  /** The most runs the caller makes. */
  public int maxRuns() {
    return maxRuns;
  }

  /** The caller's fetches: a tensor or operation name, or a list/map of them (jhooks' Nest). */
  public Object fetches() {
    return fetches;
  }

  /** The caller's feeds, tensor name to value (dtype and shape as the scenario gives them). */
  public Map<String, NdArray<?>> feeds() {
    return feeds;
  }

  /** Fetches and feeds as one {@link SessionRunArgs}, what every run of the loop passes. */
  public SessionRunArgs args() {
    return SessionRunArgs.of(fetches, feeds);
  }
}
