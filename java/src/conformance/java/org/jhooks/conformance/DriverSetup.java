package org.jhooks.conformance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jhooks.Hook;
import org.jhooks.ModelInstance;
import org.jhooks.tf.SessionCreator;
import org.tensorflow.Graph;

/**
 * What a {@link ConformanceDriver} gets for one scenario: the graph with the model recipe built,
 * its model instance (for {@code ModelDependentHook}s), the role, the hooks and the session
 * creator. Twin of {@code jhooks.conformance.driver.DriverSetup}.
 */
public final class DriverSetup {
  private final Graph graph;
  private final ModelInstance modelInstance;
  private final boolean isChief;
  private final List<Hook> chiefOnlyHooks;
  private final List<Hook> hooks;
  private final Path checkpointDir;
  private final SessionCreator sessionCreator;

  DriverSetup(
      Graph graph,
      ModelInstance modelInstance,
      boolean isChief,
      List<Hook> chiefOnlyHooks,
      List<Hook> hooks,
      Path checkpointDir,
      SessionCreator sessionCreator) {
    this.graph = graph;
    this.modelInstance = modelInstance;
    this.isChief = isChief;
    this.chiefOnlyHooks = List.copyOf(chiefOnlyHooks);
    this.hooks = List.copyOf(hooks);
    this.checkpointDir = checkpointDir;
    this.sessionCreator = sessionCreator;
  }

  /** The graph {@link ConformanceDriver#buildModel} built. */
  public Graph graph() {
    return graph;
  }

  /** The model instance {@link ConformanceDriver#buildModel} returned. */
  public ModelInstance modelInstance() {
    return modelInstance;
  }

  /** The scenario's role ({@code driver.isChief}, default true). */
  public boolean isChief() {
    return isChief;
  }

  /** The chief-only hooks, in registration order (run first on the chief, left out otherwise). */
  public List<Hook> chiefOnlyHooks() {
    return chiefOnlyHooks;
  }

  /** The other hooks, in registration order; a user's hook under test is last. */
  public List<Hook> hooks() {
    return hooks;
  }

  /**
   * The hooks the session must run, in order: on the chief the chief-only hooks then the others (as
   * {@code MonitoredTrainingSession} with built-in hooks off), on a non-chief the others.
   */
  public List<Hook> allHooks() {
    List<Hook> all = new ArrayList<>(isChief ? chiefOnlyHooks : List.of());
    all.addAll(hooks);
    return all;
  }

  /** The scenario's checkpoint dir (fresh, empty at the start), or null when it has none. */
  public Path checkpointDir() {
    return checkpointDir;
  }

  /**
   * The session creator to use: the suite's ({@code CheckpointRestoringSessionCreator} of the
   * checkpoint dir, or a user's), wrapped so that the scenario's recovery faults happen. A driver
   * that creates sessions another way cannot pass the recovery scenarios.
   */
  public SessionCreator sessionCreator() {
    return sessionCreator;
  }
}
