package org.jhooks.tf;

/** How messages name hooks: {@code hook #i (binary.class.Name)}, {@code i} counted from 1. */
final class HookNames {
  private HookNames() {}

  static String name(Object hook, int position) {
    return "hook #" + position + " (" + hook.getClass().getName() + ")";
  }
}
