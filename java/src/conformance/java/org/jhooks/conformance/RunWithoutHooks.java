package org.jhooks.conformance;

import java.util.Map;
import org.tensorflow.ndarray.NdArray;

/**
 * One run without hooks the scenario's caller makes after its {@link #afterRun()}-th hooked run (0:
 * before the first): {@code MonitoredSession.runWithoutHooks(fetches(), feeds(), null)}. Twin of
 * {@code jhooks.conformance.driver.RunWithoutHooks}.
 */
public final class RunWithoutHooks {
  private final int afterRun;
  private final Object fetches;
  private final Map<String, NdArray<?>> feeds;

  RunWithoutHooks(int afterRun, Object fetches, Map<String, NdArray<?>> feeds) {
    this.afterRun = afterRun;
    this.fetches = fetches;
    this.feeds = Map.copyOf(feeds);
  }

  /** After how many hooked runs of the caller this run is made (0: before the first). */
  public int afterRun() {
    return afterRun;
  }

  /** A tensor or operation name, or a list/map of them (jhooks' Nest). */
  public Object fetches() {
    return fetches;
  }

  /** Tensor name to value (dtype and shape as the scenario gives them); empty for none. */
  public Map<String, NdArray<?>> feeds() {
    return feeds;
  }
}
