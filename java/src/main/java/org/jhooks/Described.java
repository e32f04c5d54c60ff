package org.jhooks;

/**
 * A hook that stands for another one (a bridge wrapper): drivers name it in messages by {@link
 * #describe()} instead of its own class, as {@code hook #i (<describe()>)}. Twin of {@code
 * jhooks.api.hook.Described}; see {@code docs/contract.md}, "Errors".
 */
public interface Described {
  /** The label of the hook this object stands for, for example {@code mymodule.MyHook, Python}. */
  String describe();
}
