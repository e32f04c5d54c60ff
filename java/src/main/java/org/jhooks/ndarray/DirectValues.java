package org.jhooks.ndarray;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * Large fetched values of the JVM driver held in direct memory instead of the Java heap, so a
 * Python hook reads them as a numpy view (no copy: {@code jhooks.bridge.arrays.view_to_numpy}) and
 * the heap does not churn by the size of every fetch. A Java hook sees an ordinary writable {@link
 * NdArray} it may keep.
 *
 * <p>The memory of a value comes back when nothing can read it any more (no array, no Python view:
 * both are tracked by weak references) and is reused for a value of the same size, since fresh
 * memory costs a page fault per page. References clear only when the JVM collects; the JDK asks for
 * a collection only when {@code -XX:MaxDirectMemorySize} (by default the maximum heap) is reached,
 * so here one is requested after every {@link #budget()} new bytes (system property {@code
 * jhooks.directBudgetMb}, default 256): memory held by values nobody keeps stays bounded by about
 * twice that budget, whatever the heap size. Thread-safe.
 */
public final class DirectValues {
  private DirectValues() {}

  /** Values smaller than this many bytes stay on the heap (a copy costs less than a view). */
  public static final long MIN_BYTES = 1 << 20;

  private static final long BUDGET = Long.getLong("jhooks.directBudgetMb", 256L) * (1L << 20);
  // The lease of each array handed out, by the array's identity.
  private static final WeakIdentityTable<Lease> BUFFERS =
      new WeakIdentityTable<>(DirectValues::release);
  private static long sinceCollection;
  // Buffers handed out (as duplicates) and buffers free for reuse, by capacity: fresh direct
  // memory costs a page fault per page, reused memory does not.
  private static final ReferenceQueue<ByteBuffer> RETURNED = new ReferenceQueue<>();
  private static final java.util.Set<Lease> LEASES = new java.util.HashSet<>();
  private static final Map<Integer, java.util.ArrayDeque<ByteBuffer>> FREE = new HashMap<>();
  private static long freeBytes;

  // The memory of one value: free again once both the array and the duplicate handed to Python
  // (held by nothing here) are unreachable; one collection clears both.
  private static final class Lease extends WeakReference<ByteBuffer> {
    final ByteBuffer memory;
    int pending = 2;

    Lease(ByteBuffer handedOut, ByteBuffer memory) {
      super(handedOut, RETURNED);
      this.memory = memory;
    }
  }

  /** Bytes handed out between requested collections. */
  public static long budget() {
    return BUDGET;
  }

  /**
   * Whether values of {@code dtype} and {@code shape} are held in direct memory: float32, float64,
   * int32 and int64 of at least {@link #MIN_BYTES}.
   */
  public static boolean wanted(DType dtype, Shape shape) {
    switch (dtype) {
      case FLOAT32:
      case FLOAT64:
      case INT32:
      case INT64:
        return shape.size() * dtype.itemSize() >= MIN_BYTES;
      default:
        return false;
    }
  }

  /**
   * A new writable array in direct memory holding a copy of {@code tensor} (of {@code dtype}, see
   * {@link #wanted}), made by one bulk copy.
   */
  public static NdArray<?> copyOf(DType dtype, org.tensorflow.Tensor tensor) {
    Shape shape = tensor.shape();
    ByteBuffer memory = memory(Math.toIntExact(shape.size() * dtype.itemSize()));
    ByteBuffer bytes = memory.duplicate().order(ByteOrder.nativeOrder());
    Lease lease = new Lease(bytes, memory);
    NativeCopy.copy(tensor, bytes);
    NdArray<?> array;
    switch (dtype) {
      case FLOAT32:
        array = NdArrays.wrap(shape, DataBuffers.of(bytes.asFloatBuffer()));
        break;
      case FLOAT64:
        array = NdArrays.wrap(shape, DataBuffers.of(bytes.asDoubleBuffer()));
        break;
      case INT32:
        array = NdArrays.wrap(shape, DataBuffers.of(bytes.asIntBuffer()));
        break;
      case INT64:
        array = NdArrays.wrap(shape, DataBuffers.of(bytes.asLongBuffer()));
        break;
      default:
        throw new IllegalArgumentException(dtype + " values are not held in direct memory");
    }
    synchronized (BUFFERS) {
      LEASES.add(lease);
      BUFFERS.put(array, lease);
    }
    java.lang.ref.Reference.reachabilityFence(bytes);
    return array;
  }

  // A free buffer of n bytes, or a new one; after BUDGET new bytes, asks the JVM to collect first
  // so that buffers nobody reads any more come back.
  private static ByteBuffer memory(int n) {
    ByteBuffer memory;
    boolean collect = false;
    synchronized (BUFFERS) {
      expunge();
      memory = take(n);
      if (memory == null) {
        sinceCollection += n;
        collect = sinceCollection > BUDGET;
        if (collect) {
          sinceCollection = n;
        }
      }
    }
    if (collect) {
      System.gc(); // the JDK's own rule for direct buffers, with a budget instead of the heap size
      synchronized (BUFFERS) {
        expunge();
        memory = take(n);
      }
    }
    if (memory == null) {
      memory = ByteBuffer.allocateDirect(n);
    }
    return memory;
  }

  private static void release(Lease l) {
    if (--l.pending > 0) {
      return;
    }
    LEASES.remove(l);
    int n = l.memory.capacity();
    if (freeBytes + n <= BUDGET) {
      FREE.computeIfAbsent(n, k -> new java.util.ArrayDeque<>()).push(l.memory);
      freeBytes += n;
    }
  }

  private static ByteBuffer take(int n) {
    java.util.ArrayDeque<ByteBuffer> free = FREE.get(n);
    ByteBuffer b = free == null ? null : free.poll();
    if (b != null) {
      freeBytes -= n;
    }
    return b;
  }

  /**
   * The direct memory behind {@code array} (C order, native byte order) when {@link #allocate} made
   * it, else {@code null}. The buffer stays valid as long as it is referenced.
   */
  public static ByteBuffer bytes(NdArray<?> array) {
    synchronized (BUFFERS) {
      expunge();
      Lease lease = BUFFERS.get(array);
      return lease == null ? null : lease.get();
    }
  }

  private static void expunge() {
    Object returned;
    while ((returned = RETURNED.poll()) != null) {
      release((Lease) returned);
    }
    BUFFERS.expunge();
  }
}
