package org.jhooks.tf;

import java.util.Collections;
import java.util.Map;
import org.tensorflow.ndarray.NdArray;

/**
 * The outcome of one flat run: a heap copy of every fetched tensor by name, and the serialized
 * {@code RunMetadata} when it was requested. Holds no native memory.
 */
public final class FlatResult {
  private final Map<String, NdArray<?>> values;
  private final byte[] runMetadata;

  FlatResult(Map<String, NdArray<?>> values, byte[] runMetadata) {
    this.values = Collections.unmodifiableMap(values);
    this.runMetadata = runMetadata;
  }

  /** Tensor name ({@code "op:N"}) to its heap copy. */
  public Map<String, NdArray<?>> values() {
    return values;
  }

  /**
   * @throws IllegalArgumentException {@code name} was not fetched
   */
  public NdArray<?> value(String name) {
    NdArray<?> v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException(
          "tensor '" + name + "' was not fetched; fetched " + values.keySet());
    }
    return v;
  }

  /** The serialized {@code RunMetadata} proto, or {@code null}. */
  public byte[] runMetadata() {
    return runMetadata;
  }
}
