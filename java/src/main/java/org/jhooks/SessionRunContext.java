package org.jhooks;

/**
 * What a hook sees of one run: the caller's original args, the raw session view, and the stop flag.
 * Twin of TensorFlow's {@code SessionRunContext}. One instance is shared by every hook of a run;
 * after the run the driver ORs {@link #stopRequested()} into its own should-stop state.
 */
public final class SessionRunContext {
  private final SessionRunArgs originalArgs;
  private final Session session;
  private volatile boolean stopRequested;

  public SessionRunContext(SessionRunArgs originalArgs, Session session) {
    this.originalArgs = originalArgs;
    this.session = session;
  }

  /** The caller's fetches, feeds and options, as given to the monitored session's run. */
  public SessionRunArgs originalArgs() {
    return originalArgs;
  }

  /** The raw session: a run through it does not fire hooks. */
  public Session session() {
    return session;
  }

  /** Asks the monitored session to stop after this run; the run itself still completes. */
  public void requestStop() {
    stopRequested = true;
  }

  public boolean stopRequested() {
    return stopRequested;
  }
}
