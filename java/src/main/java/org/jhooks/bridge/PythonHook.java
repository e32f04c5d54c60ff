package org.jhooks.bridge;

import org.jhooks.Coordinator;
import org.jhooks.Described;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * A Python {@code jhooks.Hook} on the JVM: every callback goes to the Python hook's proxy, and
 * {@link #toString()} names the Python class (a proxy's own class name says nothing). Its
 * exceptions are {@link PythonException}s. Made by {@code jhooks.bridge.as_java_hook}.
 */
public final class PythonHook implements Hook, Described {
  private final Hook delegate;
  private final String pythonName;

  /**
   * @param delegate the proxy of the Python hook
   * @param pythonName the hook's {@code module.Class}
   */
  public PythonHook(Hook delegate, String pythonName) {
    this.delegate = delegate;
    this.pythonName = pythonName;
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
