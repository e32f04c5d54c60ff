package org.jhooks.bridge;

import org.jhooks.Coordinator;
import org.jhooks.Described;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.tf.HookBatch;

/**
 * A Python {@code jhooks.Hook} on the JVM: every callback goes to the Python hook's proxy, and
 * {@link #toString()} names the Python class (a proxy's own class name says nothing). Its
 * exceptions are {@link PythonException}s. Made by {@code jhooks.bridge.as_java_hook}.
 *
 * <p>{@code beforeSessionRun}/{@code afterSessionRun} the Python hook does not override (detected
 * when it is wrapped) do not cross: they are the {@code jhooks.Hook} no-ops, so the result is the
 * same ({@code null}, nothing). The other callbacks always cross.
 */
public final class PythonHook implements Hook, Described, AutoCloseable, HookBatch.Batchable {
  private final PythonHookTarget delegate;
  private final String pythonName;
  private final boolean callsBefore;
  private final boolean callsAfter;
  private final PythonHookGroup.Factory batches;
  private final long key;

  /**
   * A Python hook, which may join consecutive Python hooks in a {@link PythonHookGroup}.
   *
   * @param delegate the proxy of the Python hook
   * @param pythonName the hook's {@code module.Class}
   * @param callsBefore whether the Python hook overrides {@code beforeSessionRun}
   * @param callsAfter whether the Python hook overrides {@code afterSessionRun}
   * @param batches the factory of the group its Python side makes, or {@code null} for none
   * @param key how that side finds the hook ({@link PythonHookGroup.Maker})
   */
  public PythonHook(
      PythonHookTarget delegate,
      String pythonName,
      boolean callsBefore,
      boolean callsAfter,
      PythonHookGroup.Factory batches,
      long key) {
    this.delegate = delegate;
    this.pythonName = pythonName;
    this.callsBefore = callsBefore;
    this.callsAfter = callsAfter;
    this.batches = batches;
    this.key = key;
  }

  /** The hook a {@link PythonHookGroup} member is ({@code hook} or the one it wraps). */
  static PythonHook of(Hook hook) {
    return hook instanceof PythonModelDependentHook
        ? ((PythonModelDependentHook) hook).hook()
        : (PythonHook) hook;
  }

  /** How the Python side of a {@link PythonHookGroup} finds this hook. */
  long key() {
    return key;
  }

  boolean callsBefore() {
    return callsBefore;
  }

  boolean callsAfter() {
    return callsAfter;
  }

  /** The factory of the {@link PythonHookGroup} this hook may join, or {@code null}. */
  @Override
  public HookBatch.Factory batchFactory() {
    return batches;
  }

  /** The Python hook's {@code module.Class}. */
  public String pythonName() {
    return pythonName;
  }

  @Override
  public void begin() {
    delegate.begin();
  }

  @Override
  public void beginSession() {
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

  @Override
  public void onError(Session session, Throwable error) {
    delegate.onError(session, error);
  }

  /**
   * Calls the Python hook's {@code close()} if it has one. The JVM driver closes AutoCloseable
   * hooks after an error, when {@code end()} is not called, so a Python saver's background failure
   * is not lost.
   */
  @Override
  public void close() {
    delegate.close();
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
