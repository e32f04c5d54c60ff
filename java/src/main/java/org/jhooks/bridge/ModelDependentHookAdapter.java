package org.jhooks.bridge;

import java.util.function.Consumer;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.ModelDependentHook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * A {@link ModelDependentHook} that delegates every callback to another hook (a Python hook's
 * proxy: a proxy can implement interfaces only, not extend this abstract class). The model
 * instance the driver sets is handed to {@code onModel} once, just before {@code beginSession()},
 * which the contract says comes after the driver set it.
 */
public final class ModelDependentHookAdapter extends ModelDependentHook {
  private final Hook delegate;
  private final Consumer<org.jhooks.ModelInstance> onModel;

  public ModelDependentHookAdapter(Hook delegate, Consumer<org.jhooks.ModelInstance> onModel) {
    this.delegate = delegate;
    this.onModel = onModel;
  }

  /** The hook callbacks go to. */
  public Hook delegate() {
    return delegate;
  }

  @Override
  public void begin() {
    delegate.begin();
  }

  @Override
  public void beginSession() {
    if (modelInstance() != null) {
      onModel.accept(modelInstance());
    }
    delegate.beginSession();
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    delegate.afterCreateSession(session, coord);
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return delegate.beforeSessionRun(runContext);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    delegate.afterSessionRun(runContext, runValues);
  }

  @Override
  public void end(Session session) {
    delegate.end(session);
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
