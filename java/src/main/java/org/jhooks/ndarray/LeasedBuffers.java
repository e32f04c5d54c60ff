package org.jhooks.ndarray;

import org.tensorflow.ndarray.buffer.BooleanDataBuffer;
import org.tensorflow.ndarray.buffer.ByteDataBuffer;
import org.tensorflow.ndarray.buffer.DataBuffer;
import org.tensorflow.ndarray.buffer.DataStorageVisitor;
import org.tensorflow.ndarray.buffer.DoubleDataBuffer;
import org.tensorflow.ndarray.buffer.FloatDataBuffer;
import org.tensorflow.ndarray.buffer.IntDataBuffer;
import org.tensorflow.ndarray.buffer.LongDataBuffer;
import org.tensorflow.ndarray.buffer.ShortDataBuffer;

/**
 * Data buffers that check a {@link ViewLease} before every read: what the views of {@link
 * DType#view(java.nio.ByteBuffer, org.tensorflow.ndarray.Shape, ViewLease)} are made of. Each
 * delegates to the buffer it wraps (bulk copies stay bulk copies); a slice, and so every sub-array
 * of an NdArray made over it, is under the same lease.
 */
final class LeasedBuffers {
  private LeasedBuffers() {}

  static FloatDataBuffer of(FloatDataBuffer in, ViewLease lease) {
    return new LeasedFloats(in, lease);
  }

  static DoubleDataBuffer of(DoubleDataBuffer in, ViewLease lease) {
    return new LeasedDoubles(in, lease);
  }

  static IntDataBuffer of(IntDataBuffer in, ViewLease lease) {
    return new LeasedInts(in, lease);
  }

  static LongDataBuffer of(LongDataBuffer in, ViewLease lease) {
    return new LeasedLongs(in, lease);
  }

  static ShortDataBuffer of(ShortDataBuffer in, ViewLease lease) {
    return new LeasedShorts(in, lease);
  }

  static ByteDataBuffer of(ByteDataBuffer in, ViewLease lease) {
    return new LeasedBytes(in, lease);
  }

  private static final class LeasedFloats implements FloatDataBuffer {
    private final FloatDataBuffer in;
    private final ViewLease lease;

    LeasedFloats(FloatDataBuffer in, ViewLease lease) {
      this.in = in;
      this.lease = lease;
    }

    @Override
    public long size() {
      return in.size();
    }

    @Override
    public boolean isReadOnly() {
      return in.isReadOnly();
    }

    @Override
    public float getFloat(long index) {
      lease.check();
      return in.getFloat(index);
    }

    @Override
    public FloatDataBuffer setFloat(float value, long index) {
      lease.check();
      in.setFloat(value, index);
      return this;
    }

