package org.jhooks.tf;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jhooks.Hook;

/**
 * One hook, or a {@link HookBatch} of consecutive hooks, as {@link MonitoredSession}'s run loop
 * calls them; {@link #name} names the hook being called (for a batch, the one it reached).
 */
final class HookUnit {
  final int first;
  final int count;
  final HookBatch batch;
  final Supplier<String> name;

  private HookUnit(int first, int count, HookBatch batch, Supplier<String> name) {
    this.first = first;
    this.count = count;
    this.batch = batch;
    this.name = name;
  }

  /** Hook {@code i} alone. */
  static HookUnit single(int i, List<String> names) {
    String name = names.get(i);
    return new HookUnit(i, 1, null, () -> name);
  }

  /**
   * The units of {@code hooks}, in order: two or more consecutive {@link HookBatch.Batchable} hooks
   * offering the same factory become one batch; every other hook is alone.
   */
  static List<HookUnit> of(List<Hook> hooks, List<String> names) {
    List<HookUnit> units = new ArrayList<>();
    int i = 0;
    while (i < hooks.size()) {
      HookBatch.Factory factory = factoryOf(hooks.get(i));
      int end = i + 1;
      while (factory != null && end < hooks.size() && factory.equals(factoryOf(hooks.get(end)))) {
        end++;
      }
      if (end - i < 2) {
        units.add(single(i, names));
        i++;
        continue;
      }
      HookBatch batch = factory.batch(List.copyOf(hooks.subList(i, end)));
      int first = i;
      units.add(new HookUnit(i, end - i, batch, () -> names.get(first + batch.position())));
      i = end;
    }
    return units;
  }

  private static HookBatch.Factory factoryOf(Hook hook) {
    return hook instanceof HookBatch.Batchable ? ((HookBatch.Batchable) hook).batchFactory() : null;
  }
}
