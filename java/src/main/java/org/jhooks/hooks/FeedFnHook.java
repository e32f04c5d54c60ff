package org.jhooks.hooks;

import java.util.Map;
import java.util.function.Supplier;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.tensorflow.ndarray.NdArray;

/**
 * Adds feeds to every run. Twin of TensorFlow's {@code tf.compat.v1.train.FeedFnHook} and of {@code
 * jhooks.hooks.FeedFnHook}: {@code beforeSessionRun} calls {@code feedFn} and returns its map as
 * the run's feeds (no fetches). A tensor also fed by the caller or another hook is a feed conflict
 * (see {@code docs/contract.md}).
 */
public final class FeedFnHook implements Hook {
  private final Supplier<? extends Map<String, ? extends NdArray<?>>> feedFn;

  /**
   * @param feedFn called once per run; returns tensor name to value
   */
  public FeedFnHook(Supplier<? extends Map<String, ? extends NdArray<?>>> feedFn) {
    if (feedFn == null) {
      throw new IllegalArgumentException("feedFn must be given");
    }
    this.feedFn = feedFn;
  }

  /** The function called before each run. */
  public Supplier<? extends Map<String, ? extends NdArray<?>>> feedFn() {
    return feedFn;
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return new SessionRunArgs(null, feedFn.get(), null);
  }
}
