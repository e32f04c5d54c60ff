package org.jhooks.hooks;

import com.google.protobuf.ByteString;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import org.tensorflow.proto.Event;
import org.tensorflow.proto.SessionLog;
import org.tensorflow.proto.Summary;
import org.tensorflow.proto.TaggedRunMetadata;

/**
 * Writes a TensorBoard event file, as TensorFlow's {@code tf.compat.v1.summary.FileWriter}: file
 * {@code <dir>/events.out.tfevents.<unix secs>.<hostname>}, each record an {@code Event} proto in
 * TFRecord framing (little-endian uint64 length, masked CRC32C of the length, data, masked CRC32C
 * of the data); the first record is the {@code file_version: "brain.Event:2"} event. TensorBoard's
 * own reader loads it. Thread-safe.
 *
 * <p>Hooks given an output dir share one writer per directory per process ({@link #acquire} /
 * {@link #release}, reference-counted), as TensorFlow's {@code SummaryWriterCache}, so a step
 * counter and a summary saver on one directory write one file. Twin of Python's {@code
 * jhooks.hooks.event_writer} ({@code EventWriter}, {@code acquire}, {@code release}).
 */
public final class EventFileWriter implements AutoCloseable {
  private static final Map<Path, EventFileWriter> SHARED = new HashMap<>();
  private static final Map<EventFileWriter, Integer> USERS = new IdentityHashMap<>();

  private final String logdir;
  private final Path file;
  private final OutputStream out;
  private boolean closed;

  /**
   * Creates the directory and the file and writes the version event.
   *
   * @throws UncheckedIOException the file cannot be created
   */
  public EventFileWriter(String logdir) {
    this.logdir = logdir;
    try {
      Path dir = Paths.get(logdir);
      Files.createDirectories(dir);
      long secs = System.currentTimeMillis() / 1000;
      String name = "events.out.tfevents." + secs + "." + hostname();
      Path f = dir.resolve(name);
      for (int i = 1; Files.exists(f); i++) {
        f = dir.resolve(name + "." + i);
      }
      this.file = f;
      this.out = new BufferedOutputStream(Files.newOutputStream(f));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create an event file in " + logdir, e);
    }
    addEvent(Event.newBuilder().setFileVersion("brain.Event:2"));
  }

  /**
   * The process-wide writer of {@code logdir} (created on first use, keyed by its absolute normal
   * path); pair each call with {@link #release}.
   *
   * @throws UncheckedIOException the file cannot be created
   */
  public static EventFileWriter acquire(String logdir) {
    Path key = Paths.get(logdir).toAbsolutePath().normalize();
    synchronized (SHARED) {
      EventFileWriter w = SHARED.get(key);
      if (w == null) {
        w = new EventFileWriter(logdir);
        SHARED.put(key, w);
      }
      USERS.merge(w, 1, Integer::sum);
      return w;
    }
  }

  /**
   * Gives back a writer from {@link #acquire}: flushes it, and closes it when its last user
   * releases it (a writer that is not shared is just closed).
   */
  public static void release(EventFileWriter writer) {
    synchronized (SHARED) {
      Integer users = USERS.get(writer);
      if (users != null && users > 1) {
        USERS.put(writer, users - 1);
        writer.flush();
        return;
      }
      USERS.remove(writer);
      SHARED.values().remove(writer);
    }
    writer.close();
  }

  /** The directory of the event file, as given. */
  public String logdir() {
    return logdir;
  }

  /** The event file being written. */
  public Path path() {
    return file;
  }

  /** Writes an event with the current wall time (set if the builder has none). */
  public synchronized void addEvent(Event.Builder event) {
    if (event.getWallTime() == 0) {
      event.setWallTime(System.currentTimeMillis() / 1000.0);
    }
    writeRecord(event.build().toByteArray());
  }

  /** Writes a serialized {@code Summary} proto at {@code step}. */
  public void addSummary(byte[] serializedSummary, long step) {
    try {
      addSummary(Summary.parseFrom(serializedSummary), step);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "not a serialized Summary proto (" + serializedSummary.length + " bytes)", e);
    }
  }

  public void addSummary(Summary summary, long step) {
    addEvent(Event.newBuilder().setStep(step).setSummary(summary));
  }

  /** Writes one scalar ({@code simple_value}) summary: TensorBoard's scalars dashboard. */
  public void addScalar(String tag, double value, long step) {
    addSummary(
        Summary.newBuilder()
            .addValue(Summary.Value.newBuilder().setTag(tag).setSimpleValue((float) value))
            .build(),
        step);
  }

  /** Writes a {@code SessionLog} event (for example {@code START}) at {@code step}. */
  public void addSessionLog(SessionLog.SessionStatus status, long step) {
    addEvent(
        Event.newBuilder().setStep(step).setSessionLog(SessionLog.newBuilder().setStatus(status)));
  }

  /**
   * Writes a {@code tagged_run_metadata} event (TensorBoard's per-run compute time and memory for
   * {@code tag}) without a step, as TF's {@code FileWriter.add_run_metadata(run_metadata, tag)}.
   *
   * @param runMetadata a serialized {@code RunMetadata} proto
   */
  public void addRunMetadata(String tag, byte[] runMetadata) {
    addEvent(
        Event.newBuilder()
            .setTaggedRunMetadata(
                TaggedRunMetadata.newBuilder()
                    .setTag(tag)
                    .setRunMetadata(ByteString.copyFrom(runMetadata))));
  }

  /**
   * Writes a {@code graph_def} event (TensorBoard's graph dashboard) at step 0, as TF's {@code
   * FileWriter.add_graph(graph)}.
   *
   * @param graphDef a serialized {@code GraphDef} proto
   */
  public void addGraph(byte[] graphDef) {
    addEvent(Event.newBuilder().setGraphDef(ByteString.copyFrom(graphDef)));
  }

  /**
   * Writes a {@code meta_graph_def} event at step 0, as TF's {@code
   * FileWriter.add_meta_graph(meta_graph_def)}.
   *
   * @param metaGraphDef a serialized {@code MetaGraphDef} proto
   */
  public void addMetaGraph(byte[] metaGraphDef) {
    addEvent(Event.newBuilder().setMetaGraphDef(ByteString.copyFrom(metaGraphDef)));
  }

  public synchronized void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot flush event file " + file, e);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close event file " + file, e);
    }
  }

  private void writeRecord(byte[] data) {
    if (closed) {
      throw new IllegalStateException("event file " + file + " is closed");
    }
    ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    header.putLong(data.length);
    header.putInt(maskedCrc(header.array(), 0, 8));
    ByteBuffer footer = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    footer.putInt(maskedCrc(data, 0, data.length));
    try {
      out.write(header.array());
      out.write(data);
      out.write(footer.array());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write event file " + file, e);
    }
  }

  /** TFRecord's masked CRC32C: rotate right by 15 bits and add 0xa282ead8. */
  static int maskedCrc(byte[] data, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, offset, length);
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + 0xa282ead8;
  }

  private static String hostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
