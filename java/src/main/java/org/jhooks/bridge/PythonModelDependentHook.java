package org.jhooks.bridge;

import java.util.function.Consumer;
import org.jhooks.Coordinator;
import org.jhooks.Described;
import org.jhooks.ModelDependentHook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * A Python {@code jhooks.ModelDependentHook} on the JVM: a {@link ModelDependentHook} that
 * delegates every callback to the Python hook's proxy (a proxy can implement interfaces only, not
 * extend this abstract class). The model instance the driver sets is handed to {@code onModel}
 * just before {@code beginSession()}, which the contract says comes after the driver set it.
 * Made by {@code jhooks.bridge.as_java_hook}. Callbacks it does not override do not cross, as in
 * {@link PythonHook}.
 */
public final class PythonModelDependentHook extends ModelDependentHook implements Described {
  private final PythonHookTarget delegate;
  private final String pythonName;
  private final Consumer<org.jhooks.ModelInstance> onModel;
  private final boolean callsBefore;
  private final boolean callsAfter;

  /**
   * @param delegate the proxy of the Python hook
   * @param pythonName the hook's {@code module.Class}
   * @param onModel receives the model instance before {@code beginSession()}
   * @param callsBefore whether the Python hook overrides {@code beforeSessionRun}
   * @param callsAfter whether the Python hook overrides {@code afterSessionRun}
   */
  public PythonModelDependentHook(PythonHookTarget delegate, String pythonName,
      Consumer<org.jhooks.ModelInstance> onModel, boolean callsBefore, boolean callsAfter) {
    this.delegate = delegate;
    this.pythonName = pythonName;
    this.onModel = onModel;
    this.callsBefore = callsBefore;
    this.callsAfter = callsAfter;
  }

  /** The Python hook's {@code module.Class}. */
  public String pythonName() {
    return pythonName;
  }

  /** The proxy callbacks go to. */
  public PythonHookTarget delegate() {
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
    return callsBefore ? RunContextIds.before(delegate, runContext) : null;
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    if (callsAfter) {
      RunContextIds.after(delegate, runContext, runValues);
    }
  }

  @Override
  public void end(Session session) {
    delegate.end(session);
  }

  /** {@code module.Class, Python}: how driver messages name this hook. */
  @Override
  public String describe() {
    return pythonName + ", Python";
  }

  @Override
  public String toString() {
    return pythonName + " (Python)";
  }
}
