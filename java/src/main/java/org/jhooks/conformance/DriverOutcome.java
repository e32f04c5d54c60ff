package org.jhooks.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a {@link ConformanceDriver}'s run of the caller's loop came to: the number of runs the
 * caller started, the results of those that returned, and how the loop ended. Twin of {@code
 * jhooks.conformance.driver.DriverOutcome}.
 */
public final class DriverOutcome {
  private final int callerRuns;
  private final List<Object> callerResults;
  private final boolean stopped;
  private final boolean endOfInput;
  private final Throwable error;

  private DriverOutcome(
      int callerRuns,
      List<Object> callerResults,
      boolean stopped,
      boolean endOfInput,
      Throwable error) {
    this.callerRuns = callerRuns;
    this.callerResults = Collections.unmodifiableList(new ArrayList<>(callerResults));
    this.stopped = stopped;
    this.endOfInput = endOfInput;
    this.error = error;
  }

  /**
   * The loop ended and the session closed without an error.
   *
   * @param callerRuns runs the caller started (a run that hit the end of input counts)
   * @param callerResults what each returning run gave, as {@code MonitoredSession.run} returns it
   * @param stopped the session's {@code shouldStop()} after the loop
   * @param endOfInput whether a caller's run reached the end of input
   */
  public static DriverOutcome finished(
      int callerRuns, List<Object> callerResults, boolean stopped, boolean endOfInput) {
    return new DriverOutcome(callerRuns, callerResults, stopped, endOfInput, null);
  }

  /** Creating, running or closing the session threw {@code error} (as the caller would see it). */
  public static DriverOutcome failed(int callerRuns, List<Object> callerResults, Throwable error) {
    if (error == null) {
      throw new IllegalArgumentException("DriverOutcome.failed: null error");
    }
    return new DriverOutcome(callerRuns, callerResults, false, false, error);
  }

  public int callerRuns() {
    return callerRuns;
  }

  public List<Object> callerResults() {
    return callerResults;
  }

  public boolean stopped() {
    return stopped;
  }

  public boolean endOfInput() {
    return endOfInput;
  }

  /** The error, or null when the loop finished. */
  public Throwable error() {
    return error;
  }
}
