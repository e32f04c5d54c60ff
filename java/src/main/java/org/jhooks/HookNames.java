package org.jhooks;

/**
 * How messages name hooks, in every driver and in the bridge. Twin of Python's {@code
 * jhooks.api.hook.hook_name}; see {@code docs/contract.md}, "Names".
 *
 * <ul>
 *   <li>with a position (counted from 1): {@code hook #2 (com.example.MyHook)};
 *   <li>without one: the class alone, {@code com.example.MyHook};
 *   <li>a {@link Described} hook (a bridge wrapper) by its {@code describe()}: {@code hook #2
 *       (mymodule.MyHook, Python)}, or {@code hook (mymodule.MyHook, Python)} without a position.
 * </ul>
 */
public final class HookNames {
  private HookNames() {}

  /** The hook's name without a position. */
  public static String name(Object hook) {
    if (hook instanceof Described) {
      return "hook (" + ((Described) hook).describe() + ")";
    }
    return hook.getClass().getName();
  }

  /** The hook's name at {@code position} (1-based) in a driver's hook list. */
  public static String name(Object hook, int position) {
    String label =
        hook instanceof Described ? ((Described) hook).describe() : hook.getClass().getName();
    return "hook #" + position + " (" + label + ")";
  }
}
