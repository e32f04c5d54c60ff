package org.jhooks.hooks;

import static org.junit.Assert.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.tensorflow.proto.Event;

/** Reads event files back record by record, checking both masked CRCs of every record. */
final class EventFiles {
  private EventFiles() {}

  static List<Event> readAll(Path dir) throws Exception {
    List<Event> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f :
          s.filter(p -> p.getFileName().toString().startsWith("events.out.tfevents."))
              .sorted()
              .collect(Collectors.toList())) {
        out.addAll(read(f));
      }
    }
    return out;
  }

  static List<Event> read(Path file) throws Exception {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    List<Event> events = new ArrayList<>();
    while (b.hasRemaining()) {
      byte[] len = new byte[8];
      b.get(len);
      int lenCrc = b.getInt();
      assertEquals("length crc", EventFileWriter.maskedCrc(len, 0, 8), lenCrc);
      int n = (int) ByteBuffer.wrap(len).order(ByteOrder.LITTLE_ENDIAN).getLong();
      byte[] data = new byte[n];
      b.get(data);
      assertEquals("data crc", EventFileWriter.maskedCrc(data, 0, n), b.getInt());
      events.add(Event.parseFrom(data));
    }
    return events;
  }
}
