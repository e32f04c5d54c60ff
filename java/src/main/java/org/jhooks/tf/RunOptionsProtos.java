package org.jhooks.tf;

import org.jhooks.RunOptions;

/**
 * Translates jhooks {@link RunOptions} to tensorflow-java's {@code
 * org.tensorflow.proto.RunOptions}.
 */
final class RunOptionsProtos {
  private RunOptionsProtos() {}

  /** The proto for {@code options}, or {@code null} for null options. */
  static org.tensorflow.proto.RunOptions toProto(RunOptions options) {
    if (options == null) {
      return null;
    }
    return org.tensorflow.proto.RunOptions.newBuilder()
        .setTraceLevelValue(options.traceLevel)
        .setTimeoutInMs(options.timeoutInMs)
        .setInterOpThreadPool(options.interOpThreadPool)
        .setOutputPartitionGraphs(options.outputPartitionGraphs)
        .setReportTensorAllocationsUponOom(options.reportTensorAllocationsUponOom)
        .build();
  }

  /** Whether a run with {@code options} should return its {@code RunMetadata}. */
  static boolean wantsMetadata(RunOptions options) {
    return options != null && (options.traceLevel > 0 || options.outputPartitionGraphs);
  }
}
