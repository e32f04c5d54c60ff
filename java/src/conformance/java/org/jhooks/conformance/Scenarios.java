package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The conformance scenarios as classpath resources: {@code scenario-index.json}, {@code
 * scenarios/<name>.json} and {@code scenario.schema.json} (from {@code jhooks/conformance/data/},
 * shipped in the jar at the resource root). Twin of Python's {@code jhooks.conformance.scenarios}.
 */
public final class Scenarios {
  private Scenarios() {}

  private static JsonObject readObject(String resource) {
    return read(resource).getAsJsonObject();
  }

  private static com.google.gson.JsonElement read(String resource) {
    InputStream in = Scenarios.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalArgumentException(
          "no conformance resource '" + resource + "' on the classpath");
    }
    try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      return JsonParser.parseReader(r);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + resource, e);
    }
  }

  /** The scenario names, in index order. */
  public static List<String> names() {
    JsonArray index = read("scenario-index.json").getAsJsonArray();
    List<String> out = new ArrayList<>();
    index.forEach(e -> out.add(e.getAsString()));
    return out;
  }

  /**
   * @throws IllegalArgumentException there is no such scenario
   */
  public static JsonObject load(String name) {
    return readObject("scenarios/" + name + ".json");
  }

  /** The scenario JSON Schema (draft 2020-12); Java parses it but does not validate with it. */
  public static JsonObject schema() {
    return readObject("scenario.schema.json");
  }
}
