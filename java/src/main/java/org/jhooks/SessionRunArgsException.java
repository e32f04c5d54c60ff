package org.jhooks;

/**
 * Invalid {@link SessionRunArgs}: fetches that are not names or a nest of them, a feed key that is
 * null, a feed value that is not an {@link org.tensorflow.ndarray.NdArray}. The message names the
 * offending value. Thrown where the args are built; a driver turns one leaving a hook's callback
 * into a {@link HookException} naming the hook and callback (this exception as the cause). Twin of
 * Python's {@code jhooks.SessionRunArgsError}.
 */
public class SessionRunArgsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public SessionRunArgsException(String message) {
    super(message);
  }
}