    @Override
    public FloatDataBuffer read(float[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public FloatDataBuffer write(float[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public DataBuffer<Float> read(Float[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public DataBuffer<Float> write(Float[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public FloatDataBuffer copyTo(DataBuffer<Float> dst, long size) {
      lease.enter();
      try {
        in.copyTo(dst, size);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public FloatDataBuffer slice(long index, long size) {
      return new LeasedFloats(in.slice(index, size), lease);
    }

    @Override
    public <R> R accept(DataStorageVisitor<R> visitor) {
      lease.enter();
      try {
        return in.accept(visitor);
      } finally {
        lease.exit();
      }
    }

    @Override
    public boolean equals(Object other) {
      lease.enter();
      try {
        return in.equals(other instanceof LeasedFloats ? ((LeasedFloats) other).in : other);
      } finally {
        lease.exit();
      }
    }

    @Override
    public int hashCode() {
      lease.enter();
      try {
        return in.hashCode();
      } finally {
        lease.exit();
      }
    }
  }

  private static final class LeasedDoubles implements DoubleDataBuffer {
    private final DoubleDataBuffer in;
    private final ViewLease lease;

    LeasedDoubles(DoubleDataBuffer in, ViewLease lease) {
      this.in = in;
      this.lease = lease;
    }

    @Override
    public long size() {
      return in.size();
    }

    @Override
    public boolean isReadOnly() {
      return in.isReadOnly();
    }

    @Override
    public double getDouble(long index) {
      lease.check();
      return in.getDouble(index);
    }

    @Override
    public DoubleDataBuffer setDouble(double value, long index) {
      lease.check();
      in.setDouble(value, index);
      return this;
    }

    @Override
    public DoubleDataBuffer read(double[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public DoubleDataBuffer write(double[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public DataBuffer<Double> read(Double[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public DataBuffer<Double> write(Double[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public DoubleDataBuffer copyTo(DataBuffer<Double> dst, long size) {
      lease.enter();
      try {
        in.copyTo(dst, size);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public DoubleDataBuffer slice(long index, long size) {
      return new LeasedDoubles(in.slice(index, size), lease);
    }

    @Override
    public <R> R accept(DataStorageVisitor<R> visitor) {
      lease.enter();
      try {
        return in.accept(visitor);
      } finally {
        lease.exit();
      }
    }

    @Override
    public boolean equals(Object other) {
      lease.enter();
      try {
        return in.equals(other instanceof LeasedDoubles ? ((LeasedDoubles) other).in : other);
      } finally {
        lease.exit();
      }
    }

    @Override
    public int hashCode() {
      lease.enter();
      try {
        return in.hashCode();
      } finally {
        lease.exit();
      }
    }
  }

  private static final class LeasedInts implements IntDataBuffer {
    private final IntDataBuffer in;
    private final ViewLease lease;

    LeasedInts(IntDataBuffer in, ViewLease lease) {
      this.in = in;
      this.lease = lease;
    }

    @Override
    public long size() {
      return in.size();
    }

    @Override
    public boolean isReadOnly() {
      return in.isReadOnly();
    }

    @Override
    public int getInt(long index) {
      lease.check();
      return in.getInt(index);
    }

    @Override
    public IntDataBuffer setInt(int value, long index) {
      lease.check();
      in.setInt(value, index);
      return this;
    }

    @Override
    public IntDataBuffer read(int[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public IntDataBuffer write(int[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public DataBuffer<Integer> read(Integer[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public DataBuffer<Integer> write(Integer[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public IntDataBuffer copyTo(DataBuffer<Integer> dst, long size) {
      lease.enter();
      try {
        in.copyTo(dst, size);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public IntDataBuffer slice(long index, long size) {
      return new LeasedInts(in.slice(index, size), lease);
    }

    @Override
    public <R> R accept(DataStorageVisitor<R> visitor) {
      lease.enter();
      try {
        return in.accept(visitor);
      } finally {
        lease.exit();
      }
    }

    @Override
    public boolean equals(Object other) {
      lease.enter();
      try {
        return in.equals(other instanceof LeasedInts ? ((LeasedInts) other).in : other);
      } finally {
        lease.exit();
      }
    }

    @Override
    public int hashCode() {
      lease.enter();
      try {
        return in.hashCode();
      } finally {
        lease.exit();
      }
    }
  }

  private static final class LeasedLongs implements LongDataBuffer {
    private final LongDataBuffer in;
    private final ViewLease lease;

    LeasedLongs(LongDataBuffer in, ViewLease lease) {
      this.in = in;
      this.lease = lease;
    }

    @Override
    public long size() {
      return in.size();
    }

    @Override
    public boolean isReadOnly() {
      return in.isReadOnly();
    }

    @Override
    public long getLong(long index) {
      lease.check();
      return in.getLong(index);
    }

    @Override
    public LongDataBuffer setLong(long value, long index) {
      lease.check();
      in.setLong(value, index);
      return this;
    }

    @Override
    public LongDataBuffer read(long[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public LongDataBuffer write(long[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public DataBuffer<Long> read(Long[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public DataBuffer<Long> write(Long[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public LongDataBuffer copyTo(DataBuffer<Long> dst, long size) {
      lease.enter();
      try {
        in.copyTo(dst, size);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public LongDataBuffer slice(long index, long size) {
      return new LeasedLongs(in.slice(index, size), lease);
    }

    @Override
    public <R> R accept(DataStorageVisitor<R> visitor) {
      lease.enter();
      try {
        return in.accept(visitor);
      } finally {
        lease.exit();
      }
    }

    @Override
    public boolean equals(Object other) {
      lease.enter();
      try {
        return in.equals(other instanceof LeasedLongs ? ((LeasedLongs) other).in : other);
      } finally {
        lease.exit();
      }
    }

    @Override
    public int hashCode() {
      lease.enter();
      try {
        return in.hashCode();
      } finally {
        lease.exit();
      }
    }
  }

  private static final class LeasedShorts implements ShortDataBuffer {
    private final ShortDataBuffer in;
    private final ViewLease lease;

    LeasedShorts(ShortDataBuffer in, ViewLease lease) {
      this.in = in;
      this.lease = lease;
    }

    @Override
    public long size() {
      return in.size();
    }

    @Override
    public boolean isReadOnly() {
      return in.isReadOnly();
    }

    @Override
    public short getShort(long index) {
      lease.check();
      return in.getShort(index);
    }

    @Override
    public ShortDataBuffer setShort(short value, long index) {
      lease.check();
      in.setShort(value, index);
      return this;
    }

    @Override
    public ShortDataBuffer read(short[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public ShortDataBuffer write(short[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public DataBuffer<Short> read(Short[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public DataBuffer<Short> write(Short[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public ShortDataBuffer copyTo(DataBuffer<Short> dst, long size) {
      lease.enter();
      try {
        in.copyTo(dst, size);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public ShortDataBuffer slice(long index, long size) {
      return new LeasedShorts(in.slice(index, size), lease);
    }

    @Override
    public <R> R accept(DataStorageVisitor<R> visitor) {
      lease.enter();
      try {
        return in.accept(visitor);
      } finally {
        lease.exit();
      }
    }

    @Override
    public boolean equals(Object other) {
      lease.enter();
      try {
        return in.equals(other instanceof LeasedShorts ? ((LeasedShorts) other).in : other);
      } finally {
        lease.exit();
      }
    }

    @Override
    public int hashCode() {
      lease.enter();
      try {
        return in.hashCode();
      } finally {
        lease.exit();
      }
    }
  }

  private static final class LeasedBytes implements ByteDataBuffer {
    private final ByteDataBuffer in;
    private final ViewLease lease;

    LeasedBytes(ByteDataBuffer in, ViewLease lease) {
      this.in = in;
      this.lease = lease;
    }

    @Override
    public long size() {
      return in.size();
    }

    @Override
    public boolean isReadOnly() {
      return in.isReadOnly();
    }

    @Override
    public byte getByte(long index) {
      lease.check();
      return in.getByte(index);
    }

    @Override
    public ByteDataBuffer setByte(byte value, long index) {
      lease.check();
      in.setByte(value, index);
      return this;
    }

    @Override
    public ByteDataBuffer read(byte[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public ByteDataBuffer write(byte[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public DataBuffer<Byte> read(Byte[] dst, int offset, int length) {
      lease.enter();
      try {
        in.read(dst, offset, length);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public DataBuffer<Byte> write(Byte[] src, int offset, int length) {
      lease.check();
      in.write(src, offset, length);
      return this;
    }

    @Override
    public ByteDataBuffer copyTo(DataBuffer<Byte> dst, long size) {
      lease.enter();
      try {
        in.copyTo(dst, size);
      } finally {
        lease.exit();
      }
      return this;
    }

    @Override
    public ByteDataBuffer slice(long index, long size) {
      return new LeasedBytes(in.slice(index, size), lease);
    }

    @Override
    public <R> R accept(DataStorageVisitor<R> visitor) {
      lease.enter();
      try {
        return in.accept(visitor);
      } finally {
        lease.exit();
      }
    }

    @Override
    public boolean equals(Object other) {
      lease.enter();
      try {
        return in.equals(other instanceof LeasedBytes ? ((LeasedBytes) other).in : other);
      } finally {
        lease.exit();
      }
    }

    @Override
    public int hashCode() {
      lease.enter();
      try {
        return in.hashCode();
      } finally {
        lease.exit();
      }
    }

    @Override
    public IntDataBuffer asInts() {
      return of(in.asInts(), lease);
    }

    @Override
    public ShortDataBuffer asShorts() {
      return of(in.asShorts(), lease);
    }

    @Override
    public LongDataBuffer asLongs() {
      return of(in.asLongs(), lease);
    }

    @Override
    public FloatDataBuffer asFloats() {
      return of(in.asFloats(), lease);
    }

    @Override
    public DoubleDataBuffer asDoubles() {
      return of(in.asDoubles(), lease);
    }

    @Override
    public BooleanDataBuffer asBooleans() {
      throw new UnsupportedOperationException("a leased view is not read as booleans this way");
    }
  }
}
