package org.jhooks.bridge;

import java.util.function.Consumer;
import org.jhooks.Coordinator;
import org.jhooks.Described;
import org.jhooks.ModelDependentHook;
import org.jhooks.ModelInstance;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.tf.HookBatch;

/**
 * A Python {@code jhooks.ModelDependentHook} on the JVM: a {@link ModelDependentHook} whose
 * callbacks go to a {@link PythonHook} (a proxy can implement interfaces only, not extend this
 * abstract class). The model instance the driver sets is handed to {@code onModel} just before
 * {@code beginSession()}, which the contract says comes after the driver set it. Made by {@code
 * jhooks.bridge.as_java_hook}.
 */
public final class PythonModelDependentHook extends ModelDependentHook
    implements Described, AutoCloseable, HookBatch.Batchable {
  private final PythonHook hook;
  private final Consumer<ModelInstance> onModel;

  /**
   * A Python ModelDependentHook, which may join consecutive Python hooks in a {@link
   * PythonHookGroup}.
   *
   * @param delegate the proxy of the Python hook
   * @param pythonName the hook's {@code module.Class}
   * @param onModel receives the model instance before {@code beginSession()}
   * @param callsBefore whether the Python hook overrides {@code beforeSessionRun}
   * @param callsAfter whether the Python hook overrides {@code afterSessionRun}
   * @param batches as for {@link PythonHook}
   * @param key as for {@link PythonHook}
   */
  public PythonModelDependentHook(
      PythonHookTarget delegate,
      String pythonName,
      Consumer<ModelInstance> onModel,
      boolean callsBefore,
      boolean callsAfter,
      PythonHookGroup.Factory batches,
      long key) {
    this.hook = new PythonHook(delegate, pythonName, callsBefore, callsAfter, batches, key);
    this.onModel = onModel;
  }

  /** The plain Python hook this one forwards to. */
  PythonHook hook() {
    return hook;
  }

  /**
   * The factory of the {@link PythonHookGroup} this hook may join, or {@code null}; a model
   * instance set on this hook still reaches the Python hook before its {@code beginSession()}.
   */
  @Override
  public HookBatch.Factory batchFactory() {
    return hook.batchFactory();
  }

  @Override
  public void begin() {
    hook.begin();
  }

  @Override
  public void beginSession() {
    if (modelInstance() != null) {
      onModel.accept(modelInstance());
    }
    hook.beginSession();
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    hook.afterCreateSession(session, coord);
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return hook.beforeSessionRun(runContext);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    hook.afterSessionRun(runContext, runValues);
  }

  @Override
  public void end(Session session) {
    hook.end(session);
  }

  @Override
  public void onError(Session session, Throwable error) {
    hook.onError(session, error);
  }

  @Override
  public void close() {
    hook.close();
  }

  @Override
  public String describe() {
    return hook.describe();
  }

  @Override
  public String toString() {
    return hook.toString();
  }
}
