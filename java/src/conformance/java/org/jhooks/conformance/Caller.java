package org.jhooks.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jhooks.SessionRunArgs;
import org.tensorflow.ndarray.NdArray;

/**
 * The scenario's caller, the loop a driver runs:
 *
 * <pre>{@code
 * while (true) {
 *   for (RunWithoutHooks w : caller.withoutHooksAfter(runs)) {
 *     session.runWithoutHooks(w.fetches(), w.feeds(), null);
 *   }
 *   if (session.shouldStop() || runs >= caller.maxRuns()) break;
 *   runs++;
 *   session.run(caller.args());
 * }
 * }</pre>
 *
 * A run (with or without hooks) that hits the end of input ends the loop. Twin of {@code
 * jhooks.conformance.driver.Caller}.
 */
public final class Caller {
  private final int maxRuns;
  private final Object fetches;
  private final Map<String, NdArray<?>> feeds;
  private final List<RunWithoutHooks> withoutHooks;

  Caller(
      int maxRuns,
      Object fetches,
      Map<String, NdArray<?>> feeds,
      List<RunWithoutHooks> withoutHooks) {
    this.maxRuns = maxRuns;
    this.fetches = fetches;
    this.feeds = Map.copyOf(feeds);
    this.withoutHooks = List.copyOf(withoutHooks);
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

  /** The scenario's runs without hooks, in the order the caller makes them. */
  public List<RunWithoutHooks> withoutHooks() {
    return withoutHooks;
  }

  /** The runs without hooks to make once {@code runs} hooked runs returned, in order. */
  public List<RunWithoutHooks> withoutHooksAfter(int runs) {
    List<RunWithoutHooks> out = new ArrayList<>();
    for (RunWithoutHooks w : withoutHooks) {
      if (w.afterRun() == runs) {
        out.add(w);
      }
    }
    return out;
  }

  /** Fetches and feeds as one {@link SessionRunArgs}, what every run of the loop passes. */
  public SessionRunArgs args() {
    return SessionRunArgs.of(fetches, feeds);
  }
}
