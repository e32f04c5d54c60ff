package org.jhooks;

import java.util.Objects;

/**
 * The language-neutral subset of TensorFlow's {@code RunOptions} proto that hooks may set.
 *
 * <p>{@link #merge} follows TensorFlow's {@code _HookedSession._merge_run_options}: numeric fields
 * take the larger value, booleans are OR-ed. Immutable.
 */
public final class RunOptions {
  /**
   * {@code RunOptions.TraceLevel}: 0 NO_TRACE, 1 SOFTWARE_TRACE, 2 HARDWARE_TRACE, 3 FULL_TRACE.
   */
  public final int traceLevel;

  /** Run timeout in milliseconds; 0 means none. */
  public final long timeoutInMs;

  /** Inter-op thread pool index. */
  public final int interOpThreadPool;

  public final boolean outputPartitionGraphs;
  public final boolean reportTensorAllocationsUponOom;

  public RunOptions(
      int traceLevel,
      long timeoutInMs,
      int interOpThreadPool,
      boolean outputPartitionGraphs,
      boolean reportTensorAllocationsUponOom) {
    this.traceLevel = traceLevel;
    this.timeoutInMs = timeoutInMs;
    this.interOpThreadPool = interOpThreadPool;
    this.outputPartitionGraphs = outputPartitionGraphs;
    this.reportTensorAllocationsUponOom = reportTensorAllocationsUponOom;
  }

  /** Options with only the trace level set. */
  public static RunOptions ofTraceLevel(int traceLevel) {
    return new RunOptions(traceLevel, 0, 0, false, false);
  }

  /** Combines two options by TensorFlow's rules; either may be null. */
  public static RunOptions merge(RunOptions a, RunOptions b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return new RunOptions(
        Math.max(a.traceLevel, b.traceLevel),
        Math.max(a.timeoutInMs, b.timeoutInMs),
        Math.max(a.interOpThreadPool, b.interOpThreadPool),
        a.outputPartitionGraphs || b.outputPartitionGraphs,
        a.reportTensorAllocationsUponOom || b.reportTensorAllocationsUponOom);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RunOptions)) {
      return false;
    }
    RunOptions r = (RunOptions) o;
    return traceLevel == r.traceLevel
        && timeoutInMs == r.timeoutInMs
        && interOpThreadPool == r.interOpThreadPool
        && outputPartitionGraphs == r.outputPartitionGraphs
        && reportTensorAllocationsUponOom == r.reportTensorAllocationsUponOom;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        traceLevel,
        timeoutInMs,
        interOpThreadPool,
        outputPartitionGraphs,
        reportTensorAllocationsUponOom);
  }

  @Override
  public String toString() {
    return "RunOptions{traceLevel="
        + traceLevel
        + ", timeoutInMs="
        + timeoutInMs
        + ", interOpThreadPool="
        + interOpThreadPool
        + ", outputPartitionGraphs="
        + outputPartitionGraphs
        + ", reportTensorAllocationsUponOom="
        + reportTensorAllocationsUponOom
        + "}";
  }
}
