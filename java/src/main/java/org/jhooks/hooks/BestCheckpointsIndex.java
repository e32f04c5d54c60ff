package org.jhooks.hooks;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The index file of a {@link BestCheckpointsListener} ({@code best_checkpoints.json}): read
 * strictly, written atomically. Twin of {@code jhooks.hooks.best_checkpoints_index}: both read
 * every text to the same entries or refuse it with the same message (a text that is not UTF-8 or
 * not JSON gets the same start, each parser naming the position its own way), and neither trusts
 * the file further than its shape:
 *
 * <pre>
 * {"metric": "&lt;metric&gt;", "mode": "min" | "max",
 *  "best": [{"step": &lt;global step&gt;, "value": &lt;finite number&gt;,
 *            "checkpoint": "&lt;basename&gt;-&lt;step&gt;"}, ...]}
 * </pre>
 *
 * See {@code docs/standard-hooks.md}, "Best checkpoints".
 */
public final class BestCheckpointsIndex {
  /** The index file's name in the listener's sub-directory. */
  public static final String FILE = "best_checkpoints.json";

  /** The largest index read, in bytes (about 150,000 entries). */
  public static final int MAX_BYTES = 16 * 1024 * 1024;

  /** How deep an index nests: the object, its {@code best} array, an entry. */
  public static final int MAX_DEPTH = 3;

  /** The longest number literal read, in characters (a double needs 25; Gson reads up to 1024). */
  public static final int MAX_NUMBER = 1000;

  private static final int SHOWN = 100; // characters of a string or number shown in a message
  private static final String REPAIR = "; remove or repair it";
  private static final List<String> TOP_KEYS = List.of("metric", "mode", "best");
  private static final List<String> ENTRY_KEYS = List.of("step", "value", "checkpoint");
  private static final Pattern STEP = Pattern.compile("-?(?:0|[1-9][0-9]*)");
  private static final Pattern NUMBER =
      Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?");
  private static final Pattern GSON_PROBLEM =
      Pattern.compile("(?s)(.*?) at line (\\d+) column (\\d+) path .*");
  private static final BigInteger MAX_STEP = BigInteger.valueOf(Long.MAX_VALUE);

  private BestCheckpointsIndex() {}

