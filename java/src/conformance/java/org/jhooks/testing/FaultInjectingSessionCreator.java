package org.jhooks.testing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jhooks.RunOptions;
import org.jhooks.tf.ErrorCodes;
import org.jhooks.tf.FlatResult;
import org.jhooks.tf.SessionCreator;
import org.jhooks.tf.TfSession;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArray;

/**
 * Wraps another {@link SessionCreator}: the sessions it makes are real, but chosen runs (counted
 * over all sessions it created, from 1: every run through the {@link TfSession} view, hooked runs
 * and hooks' raw runs alike, or only those with a given target) fail before reaching TensorFlow
 * with the exception tensorflow-java raises for a status code ({@link ErrorCodes#exceptionFor},
 * built from a real {@code TF_Status}). For tests of recovery and error handling: the conformance
 * suite's recovery scenarios and the driver's tests. Test support (package {@code
 * org.jhooks.testing}), not API. Twin of {@code jhooks.testing.FaultInjectingSessionCreator}.
 */
public final class FaultInjectingSessionCreator implements SessionCreator {
  private final SessionCreator delegate;
  private final Map<Integer, Map.Entry<ErrorCodes.Code, String>> faults = new ConcurrentHashMap<>();
  private final AtomicInteger runs = new AtomicInteger();
  private final AtomicInteger sessions = new AtomicInteger();

  private final String countedTarget;

  /** Counts every run. */
  public FaultInjectingSessionCreator(SessionCreator delegate) {
    this(delegate, null);
  }

  /**
   * Counts only runs whose targets include {@code countedTarget} (for example the train op), so
   * hooks' raw runs do not shift the numbering.
   */
  public FaultInjectingSessionCreator(SessionCreator delegate, String countedTarget) {
    this.delegate = delegate;
    this.countedTarget = countedTarget;
  }

  /**
   * Makes run number {@code run} (1-based, over all sessions) fail with {@code code}. The message
   * is one TensorFlow's runtime uses for that code where {@link ErrorCodes} knows one.
   */
  public FaultInjectingSessionCreator failRun(int run, ErrorCodes.Code code) {
    return failRun(run, code, defaultMessage(code, run));
  }

  public FaultInjectingSessionCreator failRun(int run, ErrorCodes.Code code, String message) {
    if (code == ErrorCodes.Code.OK) {
      throw new IllegalArgumentException("cannot inject code OK");
    }
    faults.put(run, Map.entry(code, message));
    return this;
  }

  /** Counted runs so far, failed ones included. */
  public int runCount() {
    return runs.get();
  }

  /** Sessions created so far. */
  public int sessionCount() {
    return sessions.get();
  }

  @Override
  public org.tensorflow.Session createSession(Graph graph) {
    org.tensorflow.Session s = delegate.createSession(graph);
    sessions.incrementAndGet();
    return s;
  }

  @Override
  public TfSession wrap(org.tensorflow.Session raw, Graph graph) {
    return new TfSession(raw, graph) {
      @Override
      public FlatResult runFlat(
          java.util.List<String> tensors,
          java.util.List<String> targets,
          Map<String, ? extends NdArray<?>> feeds,
          RunOptions options) {
        Map.Entry<ErrorCodes.Code, String> fault =
            countedTarget == null || targets.contains(countedTarget)
                ? faults.get(runs.incrementAndGet())
                : null;
        if (fault != null) {
          throw ErrorCodes.exceptionFor(fault.getKey(), fault.getValue());
        }
        return super.runFlat(tensors, targets, feeds, options);
      }
    };
  }

  private static String defaultMessage(ErrorCodes.Code code, int run) {
    switch (code) {
      case ABORTED:
        return "Session handle is not found: injected-at-run-"
            + run
            + ". Possibly, this worker just restarted.";
      case UNAVAILABLE:
        return "Socket closed (injected at run " + run + ")";
      default:
        return "injected " + code + " at run " + run;
    }
  }
}
