package org.jhooks.tf;

import org.jhooks.HookException;

/**
 * A hook asked for a tensor or op that is not in the session's graph. Raised before anything runs;
 * names the hook, the callback and the name. Twin of Python's {@code jhooks.tf.GraphNameError}.
 */
public final class GraphNameException extends HookException {
  private static final long serialVersionUID = 1L;

  private final String name;

  public GraphNameException(String hook, String callback, String name, String problem) {
    this(hook, callback, name, problem, null);
  }

  public GraphNameException(
      String hook, String callback, String name, String problem, Throwable cause) {
    super(hook, callback, "'" + name + "' " + problem, cause);
    this.name = name;
  }

  /** The offending tensor or op name. */
  public String name() {
    return name;
  }
}