  /**
   * The {@code (global step, value)} entries of the index at {@code path}, in file order.
   *
   * @throws IOException the file cannot be read
   * @throws IllegalArgumentException the message says what is wrong and where ({@code best[i]} for
   *     an entry): more than {@link #MAX_BYTES} bytes, not UTF-8, nested deeper than the shape
   *     above, a number longer than {@link #MAX_NUMBER} characters, not JSON (also NaN/Infinity
   *     literals), a key twice, missing or unknown, another metric or mode, a step that is not an
   *     integer literal from 0 to 2^63 - 1, a value that is not a finite number, a checkpoint other
   *     than {@code <checkpointBasename>-<step>}, a step listed twice
   */
  public static List<BestCheckpointsListener.Entry> read(
      Path path, String metric, String mode, String checkpointBasename) throws IOException {
    byte[] raw;
    try (InputStream in = Files.newInputStream(path)) {
      raw = in.readNBytes(MAX_BYTES + 1);
    }
    if (raw.length > MAX_BYTES) {
      throw problem("is larger than " + MAX_BYTES + " bytes, more than an index holds" + REPAIR);
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(raw))
              .toString();
    } catch (CharacterCodingException e) {
      throw problem("is not UTF-8 text (" + e.getMessage() + ")" + REPAIR);
    }
    checkBeforeParsing(text);
    Object data;
    try {
      JsonReader reader = new JsonReader(new StringReader(text));
      reader.setStrictness(Strictness.STRICT);
      data = readValue(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new NotJson("more after the index's object", reader);
      }
    } catch (NotJson e) {
      throw problem("is not JSON (" + e.getMessage() + ")" + REPAIR);
    } catch (IOException e) {
      throw problem("is not JSON (" + gsonProblem(e.getMessage()) + ")" + REPAIR);
    }
    return entries(data, metric, mode, checkpointBasename);
  }

  /**
   * Atomically replaces {@code directory/best_checkpoints.json} with {@code entries} (best first):
   * to a temporary file in {@code directory}, then moved over it.
   *
   * @throws UncheckedIOException the file cannot be written (the temporary file is removed)
   */
  public static void write(
      Path directory,
      String metric,
      String mode,
      List<BestCheckpointsListener.Entry> entries,
      String checkpointBasename) {
    JsonObject data = new JsonObject();
    data.addProperty("metric", metric);
    data.addProperty("mode", mode);
    JsonArray list = new JsonArray();
    for (BestCheckpointsListener.Entry e : entries) {
      JsonObject o = new JsonObject();
      o.addProperty("step", e.step());
      o.addProperty("value", e.value());
      o.addProperty("checkpoint", checkpointBasename + "-" + e.step());
      list.add(o);
    }
    data.add("best", list);
    String json = new GsonBuilder().setPrettyPrinting().create().toJson(data) + "\n";
    Path tmp = null;
    try {
      tmp = Files.createTempFile(directory, FILE + ".tmp", "");
      Files.writeString(tmp, json, StandardCharsets.UTF_8);
      Files.move(
          tmp,
          directory.resolve(FILE),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + directory.resolve(FILE), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the write's own error is being thrown
        }
      }
    }
  }

  private static IllegalArgumentException problem(String text) {
    return new IllegalArgumentException(text);
  }

  /**
   * Refuses brackets nested deeper than an index's, and numbers longer than {@link #MAX_NUMBER}
   * characters (Gson cannot read them as numbers), before parsing, so that no parser recurses into
   * them. Strings are skipped (an unterminated one runs to the end of the text).
   */
  private static void checkBeforeParsing(String text) {
    int depth = 0;
    boolean inString = false;
    int numberStart = -1; // where the current run of number characters began
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      if ("-+0123456789.eE".indexOf(c) >= 0) {
        numberStart = numberStart < 0 ? i : numberStart;
        if (i - numberStart + 1 > MAX_NUMBER) {
          throw problem(
              "has a number longer than "
                  + MAX_NUMBER
                  + " characters at character "
                  + text.codePointCount(0, numberStart)
                  + REPAIR);
        }
        continue;
      }
      numberStart = -1;
      if (c == '"') {
        inString = true;
      } else if (c == '[' || c == '{') {
        depth++;
        if (depth > MAX_DEPTH) {
          throw problem(
              "nests deeper than an index ("
                  + MAX_DEPTH
                  + " levels) at character "
                  + text.codePointCount(0, i)
                  + REPAIR);
        }
      } else if (c == ']' || c == '}') {
        depth--;
      }
    }
  }

  /** A JSON object: its members, and the keys given twice. */
  private static final class JsonMap {
    final Map<String, Object> members = new LinkedHashMap<>();
    final List<String> duplicates = new ArrayList<>();
  }

  /** A JSON number as written (its literal), as Python's twin reads it. */
  private static final class JsonNumber {
    final String text;

    JsonNumber(String text) {
      this.text = text;
    }
  }

  /** What the JSON grammar refuses and strict Gson lets through. */
  private static final class NotJson extends IOException {
    private static final long serialVersionUID = 1L;

    NotJson(String what, JsonReader reader) {
      super(gsonProblem(what + reader.toString().replaceFirst("^JsonReader", "")));
    }
  }

  // The depth was checked before: this recursion is at most MAX_DEPTH deep.
  private static Object readValue(JsonReader reader) throws IOException {
    switch (reader.peek()) {
      case BEGIN_OBJECT:
        JsonMap map = new JsonMap();
        reader.beginObject();
        while (reader.hasNext()) {
          String key = text(reader, reader.nextName());
          Object value = readValue(reader);
          if (map.members.containsKey(key) && !map.duplicates.contains(key)) {
            map.duplicates.add(key);
          }
          map.members.put(key, value);
        }
        reader.endObject();
        return map;
      case BEGIN_ARRAY:
        List<Object> list = new ArrayList<>();
        reader.beginArray();
        while (reader.hasNext()) {
          list.add(readValue(reader));
        }
        reader.endArray();
        return list;
      case STRING:
        return text(reader, reader.nextString());
      case NUMBER:
        String literal = reader.nextString();
        if (!NUMBER.matcher(literal).matches()) {
          throw new NotJson(shown(literal) + " is not a JSON number", reader);
        }
        return new JsonNumber(literal);
      case BOOLEAN:
        return reader.nextBoolean();
      case NULL:
        reader.nextNull();
        return null;
      default:
        throw new NotJson("unexpected " + reader.peek(), reader);
    }
  }

  /** {@code s} unless it holds a control character, which JSON strings may not (Gson allows). */
  private static String text(JsonReader reader, String s) throws NotJson {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < 0x20) {
        throw new NotJson("invalid control character in a string", reader);
      }
    }
    return s;
  }

  /** Gson's message as {@code <what>: line L column C}, without its advice and link. */
  private static String gsonProblem(String message) {
    String first = message == null ? "" : message.split("\n", 2)[0];
    Matcher m = GSON_PROBLEM.matcher(first);
    if (!m.matches()) {
      return first.strip();
    }
    String what =
        m.group(1)
            .replace(
                "Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON", "")
            .strip();
    return (what.isEmpty() ? "malformed JSON" : what)
        + ": line "
        + m.group(2)
        + " column "
        + m.group(3);
  }

  private static String shown(String text) {
    return text.codePointCount(0, text.length()) <= SHOWN
        ? text
        : text.substring(0, text.offsetByCodePoints(0, SHOWN)) + "...";
  }

  private static String kind(Object value) {
    if (value instanceof JsonMap) {
      return "an object";
    }
    if (value instanceof List) {
      return "an array";
    }
    if (value instanceof JsonNumber) {
      return "a number";
    }
    if (value instanceof String) {
      return "a string";
    }
    return value == null ? "null" : value.toString(); // true, false
  }

  private static void checkKeys(JsonMap map, String where, List<String> keys) {
    if (!map.duplicates.isEmpty()) {
      throw problem(where + "has the key '" + shown(map.duplicates.get(0)) + "' twice" + REPAIR);
    }
    for (String key : map.members.keySet()) {
      if (!keys.contains(key)) {
        throw problem(where + "has an unknown key '" + shown(key) + "'" + REPAIR);
      }
    }
    for (String key : keys) {
      if (!map.members.containsKey(key)) {
        throw problem(where + "has no '" + key + "'" + REPAIR);
      }
    }
  }

  private static List<BestCheckpointsListener.Entry> entries(
      Object data, String metric, String mode, String basename) {
    if (!(data instanceof JsonMap)) {
      throw problem("holds " + kind(data) + ", not an object of metric, mode and best" + REPAIR);
    }
    JsonMap top = (JsonMap) data;
    checkKeys(top, "", TOP_KEYS);
    for (String key : List.of("metric", "mode")) {
      if (!(top.members.get(key) instanceof String)) {
        throw problem("'" + key + "' is " + kind(top.members.get(key)) + ", not a string" + REPAIR);
      }
    }
    String theirMetric = (String) top.members.get("metric");
    String theirMode = (String) top.members.get("mode");
    if (!theirMetric.equals(metric) || !theirMode.equals(mode)) {
      throw problem(
          "ranks '"
              + shown(theirMetric)
              + "' ("
              + shown(theirMode)
              + "), not '"
              + metric
              + "' ("
              + mode
              + "); use another subdir");
    }
    Object best = top.members.get("best");
    if (!(best instanceof List)) {
      throw problem("'best' is " + kind(best) + ", not an array of entries" + REPAIR);
    }
    List<BestCheckpointsListener.Entry> entries = new ArrayList<>();
    Map<Long, Integer> where = new HashMap<>();
    List<?> list = (List<?>) best;
    for (int i = 0; i < list.size(); i++) {
      String at = "best[" + i + "]";
      if (!(list.get(i) instanceof JsonMap)) {
        throw problem(
            at
                + " is "
                + kind(list.get(i))
                + ", not an object of step, value and checkpoint"
                + REPAIR);
      }
      JsonMap entry = (JsonMap) list.get(i);
      checkKeys(entry, at + " ", ENTRY_KEYS);
      long step = step(entry.members.get("step"), at);
      double value = value(entry.members.get("value"), at);
      Object checkpoint = entry.members.get("checkpoint");
      if (!(checkpoint instanceof String)) {
        throw problem(at + ": checkpoint is " + kind(checkpoint) + ", not a string" + REPAIR);
      }
      String own = basename + "-" + step;
      if (!checkpoint.equals(own)) {
        throw problem(
            at
                + ": checkpoint '"
                + shown((String) checkpoint)
                + "' is not '"
                + own
                + "', step "
                + step
                + " of this listener's basename; use another subdir");
      }
      Integer earlier = where.putIfAbsent(step, i);
      if (earlier != null) {
        throw problem(
            at + ": step " + step + " is listed twice (also best[" + earlier + "])" + REPAIR);
      }
      entries.add(new BestCheckpointsListener.Entry(step, value));
    }
    return entries;
  }

  private static long step(Object value, String at) {
    String expected = "not a global step (an integer from 0 to " + Long.MAX_VALUE + ")";
    if (!(value instanceof JsonNumber)) {
      throw problem(at + ": step is " + kind(value) + ", " + expected + REPAIR);
    }
    String text = ((JsonNumber) value).text;
    // the literal's length first, as Python's twin (which refuses to parse huge integers)
    if (!STEP.matcher(text).matches()
        || text.length() > MAX_STEP.toString().length()
        || new BigInteger(text).signum() < 0
        || new BigInteger(text).compareTo(MAX_STEP) > 0) {
      throw problem(at + ": step " + shown(text) + " is " + expected + REPAIR);
    }
    return Long.parseLong(text);
  }

  private static double value(Object value, String at) {
    if (!(value instanceof JsonNumber)) {
      throw problem(at + ": value is " + kind(value) + ", not a number" + REPAIR);
    }
    String text = ((JsonNumber) value).text;
    double number = Double.parseDouble(text); // beyond the doubles: infinite, as Python's float()
    if (!Double.isFinite(number)) {
      throw problem(at + ": value " + shown(text) + " is not a finite number" + REPAIR);
    }
    return number;
  }
}
