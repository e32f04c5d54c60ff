package org.jhooks.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * What one per-run call of a hook group across the bridge packs, so the call converts numbers and
 * one {@code byte[]} instead of objects: the {@code long} a group's {@code beforeSessionRun} or
 * {@code afterSessionRun} returns ({@link JavaHookGroup} to Python, the Python side of {@link
 * PythonHookGroup} to Java), and the small results of a run's hooks in one {@code byte[]}.
 *
 * <p>The layout is defined here only: {@code jhooks.bridge} reads these constants from this class
 * when it loads.
 *
 * <p>A result: bits {@code 0..7} the flags ({@link #CONTEXT_STOP}, {@link #COORDINATOR_STOP},
 * {@link #HAS_ARGS}); bits {@code 8..31} the index of the hook that returned new args, or the
 * group's size ({@link #INDEX_SHIFT}); bit {@code 32 + i} set when hook {@code i} (below {@link
 * #MAX_REPEATED}) returned again the args it returned last time ({@link #REPEATED_SHIFT}). A result
 * is never negative, so Python reads it as the same number.
 *
 * <p>Values: for each hook, in order, a little-endian {@code int32} length, then that many bytes of
 * {@link NumpyArrays#packed} layout, its one small result; the length {@link #NO_RESULTS} for a
 * hook whose results are {@code null}.
 */
public final class PackedRun {
  /** A Java hook's run context has its stop flag set. */
  public static final long CONTEXT_STOP = 1;

  /** A Java hook's coordinator has its stop flag set. */
  public static final long COORDINATOR_STOP = 2;

  /** The hook at the index returned new args: take them from the group. */
  public static final long HAS_ARGS = 4;

  /** Bits below this hold the flags. */
  public static final int INDEX_SHIFT = 8;

  /** The index's bits, once shifted down. */
  public static final long INDEX_MASK = 0xFF_FFFFL;

  /** Bit {@code REPEATED_SHIFT + i}: hook {@code i} repeated its args. */
  public static final int REPEATED_SHIFT = 32;

  /** Hooks at or past this index are never reported repeated (the result stays a positive long). */
  public static final int MAX_REPEATED = 31;

  /** The length that marks a hook without results in packed values. */
  public static final int NO_RESULTS = -1;

  /** Results of at most this many bytes are packed ({@code jhooks.bridge.convert.arrays}' twin). */
  public static final int MAX_PACKED_BYTES = 1024;

  private PackedRun() {}

  /** A result of {@code flags}, {@code index} and the {@code repeated} mask (hooks 0..31). */
  public static long of(long flags, int index, long repeated) {
    return flags | (long) index << INDEX_SHIFT | repeated << REPEATED_SHIFT;
  }

  /** The hook index of {@code result}. */
  public static int index(long result) {
    return (int) (result >>> INDEX_SHIFT & INDEX_MASK);
  }

  /** Bit {@code i}: hook {@code i} repeated its args. */
  public static long repeated(long result) {
    return result >>> REPEATED_SHIFT;
  }

  /**
   * The results of {@code values[0 .. values.length - 1]} packed as the class doc says, or {@code
   * null} when one has options or metadata, or results that are not one small numeric array.
   */
  public static byte[] values(SessionRunValues[] values) {
    byte[][] each = new byte[values.length][];
    int size = 0;
    for (int i = 0; i < values.length; i++) {
      SessionRunValues v = values[i];
      if (v.options() != null || v.runMetadata() != null) {
        return null;
      }
      if (v.results() != null) {
        if (!(v.results() instanceof NdArray)) {
          return null;
        }
        try {
          each[i] = NumpyArrays.packed((NdArray<?>) v.results(), MAX_PACKED_BYTES);
        } catch (IllegalArgumentException e) {
          return null; // a dtype jhooks does not move: the unpacked path reports it
        }
        if (each[i] == null) {
          return null;
        }
        size += each[i].length;
      }
      size += Integer.BYTES;
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    for (byte[] packed : each) {
      out.putInt(packed == null ? NO_RESULTS : packed.length);
      if (packed != null) {
        out.put(packed);
      }
    }
    return out.array();
  }

  /**
   * The arrays {@code packed} holds, each a read-only copy ({@link NumpyArrays#unpacked}), {@code
   * null} for {@link #NO_RESULTS}; {@code count} of them.
   */
  public static NdArray<?>[] arrays(byte[] packed, int count) {
    NdArray<?>[] out = new NdArray<?>[count];
    ByteBuffer in = ByteBuffer.wrap(packed).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < count; i++) {
      int length = in.getInt();
      if (length != NO_RESULTS) {
        int at = in.position();
        out[i] = NumpyArrays.unpacked(java.util.Arrays.copyOfRange(packed, at, at + length));
        in.position(at + length);
      }
    }
    return out;
  }
}
