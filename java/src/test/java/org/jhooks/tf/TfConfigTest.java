package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.tensorflow.proto.ConfigProto;

/**
 * TfConfig reads TF_CONFIG as TensorFlow's rules say, with the answers (or exact errors) of the
 * table {@code tests/distributed/tf_config_cases.json}, which {@code
 * tests/distributed/test_tf_config.py} checks for the Python twin.
 */
public class TfConfigTest {
  private static Path table() {
    return Path.of(System.getProperty("jhooks.repo", "."), "tests", "distributed")
        .resolve("tf_config_cases.json");
  }

  private static String textOf(JsonObject c) {
    JsonElement value = c.get("tfConfig");
    return value.isJsonPrimitive() && value.getAsJsonPrimitive().isString()
        ? value.getAsString()
        : value.toString();
  }

  private static Map<String, Object> answers(TfConfig cfg) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("jobs", cfg.cluster().jobs());
    out.put("taskType", cfg.taskType());
    out.put("taskIndex", cfg.taskIndex());
    out.put("isChief", cfg.isChief());
    out.put("isEvaluator", cfg.isEvaluator());
    out.put("master", cfg.master());
    out.put("deviceFilters", cfg.deviceFilters());
    return out;
  }

  private static Map<String, Object> expected(JsonObject e) {
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, List<String>> jobs = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> job : e.getAsJsonObject("jobs").entrySet()) {
      jobs.put(job.getKey(), strings(job.getValue()));
    }
    out.put("jobs", jobs);
    out.put("taskType", e.get("taskType").getAsString());
    out.put("taskIndex", e.get("taskIndex").getAsInt());
    out.put("isChief", e.get("isChief").getAsBoolean());
    out.put("isEvaluator", e.get("isEvaluator").getAsBoolean());
    out.put("master", e.get("master").getAsString());
    out.put("deviceFilters", strings(e.get("deviceFilters")));
    return out;
  }

  private static List<String> strings(JsonElement array) {
    List<String> out = new ArrayList<>();
    array.getAsJsonArray().forEach(s -> out.add(s.getAsString()));
    return out;
  }

  @Test
  public void theSharedTableGivesTheSameAnswersAndErrors() throws IOException {
    String json = Files.readString(table(), StandardCharsets.UTF_8);
    int checked = 0;
    for (JsonElement element :
        JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("cases")) {
      JsonObject c = element.getAsJsonObject();
      String name = c.get("name").getAsString();
      String text = textOf(c);
      if (c.has("expect")) {
        assertEquals(name, expected(c.getAsJsonObject("expect")), answers(TfConfig.parse(text)));
      } else {
        IllegalArgumentException e =
            assertThrows(name, IllegalArgumentException.class, () -> TfConfig.parse(text));
        if (c.has("error")) {
          assertEquals(name, c.get("error").getAsString(), e.getMessage());
        } else {
          String start = c.get("errorStartsWith").getAsString();
          assertTrue(name + ": " + e.getMessage(), e.getMessage().startsWith(start));
        }
      }
      checked++;
    }
    assertTrue(checked >= 30);
  }

  @Test
  public void fromEnvReadsTfConfigAndUnsetIsLocal() {
    TfConfig cfg =
        TfConfig.fromEnv(
            Map.of(
                "TF_CONFIG",
                "{\"cluster\": {\"worker\": [\"w:1\", \"w:2\"]}, \"task\": {\"type\": \"worker\","
                    + " \"index\": 1}}"));
    assertEquals("worker", cfg.taskType());
    assertEquals(1, cfg.taskIndex());
    assertEquals(false, cfg.isChief());
    TfConfig local = TfConfig.fromEnv(Map.of());
    assertTrue(local.isChief());
    assertEquals("", local.master());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, local::server);
    assertTrue(e.getMessage(), e.getMessage().contains("has no server"));
  }

  @Test
  public void sessionConfigAddsTheTaskFiltersToABase() {
    Map<String, List<String>> jobs = new LinkedHashMap<>();
    jobs.put("chief", List.of("c:1"));
    jobs.put("ps", List.of("p:1"));
    Cluster cluster = Cluster.of(jobs);
    ConfigProto base =
        ConfigProto.newBuilder().setOperationTimeoutInMs(5).addDeviceFilters("/job:other").build();
    ConfigProto config = TfConfig.of(cluster, "chief", 0).sessionConfig(base);
    assertEquals(List.of("/job:ps", "/job:chief/task:0"), config.getDeviceFiltersList());
    assertEquals(5, config.getOperationTimeoutInMs());
    assertEquals(
        List.of("/job:other"),
        TfConfig.of(cluster, "evaluator", 0).sessionConfig(base).getDeviceFiltersList());
  }

  @Test
  public void theEvaluatorDoesNotTrain() {
    Map<String, List<String>> jobs = new LinkedHashMap<>();
    jobs.put("chief", List.of("c:1"));
    TfConfig evaluator = TfConfig.of(Cluster.of(jobs), "evaluator", 0);
    try (org.tensorflow.Graph g = new org.tensorflow.Graph()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> MonitoredTrainingSession.builder(g).tfConfig(evaluator));
      assertTrue(e.getMessage(), e.getMessage().contains("the evaluator does not train"));
    }
  }
}
