package org.jhooks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Names of a built model's endpoints in the graph (seed 000): loss, train op, global step, and any
 * others the driver knows. Immutable; drivers hand one instance to every {@link ModelDependentHook}
 * before {@code beginSession()}.
 */
public final class ModelInstance {
  public static final String LOSS = "loss";
  public static final String TRAIN_OP = "trainOp";
  public static final String GLOBAL_STEP = "globalStep";

  private final Map<String, String> endpoints;

  /**
   * @param endpoints endpoint key to tensor or op name; must contain no null names
   */
  public ModelInstance(Map<String, String> endpoints) {
    for (Map.Entry<String, String> e : endpoints.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        throw new IllegalArgumentException("ModelInstance endpoint with a null key or name: " + e);
      }
    }
    this.endpoints = Collections.unmodifiableMap(new LinkedHashMap<>(endpoints));
  }

  /** A model with the three standard endpoints. */
  public static ModelInstance of(String loss, String trainOp, String globalStep) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(LOSS, loss);
    m.put(TRAIN_OP, trainOp);
    m.put(GLOBAL_STEP, globalStep);
    return new ModelInstance(m);
  }

  /** The loss tensor name, for example {@code "loss:0"}, or null. */
  public String loss() {
    return endpoints.get(LOSS);
  }

  /** The train op name, or null. */
  public String trainOp() {
    return endpoints.get(TRAIN_OP);
  }

  /** The global step tensor name, for example {@code "global_step:0"}, or null. */
  public String globalStep() {
    return endpoints.get(GLOBAL_STEP);
  }

  /**
   * @throws IllegalArgumentException the model has no such endpoint
   */
  public String endpoint(String key) {
    String name = endpoints.get(key);
    if (name == null) {
      throw new IllegalArgumentException(
          "ModelInstance has no endpoint '" + key + "'; it has " + endpoints.keySet());
    }
    return name;
  }

  public Map<String, String> endpoints() {
    return endpoints;
  }

  @Override
  public String toString() {
    return "ModelInstance" + endpoints;
  }
}
