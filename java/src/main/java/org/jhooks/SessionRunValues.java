package org.jhooks;

/**
 * The results of one run for one hook. Twin of TensorFlow's {@code SessionRunValues}.
 *
 * <p>{@link #results()} has exactly the structure of the fetches the hook returned from {@code
 * beforeSessionRun}: a single name gives one {@link org.tensorflow.ndarray.NdArray} ({@code null}
 * for a target), a list gives a list, a map gives a map; {@code null} when it asked for nothing.
 */
public final class SessionRunValues {
  private final Object results;
  private final RunOptions options;
  private final byte[] runMetadata;

  /**
   * @param runMetadata the serialized {@code RunMetadata} proto, or {@code null} when none was
   *     requested
   */
  public SessionRunValues(Object results, RunOptions options, byte[] runMetadata) {
    this.results = results;
    this.options = options;
    this.runMetadata = runMetadata;
  }

  public Object results() {
    return results;
  }

  /** The merged options the run used, or {@code null}. */
  public RunOptions options() {
    return options;
  }

  /** The serialized {@code RunMetadata} proto, or {@code null}. */
  public byte[] runMetadata() {
    return runMetadata;
  }
}
