package org.jhooks.tf;

import java.util.List;

/**
 * A non-chief's {@link WorkerSessionCreator} waited its whole {@code maxWaitSecs} and the chief had
 * still not initialized or restored the model. TensorFlow's {@code SessionManager.wait_for_session}
 * raises {@code DeadlineExceededError} in this case.
 */
public final class ModelNotReadyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> notReady;

  ModelNotReadyException(String master, double waitedSecs, List<String> notReady, Throwable last) {
    super(
        "the model on "
            + master
            + " was not ready after "
            + String.format(java.util.Locale.ROOT, "%.1f", waitedSecs)
            + " s (maxWaitSecs): "
            + (notReady.isEmpty()
                ? "could not check it" + (last == null ? "" : ": " + last)
                : "variables not initialized: " + notReady)
            + ". The chief initializes or restores the variables; is it running and does this"
            + " task's session reach it (cluster, device filters)?",
        last);
    this.notReady = List.copyOf(notReady);
  }

  /** The variables still uninitialized at the last check (empty if the check itself failed). */
  public List<String> notReady() {
    return notReady;
  }
}
