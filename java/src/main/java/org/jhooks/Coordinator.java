package org.jhooks;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The stop flag shared by a monitored session and its hooks; a small twin of TensorFlow's {@code
 * tf.train.Coordinator}. Thread-safe.
 */
public final class Coordinator {
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicReference<Throwable> error = new AtomicReference<>();

  /** Asks the monitored session to stop after the current step. */
  public void requestStop() {
    stop.set(true);
  }

  /** Asks to stop and records the first error reported; the driver re-raises it when it closes. */
  public void requestStop(Throwable cause) {
    if (cause != null) {
      error.compareAndSet(null, cause);
    }
    stop.set(true);
  }

  /** Whether a stop was requested. */
  public boolean shouldStop() {
    return stop.get();
  }

  /** The first error passed to {@link #requestStop(Throwable)}, or {@code null}. */
  public Throwable error() {
    return error.get();
  }

  /** Clears the stop flag and the error; drivers call it when they create a new session. */
  public void clearStop() {
    stop.set(false);
    error.set(null);
  }
}
