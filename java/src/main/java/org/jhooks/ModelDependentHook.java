package org.jhooks;

/**
 * A hook that needs the built model (seed 000). The driver sets {@link #modelInstance()} once the
 * model graph is built, before {@code beginSession()}; it never changes afterwards, also not when
 * the session is recovered.
 */
public abstract class ModelDependentHook implements Hook {
  private volatile ModelInstance modelInstance;

  /** The model, or {@code null} before the driver set it. */
  public final ModelInstance modelInstance() {
    return modelInstance;
  }

  /**
   * Called by drivers. Setting the same instance again is a no-op.
   *
   * @throws IllegalStateException a different instance was set before
   */
  public final synchronized void setModelInstance(ModelInstance instance) {
    if (instance == null) {
      throw new IllegalArgumentException(
          getClass().getName() + ".setModelInstance: null ModelInstance");
    }
    if (modelInstance != null && modelInstance != instance) {
      throw new IllegalStateException(
          getClass().getName()
              + ".setModelInstance: already set to "
              + modelInstance
              + "; refusing "
              + instance);
    }
    modelInstance = instance;
  }
}
