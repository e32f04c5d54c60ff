package org.jhooks.merger;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jhooks.CallerFeedConflictException;
import org.jhooks.HookFeedConflictException;
import org.jhooks.Nest;
import org.jhooks.RunOptions;
import org.jhooks.SessionRunArgs;
import org.tensorflow.ndarray.NdArray;

/**
 * Combines the caller's args and each hook's args into one run request, the way TensorFlow's {@code
 * _HookedSession.run} does: fetches are de-duplicated (tensorflow-java rejects a name fetched
 * twice), feeds are united with two distinct conflict errors, options merge by {@link
 * RunOptions#merge}. Use one merger per run: {@link #add} each hook's args in registration order (a
 * two-hook conflict is raised at the hook that causes it, so later hooks' {@code beforeSessionRun}
 * is not called, as in TensorFlow), then {@link #finish}.
 */
public final class RunMerger {
  private final SessionRunArgs callerArgs;
  private final List<SessionRunArgs> hookArgs = new ArrayList<>();
  private final List<String> hookNames = new ArrayList<>();
  private final Map<String, NdArray<?>> hookFeeds = new LinkedHashMap<>();
  private final Map<String, String> feederOf = new LinkedHashMap<>();
  private RunOptions hookOptions;

  /**
   * @param callerArgs the args given to the monitored session's run; never null
   */
  public RunMerger(SessionRunArgs callerArgs) {
    this.callerArgs = callerArgs;
  }

  /**
   * Adds one hook's args, or {@code null} for a hook that asked for nothing.
   *
   * @param hookName how messages name the hook
   * @throws HookFeedConflictException the hook feeds a tensor another hook already feeds
   */
  public void add(String hookName, SessionRunArgs args) {
    if (args != null) {
      for (Map.Entry<String, NdArray<?>> feed : args.feeds().entrySet()) {
        String first = feederOf.get(feed.getKey());
        if (first != null) {
          throw new HookFeedConflictException(feed.getKey(), first, hookName);
        }
        feederOf.put(feed.getKey(), hookName);
        hookFeeds.put(feed.getKey(), feed.getValue());
      }
      hookOptions = RunOptions.merge(hookOptions, args.options());
    }
    hookArgs.add(args);
    hookNames.add(hookName);
  }

  /**
   * @throws CallerFeedConflictException a hook feeds a tensor that the caller feeds
   */
  public MergedRun finish() {
    for (Map.Entry<String, String> e : feederOf.entrySet()) {
      if (callerArgs.feeds().containsKey(e.getKey())) {
        throw new CallerFeedConflictException(e.getKey(), e.getValue());
      }
    }
    Map<String, NdArray<?>> feeds = new LinkedHashMap<>(callerArgs.feeds());
    feeds.putAll(hookFeeds);
    Set<String> tensors = new LinkedHashSet<>();
    Set<String> targets = new LinkedHashSet<>();
    collect(callerArgs.fetches(), tensors, targets);
    for (SessionRunArgs args : hookArgs) {
      if (args != null) {
        collect(args.fetches(), tensors, targets);
      }
    }
    List<Object> structures = new ArrayList<>();
    for (SessionRunArgs args : hookArgs) {
      structures.add(args == null ? null : args.fetches());
    }
    return new MergedRun(
        new ArrayList<>(tensors),
        new ArrayList<>(targets),
        feeds,
        RunOptions.merge(callerArgs.options(), hookOptions),
        callerArgs.fetches(),
        structures);
  }

  private static void collect(Object fetches, Set<String> tensors, Set<String> targets) {
    for (String name : Nest.flatten(fetches)) {
      (Nest.isTensorName(name) ? tensors : targets).add(name);
    }
  }
}
