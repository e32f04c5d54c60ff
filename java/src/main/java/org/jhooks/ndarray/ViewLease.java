package org.jhooks.ndarray;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The validity of read-only views over memory another runtime owns: the numpy memory behind the
 * fetched values a Java hook receives in a Python-driven session ({@code
 * jhooks.bridge.convert.arrays.view_to_java}, {@link DType#view(java.nio.ByteBuffer,
 * org.tensorflow.ndarray.Shape, ViewLease)}). The owner calls {@link #release()} before it frees
 * the memory; from then on every read of a view (an element, a bulk copy, a sub-array) throws an
 * {@link IllegalStateException} naming the value and saying to copy it inside the callback, instead
 * of reading freed memory. A check is one volatile read per element read, and a counter around a
 * bulk read, which {@link #release()} waits for. Thread-safe. See docs/bridge.md, "Arrays and
 * ownership".
 */
public final class ViewLease {
  private volatile boolean valid = true;
  private final AtomicInteger readers = new AtomicInteger();
  private volatile String what = "a value";

  /**
   * A valid lease; {@link DType#view(java.nio.ByteBuffer, org.tensorflow.ndarray.Shape, ViewLease)}
   * names its value.
   */
  public ViewLease() {}

  /** Whether views under this lease may still be read. */
  public boolean isValid() {
    return valid;
  }

  /**
   * Ends the lease: later reads of its views throw {@link IllegalStateException}. Returns once bulk
   * reads under way (copies) have finished, so the owner may free the memory afterwards. Calling it
   * again does nothing.
   */
  public void release() {
    valid = false;
    while (readers.get() > 0) {
      Thread.yield();
    }
  }

  void describe(String value) {
    what = value;
  }

  /** Throws unless the lease is valid; before an element read. */
  void check() {
    if (!valid) {
      throw expired();
    }
  }

  /** Starts a bulk read; throws unless the lease is valid. Pair with {@link #exit()}. */
  void enter() {
    readers.incrementAndGet();
    if (!valid) {
      readers.decrementAndGet();
      throw expired();
    }
  }

  /** Ends a bulk read started by {@link #enter()}. */
  void exit() {
    readers.decrementAndGet();
  }

  private IllegalStateException expired() {
    return new IllegalStateException(
        what
            + " is a read-only view of a Python (numpy) value that was valid only during the"
            + " callback that received it; its memory has been released. Copy it inside the"
            + " callback to keep it (e.g. NdArrays.ofFloats(v.shape()) then v.copyTo(copy)); see"
            + " docs/bridge.md, \"Arrays and ownership\"");
  }
}
