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
  private final List<Object> withoutHooksResults;

  private DriverOutcome(
      int callerRuns,
      List<Object> callerResults,
      List<Object> withoutHooksResults,
      boolean stopped,
      boolean endOfInput,
      Throwable error) {
    this.callerRuns = callerRuns;
    this.callerResults = Collections.unmodifiableList(new ArrayList<>(callerResults));
    this.withoutHooksResults = Collections.unmodifiableList(new ArrayList<>(withoutHooksResults));
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
    return finished(callerRuns, callerResults, List.of(), stopped, endOfInput);
  }

  /**
   * {@link #finished(int, List, boolean, boolean)} with {@code withoutHooksResults}: what each
   * returning run without hooks ({@link Caller#withoutHooks()}) gave, as {@code
   * MonitoredSession.runWithoutHooks} returns it.
   */
  public static DriverOutcome finished(
      int callerRuns,
      List<Object> callerResults,
      List<Object> withoutHooksResults,
      boolean stopped,
      boolean endOfInput) {
    return new DriverOutcome(
        callerRuns, callerResults, withoutHooksResults, stopped, endOfInput, null);
  }

  /** Creating, running or closing the session threw {@code error} (as the caller would see it). */
  public static DriverOutcome failed(int callerRuns, List<Object> callerResults, Throwable error) {
    return failed(callerRuns, callerResults, List.of(), error);
  }

  /** {@link #failed(int, List, Throwable)} with the results of the runs without hooks. */
  public static DriverOutcome failed(
      int callerRuns,
      List<Object> callerResults,
      List<Object> withoutHooksResults,
      Throwable error) {
    if (error == null) {
      throw new IllegalArgumentException("DriverOutcome.failed: null error");
    }
    return new DriverOutcome(callerRuns, callerResults, withoutHooksResults, false, false, error);
  }

  public int callerRuns() {
    return callerRuns;
  }

  public List<Object> callerResults() {
    return callerResults;
  }

  /** What each returning run without hooks gave, in order. */
  public List<Object> withoutHooksResults() {
    return withoutHooksResults;
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
