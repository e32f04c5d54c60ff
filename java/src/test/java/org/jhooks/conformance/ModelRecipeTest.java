package org.jhooks.conformance;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.google.gson.JsonParser;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.exceptions.TFInvalidArgumentException;
import org.tensorflow.exceptions.TFOutOfRangeException;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;

/**
 * The Java model recipe builds the documented names with the documented per-run values (real
 * tensorflow-java).
 */
public class ModelRecipeTest {
  private static Graph build(String recipe) {
    Graph g = new Graph();
    ModelRecipe.build(g, JsonParser.parseString(recipe).getAsJsonObject());
    return g;
  }

  @Test
  public void namesAndVariableKinds() {
    try (Graph g =
        build(
            "{\"input\": {\"values\": [1.0]}, \"failAtStep\": 3, \"placeholders\": [{\"name\":"
                + " \"x\", \"dtype\": \"int32\", \"shape\": []}]}")) {
      for (String[] nameType :
          new String[][] {
            {"global_step", "VariableV2"},
            {"counter", "VariableV2"},
            {"train", "AssignAdd"},
            {"input_next", "IteratorGetNext"},
            {"fail_at", "Assert"},
            {"x", "Placeholder"},
            {"x_doubled", "Add"},
            {"global_step_read", "Add"},
            {"counter_read", "Add"},
            {"loss", "Identity"}
          }) {
        assertEquals(nameType[0], nameType[1], g.operationOrThrow(nameType[0]).type());
      }
    }
  }

  @Test
  public void readsSeeValuesBeforeTheIncrementAndInputEnds() {
    try (Graph g = build("{\"counterIncrement\": 0.5, \"input\": {\"values\": [10.0, 20.0]}}");
        Session s = new Session(g)) {
      for (int run = 0; run < 2; run++) {
        try (Result r =
            s.runner()
                .fetch("global_step_read:0")
                .fetch("counter_read:0")
                .fetch("input_next:0")
                .addTarget("train")
                .run()) {
          assertEquals(run, ((TInt64) r.get(0)).getLong());
          assertEquals(0.5f * run, ((TFloat32) r.get(1)).getFloat(), 0f);
          assertEquals(10f * (run + 1), ((TFloat32) r.get(2)).getFloat(), 0f);
        }
      }
      try {
        s.runner().addTarget("train").run();
        fail("the input did not end");
      } catch (TFOutOfRangeException expected) {
        // end of input
      }
      try (Result r = s.runner().fetch("global_step:0").run()) {
        assertEquals(2L, ((TInt64) r.get(0)).getLong());
      }
    }
  }

  @Test
  public void failAtStepAndNanLoss() {
    try (Graph g = build("{\"failAtStep\": 2, \"nanLossAtStep\": 1}");
        Session s = new Session(g)) {
      try (Result r = s.runner().fetch("loss:0").addTarget("train").run()) {
        assertTrue(Float.isNaN(((TFloat32) r.get(0)).getFloat()));
      }
      try {
        s.runner().addTarget("train").run();
        fail("fail_at did not fail");
      } catch (TFInvalidArgumentException expected) {
        assertTrue(expected.getMessage(), expected.getMessage().contains("fail_at step 2"));
      }
    }
  }

  @Test
  public void checkpointSavesBothVariables() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("recipe");
    try (Graph g = build("{}");
        Session s = new Session(g)) {
      s.runner().addTarget("train").run();
      s.save(dir.resolve("model.ckpt-1").toString());
      assertTrue(java.nio.file.Files.exists(dir.resolve("model.ckpt-1.index")));
    }
  }
}
