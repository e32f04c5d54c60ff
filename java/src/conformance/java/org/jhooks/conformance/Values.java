package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.ndarray.DType;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;

/**
 * Scenario JSON to and from hook API values: fetch specs, fed tensors, recorded results. Twin of
 * Python's {@code jhooks.conformance.values}; recorded values are numbers ({@code "NaN"} for NaN),
 * nested arrays (row-major), null, and objects.
 */
public final class Values {
  static final String TUPLE = "$tuple";

  private Values() {}

  /**
   * A fetch spec as a jhooks fetch structure (String, List, Map).
   *
   * @throws IllegalArgumentException for {@code {"$tuple": ...}}, which only Python hooks use
   */
  public static Object fetchStructure(JsonElement spec) {
    if (spec.isJsonPrimitive()) {
      return spec.getAsString();
    }
    if (spec.isJsonArray()) {
      List<Object> out = new ArrayList<>();
      spec.getAsJsonArray().forEach(e -> out.add(fetchStructure(e)));
      return out;
    }
    JsonObject o = spec.getAsJsonObject();
    if (o.has(TUPLE)) {
      throw new IllegalArgumentException("a $tuple fetch is Python-only: " + spec);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    o.entrySet().forEach(e -> out.put(e.getKey(), fetchStructure(e.getValue())));
    return out;
  }

  /**
   * A tensor value spec ({@code dtype}, {@code shape}, row-major {@code values}) as a heap NdArray.
   */
  public static NdArray<?> tensorValue(JsonObject spec) {
    JsonArray dims = spec.getAsJsonArray("shape");
    long[] shape = new long[dims.size()];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = dims.get(i).getAsLong();
    }
    JsonArray values = spec.getAsJsonArray("values");
    DType dtype = DType.ofNumpy(spec.get("dtype").getAsString());
    if (dtype.isFloating()) {
      double[] v = new double[values.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = values.get(i).getAsDouble();
      }
      return dtype.cast(
          NdArrays.wrap(Shape.of(shape), DataBuffers.of(v, false, false)), DType.FLOAT64);
    }
    long[] v = new long[values.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = values.get(i).getAsLong();
    }
    return dtype.cast(NdArrays.wrap(Shape.of(shape), DataBuffers.of(v, false, false)), DType.INT64);
  }

  /** A feeds spec as tensor name to value, in the spec's order. */
  public static Map<String, NdArray<?>> feeds(JsonObject spec) {
    Map<String, NdArray<?>> out = new LinkedHashMap<>();
    if (spec != null) {
      spec.entrySet()
          .forEach(e -> out.put(e.getKey(), tensorValue(e.getValue().getAsJsonObject())));
    }
    return out;
  }

  /** A result structure (NdArray leaves, null for targets, List, Map) as recorded JSON. */
  public static JsonElement toJson(Object value) {
    if (value == null) {
      return JsonNull.INSTANCE;
    }
    if (value instanceof String) {
      return new JsonPrimitive((String) value);
    }
    if (value instanceof List) {
      JsonArray out = new JsonArray();
      ((List<?>) value).forEach(v -> out.add(toJson(v)));
      return out;
    }
    if (value instanceof Map) {
      JsonObject out = new JsonObject();
      ((Map<?, ?>) value).forEach((k, v) -> out.add(String.valueOf(k), toJson(v)));
      return out;
    }
    if (value instanceof NdArray) {
      NdArray<?> nd = (NdArray<?>) value;
      if (nd.rank() == 0) {
        return number(nd.getObject());
      }
      JsonArray out = new JsonArray();
      for (long i = 0; i < nd.shape().get(0); i++) {
        out.add(toJson(nd.get(i)));
      }
      return out;
    }
    return number(value);
  }

  private static JsonElement number(Object x) {
    if (x instanceof Boolean) {
      return new JsonPrimitive((Boolean) x);
    }
    if (x instanceof Float || x instanceof Double) {
      double d = ((Number) x).doubleValue();
      return Double.isNaN(d) ? new JsonPrimitive("NaN") : new JsonPrimitive(d);
    }
    if (x instanceof Number) {
      return new JsonPrimitive(((Number) x).longValue());
    }
    throw new IllegalArgumentException("cannot record a " + x.getClass().getName() + ": " + x);
  }

  /** A fetch structure of names as JSON, for recording original args. */
  public static JsonElement structureToJson(Object structure) {
    return toJson(structure);
  }
}
