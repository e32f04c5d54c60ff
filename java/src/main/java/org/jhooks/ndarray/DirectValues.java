package org.jhooks.ndarray;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * Large fetched values of the JVM driver held in direct memory instead of the Java heap, so a
 * Python hook reads them as a numpy view (no copy: {@code
 * jhooks.bridge.convert.arrays.view_to_numpy}) and the heap does not churn by the size of every
 * fetch. A Java hook sees an ordinary writable {@link NdArray} it may keep.
 *
 * <p>The memory of a value comes back when nothing can read it any more (no array, no Python view:
 * both are tracked by weak references) and is reused for a value of the same size, since fresh
 * memory costs a page fault per page. References clear only when the JVM collects; the JDK asks for
 * a collection only when {@code -XX:MaxDirectMemorySize} (by default the maximum heap) is reached,
 * so here one is requested when no free memory fits and the values handed out since the last
 * collection that may still be read exceed {@link #budget()} (system property {@code
 * jhooks.directBudgetMb}, default 256) or twice the largest value, whichever is more: memory held
 * by values nobody keeps stays bounded by about twice that, whatever the heap size, and a value as
 * large as the budget costs a collection every other step, not every step ({@link
 * #collectionsRequested()}). Thread-safe.
 */
public final class DirectValues {
  private DirectValues() {}

  /** Values smaller than this many bytes stay on the heap (a copy costs less than a view). */
  public static final long MIN_BYTES = 1 << 20;

  private static final long BUDGET = Long.getLong("jhooks.directBudgetMb", 256L) * (1L << 20);
  // The lease of each array handed out, by the array's identity.
  private static final WeakIdentityTable<Lease> BUFFERS =
      new WeakIdentityTable<>(DirectValues::arrayGone);
  // Bytes of values handed out and not known to be free, that many right after the last
  // collection (values still read then), and the largest value handed out.
  private static long outstanding;
  private static long liveAfterCollection;
  private static long largest;
  private static long collections;
  private static long allocated;
  // Buffers handed out to Python (as duplicates), the leases of values not yet free, and buffers
  // free for reuse, by capacity: fresh direct memory costs a page fault per page, reused memory
  // does not.
  private static final ReferenceQueue<ByteBuffer> RETURNED = new ReferenceQueue<>();
  private static final java.util.Set<HandedOut> HANDED_OUT = new java.util.HashSet<>();
  private static final java.util.Set<Lease> LEASES = new java.util.HashSet<>();
  private static final Map<Integer, java.util.ArrayDeque<ByteBuffer>> FREE = new HashMap<>();
  private static long freeBytes;

  // The memory of one value: free again once the array and every duplicate handed to Python are
  // unreachable. The duplicates are made when Python asks (bytes): the array's own buffers refer to
  // the memory, not to a duplicate, so a duplicate made ahead would be collected while the array
  // is still read and Python would then get a copy instead of a view.
  private static final class Lease {
    final ByteBuffer memory;
    boolean arrayGone;
    int handedOut;

    Lease(ByteBuffer memory) {
      this.memory = memory;
      outstanding += memory.capacity();
    }
  }

  // One duplicate of a lease's memory handed to Python, cleared when Python lets it go.
  private static final class HandedOut extends WeakReference<ByteBuffer> {
    final Lease lease;

    HandedOut(ByteBuffer duplicate, Lease lease) {
      super(duplicate, RETURNED);
      this.lease = lease;
      lease.handedOut++;
    }
  }

  /**
   * How many collections this class has asked the JVM for ({@code System.gc()}) since the JVM
   * started.
   */
  public static long collectionsRequested() {
    synchronized (BUFFERS) {
      return collections;
    }
  }

  /** Bytes of fresh direct memory allocated since the JVM started (reused memory not counted). */
  public static long bytesAllocated() {
    synchronized (BUFFERS) {
      return allocated;
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
    Lease lease;
    synchronized (BUFFERS) {
      lease = new Lease(memory);
    }
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
    return array;
  }

  // A free buffer of n bytes, or a new one. When none is free and the values handed out since the
  // last collection exceed the threshold, asks the JVM to collect first so that buffers nobody
  // reads any more come back (the JDK's own rule for direct buffers, with a budget instead of the
  // heap size).
  private static ByteBuffer memory(int n) {
    ByteBuffer memory;
    boolean collect = false;
    synchronized (BUFFERS) {
      expunge();
      largest = Math.max(largest, n);
      memory = take(n);
      collect = memory == null && outstanding - liveAfterCollection + n > threshold();
    }
    if (collect) {
      collect();
      synchronized (BUFFERS) {
        memory = take(n);
      }
    }
    if (memory == null) {
      memory = ByteBuffer.allocateDirect(n);
      synchronized (BUFFERS) {
        allocated += n;
      }
    }
    return memory;
  }

  // Bytes of values (handed out since the last collection) or of free memory held before asking
  // for a collection: the budget, or twice the largest value, so that a value as large as the
  // budget does not cost a collection every step.
  private static long threshold() {
    return Math.max(BUDGET, 2 * largest);
  }

  // System.gc(), then takes in every reference it cleared at once: the reference handler queues
  // them later (the JDK's Bits.reserveMemory waits for it), so memory freed now is reused now.
  private static void collect() {
    synchronized (BUFFERS) {
      collections++;
    }
    System.gc();
    synchronized (BUFFERS) {
      expunge();
      BUFFERS.sweep();
      for (HandedOut h : new ArrayList<>(HANDED_OUT)) {
        if (h.refersTo(null)) {
          handedOutGone(h);
        }
      }
      liveAfterCollection = outstanding;
    }
  }

  // The array of l was collected (its entry left BUFFERS).
  private static void arrayGone(Lease l) {
    l.arrayGone = true;
    releaseIfUnread(l);
  }

  // A buffer handed to Python was collected (seen cleared, or polled from RETURNED).
  private static void handedOutGone(HandedOut h) {
    if (HANDED_OUT.remove(h)) {
      h.lease.handedOut--;
      releaseIfUnread(h.lease);
    }
  }

  private static void releaseIfUnread(Lease l) {
    if (!l.arrayGone || l.handedOut > 0 || !LEASES.remove(l)) {
      return;
    }
    int n = l.memory.capacity();
    outstanding -= n;
    liveAfterCollection = Math.min(liveAfterCollection, outstanding);
    long limit = threshold();
    if (n > limit) {
      return;
    }
    // free memory of other sizes goes first (the collector frees it), so the pool holds what is
    // fetched now
    java.util.Iterator<Map.Entry<Integer, java.util.ArrayDeque<ByteBuffer>>> sizes =
        FREE.entrySet().iterator();
    while (freeBytes + n > limit && sizes.hasNext()) {
      Map.Entry<Integer, java.util.ArrayDeque<ByteBuffer>> size = sizes.next();
      if (size.getKey() != n) {
        freeBytes -= (long) size.getKey() * size.getValue().size();
        sizes.remove();
      }
    }
    if (freeBytes + n <= limit) {
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
   * The direct memory behind {@code array} (C order, native byte order) when {@link #copyOf} made
   * it, else {@code null}: a new duplicate at each call, for as long as the array is reachable. The
   * memory is not reused while the array or any duplicate is referenced.
   */
  public static ByteBuffer bytes(NdArray<?> array) {
    synchronized (BUFFERS) {
      expunge();
      Lease lease = BUFFERS.get(array);
      if (lease == null) {
        return null;
      }
      ByteBuffer duplicate = lease.memory.duplicate().order(ByteOrder.nativeOrder());
      HANDED_OUT.add(new HandedOut(duplicate, lease));
      return duplicate;
    }
  }

  private static void expunge() {
    Object returned;
    while ((returned = RETURNED.poll()) != null) {
      handedOutGone((HandedOut) returned);
    }
    BUFFERS.expunge();
  }
}
