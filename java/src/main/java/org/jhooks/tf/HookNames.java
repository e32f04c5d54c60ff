package org.jhooks.tf;

import org.jhooks.Described;

/**
 * How messages name hooks: {@code hook #i (binary.class.Name)}, {@code i} counted from 1; a {@link
 * Described} hook (a bridge wrapper) by its {@code describe()}, e.g. {@code hook #2 (mod.MyHook, Python)}.
 */
final class HookNames {
  private HookNames() {}

  static String name(Object hook, int position) {
    String label = hook instanceof Described ? ((Described) hook).describe() : hook.getClass().getName();
    return "hook #" + position + " (" + label + ")";
  }
}
