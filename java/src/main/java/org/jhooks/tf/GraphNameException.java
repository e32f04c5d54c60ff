package org.jhooks.tf;

import org.jhooks.HookException;

/**
 * A hook asked for a tensor or op that is not in the session's graph. Raised before anything
 * runs; names the hook, the callback and the name. Twin of Python's {@code
 * jhooks.tf.GraphNameError}.
 */
public final class GraphNameException extends HookException {
  private final String name;

  public GraphNameException(String hook, String callback, String name, String problem) {
    super(hook, callback, "'" + name + "' " + problem);
    this.name = name;
  }

  /** The offending tensor or op name. */
  public String name() {
    return name;
  }
}
