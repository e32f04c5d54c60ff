package org.jhooks.conformance;

import com.google.gson.JsonObject;
import org.jhooks.ModelInstance;
import org.tensorflow.Graph;

/**
 * A driver the conformance suite checks: whatever creates a TensorFlow session with jhooks hooks
 * and runs a caller's loop in it (a Kotlin or Scala wrapper, an adapter into another training
 * loop). For each scenario the suite makes the hooks (scripted and standard hooks recording into
 * one trace, the user's hook last), calls {@link #buildModel} in a fresh {@link Graph}, then {@link
 * #run}, and judges the {@link DriverOutcome} with the traces and checkpoints. {@link
 * MonitoredTrainingSessionDriver}, the JVM driver, is one implementation. Twin of {@code
 * jhooks.conformance.driver.ConformanceDriver}; see docs/conformance.md, "Check your own driver".
 */
public interface ConformanceDriver {

  /**
   * The driver's name in case ids, {@code <scenario>[<name>-driver-java-hooks]}: {@code [a-z0-9]+}.
   */
  String name();

  /**
   * Whether the driver recovers from {@code AbortedError} by re-creating the session (as {@code
   * MonitoredSession} does); a driver that does not skips the scenarios that rest on recovery.
   */
  default boolean recovers() {
    return true;
  }

  /**
   * Builds the scenario's model recipe into {@code graph} (same node names on every driver, see
   * docs/conformance.md "Model recipe") and returns its model instance. The default builds {@link
   * ModelRecipe}; a driver that builds its models another way overrides it.
   */
  default ModelInstance buildModel(Graph graph, JsonObject recipe) {
    return ModelRecipe.build(graph, recipe);
  }

  /**
   * Creates the session with {@code setup}'s hooks (in {@link DriverSetup#allHooks()} order,
   * chief-only hooks left out on a non-chief), from {@link DriverSetup#sessionCreator()} (restore
   * the latest checkpoint of the checkpoint dir, else initialize; recovery faults injected), runs
   * the caller's loop ({@link Caller}) and reports what happened. It must not throw: an error of
   * the session (a hook's, TensorFlow's, a feed conflict) is {@link DriverOutcome#failed}.
   */
  DriverOutcome run(DriverSetup setup, Caller caller);
}
