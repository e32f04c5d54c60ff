package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.jhooks.ModelInstance;
import org.jhooks.ndarray.DType;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.internal.types.registry.TensorTypeRegistry;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.core.Variable;
import org.tensorflow.op.data.Iterator;
import org.tensorflow.op.data.TensorSliceDataset;
import org.tensorflow.op.math.Add;
import org.tensorflow.proto.DataType;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.family.TNumber;
import org.tensorflow.types.family.TType;

/**
 * Builds a scenario's model recipe into a tensorflow-java graph with the same names as Python's
 * {@code jhooks.conformance.model_python}: {@code global_step} (int64 VariableV2, +1 per train
 * run), {@code counter} (float32 VariableV2, +counterIncrement), {@code global_step_read:0} and
 * {@code counter_read:0} (copies taken before the increment; train waits for them), {@code loss:0},
 * {@code input_next:0}, {@code fail_at}, {@code <p>:0} and {@code <p>_doubled:0}, and {@code
 * train}. The input iterator is made in the init scope, so every new session starts the input over.
 * No optimizer is used, so the global step's creation order does not matter.
 */
public final class ModelRecipe {
  private ModelRecipe() {}

  /** The endpoints every recipe has. */
  public static ModelInstance modelInstance() {
    return ModelInstance.of("loss:0", "train", "global_step:0");
  }

  /**
   * Adds the recipe (a scenario's {@code model} object) to {@code graph}.
   *
   * @return the model's endpoints
   */
  public static ModelInstance build(Graph graph, JsonObject recipe) {
    Ops tf = Ops.create(graph);
    Variable<TInt64> globalStep = tf.withName("global_step").variable(tf.constant(0L));
    Variable<TFloat32> counter = tf.withName("counter").variable(tf.constant(0f));
    Add<TInt64> stepRead = tf.withName("global_step_read").math.add(globalStep, tf.constant(0L));
    Add<TFloat32> counterRead = tf.withName("counter_read").math.add(counter, tf.constant(0f));
    if (recipe.has("nanLossAtStep")) {
      Operand<?> nanStep =
          tf.math.equal(stepRead, tf.constant(recipe.get("nanLossAtStep").getAsLong() - 1));
      tf.withName("loss")
          .select(
              nanStep.asOutput().expect(org.tensorflow.types.TBool.class),
              tf.constant(Float.NaN),
              counterRead);
    } else {
      tf.withName("loss").identity(counterRead);
    }
    List<Op> needed = new ArrayList<>();
    needed.add(stepRead);
    needed.add(counterRead);
    if (recipe.has("placeholders")) {
      for (JsonElement e : recipe.getAsJsonArray("placeholders")) {
        JsonObject p = e.getAsJsonObject();
        Op doubled = placeholder(tf, p);
        if (p.has("requiredByTrain") && p.get("requiredByTrain").getAsBoolean()) {
          needed.add(doubled);
        }
      }
    }
    if (recipe.has("input")) {
      needed.add(input(tf, recipe.getAsJsonObject("input").getAsJsonArray("values")));
    }
    if (recipe.has("failAtStep")) {
      long k = recipe.get("failAtStep").getAsLong();
      Operand<org.tensorflow.types.TBool> ok = tf.math.notEqual(stepRead, tf.constant(k - 1));
      needed.add(tf.withName("fail_at").assertThat(ok, List.of(tf.constant("fail_at step " + k))));
    }
    float increment =
        recipe.has("counterIncrement") ? recipe.get("counterIncrement").getAsFloat() : 1f;
    Op update =
        tf.withControlDependencies(needed)
            .withName("counter_update")
            .assignAdd(counter, tf.constant(increment));
    tf.withControlDependencies(List.of(update))
        .withName("train")
        .assignAdd(globalStep, tf.constant(1L));
    return modelInstance();
  }

  private static Op placeholder(Ops tf, JsonObject p) {
    String name = p.get("name").getAsString();
    JsonArray dims = p.getAsJsonArray("shape");
    long[] shape = new long[dims.size()];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = dims.get(i).getAsLong();
    }
    DType dtype = DType.ofNumpy(p.get("dtype").getAsString());
    if (!dtype.isNumeric()) {
      throw new IllegalArgumentException(
          "placeholder '" + name + "': unsupported dtype '" + dtype + "'");
    }
    @SuppressWarnings("unchecked")
    Class<? extends TNumber> type =
        (Class<? extends TNumber>)
            (Class<?>) TensorTypeRegistry.find(DataType.forNumber(dtype.tensorFlowCode())).type();
    return doubled(
        tf, name, tf.withName(name).placeholder(type, Placeholder.shape(Shape.of(shape))));
  }

  private static <T extends TNumber> Add<T> doubled(Ops tf, String name, Operand<T> p) {
    return tf.withName(name + "_doubled").math.add(p, p);
  }

  private static Op input(Ops tf, JsonArray values) {
    float[] elements = new float[values.size()];
    for (int i = 0; i < elements.length; i++) {
      elements[i] = values.get(i).getAsFloat();
    }
    Ops init = tf.withInitScope();
    List<Class<? extends TType>> types = List.of(TFloat32.class);
    List<Shape> shapes = List.of(Shape.scalar());
    TensorSliceDataset dataset =
        init.data.tensorSliceDataset(List.of(init.constant(elements)), shapes);
    Iterator iterator = init.withName("input_iterator").data.iterator("", "", types, shapes);
    init.data.makeIterator(dataset, iterator);
    return tf.withName("input_next").data.iteratorGetNext(iterator, types, shapes);
  }
}
