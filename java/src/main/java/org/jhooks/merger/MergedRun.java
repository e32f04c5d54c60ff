package org.jhooks.merger;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jhooks.Nest;
import org.jhooks.RunOptions;
import org.tensorflow.ndarray.NdArray;

/**
 * One merged run request and the way back: the unique tensor names to fetch, the unique targets,
 * the united feeds and merged options; {@link #callerResults} and {@link #hookResults} rebuild each
 * party's structure from the fetched values (targets give {@code null}).
 */
public final class MergedRun {
  private final List<String> tensorFetches;
  private final List<String> targets;
  private final Map<String, NdArray<?>> feeds;
  private final RunOptions options;
  private final Object callerFetches;
  private final List<Object> hookFetches;

  MergedRun(
      List<String> tensorFetches,
      List<String> targets,
      Map<String, NdArray<?>> feeds,
      RunOptions options,
      Object callerFetches,
      List<Object> hookFetches) {
    this.tensorFetches = Collections.unmodifiableList(tensorFetches);
    this.targets = Collections.unmodifiableList(targets);
    this.feeds = Collections.unmodifiableMap(feeds);
    this.options = options;
    this.callerFetches = callerFetches;
    this.hookFetches = hookFetches;
  }

  /** Unique tensor names ({@code "op:N"}) in first-seen order: caller first, then hooks. */
  public List<String> tensorFetches() {
    return tensorFetches;
  }

  /** Unique op names run as targets. */
  public List<String> targets() {
    return targets;
  }

  public Map<String, NdArray<?>> feeds() {
    return feeds;
  }

  /** The caller's options merged with every hook's, or {@code null}. */
  public RunOptions options() {
    return options;
  }

  /** Number of hooks added, including those that asked for nothing. */
  public int hookCount() {
    return hookFetches.size();
  }

  /**
   * @param valueOf the fetched value of a tensor name; called once per leaf, so it may copy
   */
  public Object callerResults(Function<String, Object> valueOf) {
    return rebuild(callerFetches, valueOf);
  }

  /**
   * The results for the hook added at {@code position}, or {@code null} if it asked for nothing.
   */
  public Object hookResults(int position, Function<String, Object> valueOf) {
    return rebuild(hookFetches.get(position), valueOf);
  }

  private static Object rebuild(Object structure, Function<String, Object> valueOf) {
    return Nest.mapStructure(
        structure, name -> Nest.isTensorName(name) ? valueOf.apply(name) : null);
  }
}
