package org.jhooks.tf;

import org.tensorflow.Graph;

/**
 * Makes the raw session a {@link MonitoredSession} runs, at start and again after each recovery.
 * Twin of TensorFlow's {@code SessionCreator}.
 */
@FunctionalInterface
public interface SessionCreator {

  /**
   * A new session on {@code graph}, ready to run: variables restored or initialized. The caller
   * owns and closes it.
   */
  org.tensorflow.Session createSession(Graph graph);

  /**
   * The view every run of the monitored session goes through; the default is a plain {@link
   * TfSession}. Override to observe or fail runs (see {@code
   * org.jhooks.testing.FaultInjectingSessionCreator}).
   */
  default TfSession wrap(org.tensorflow.Session raw, Graph graph) {
    return new TfSession(raw, graph);
  }
}
