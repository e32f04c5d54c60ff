package org.jhooks.tf;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerScope;
import org.tensorflow.Graph;
import org.tensorflow.Session;
import org.tensorflow.internal.c_api.TF_Graph;
import org.tensorflow.internal.c_api.TF_Session;
import org.tensorflow.internal.c_api.TF_SessionOptions;
import org.tensorflow.internal.c_api.TF_Status;
import org.tensorflow.internal.c_api.global.tensorflow;
import org.tensorflow.proto.ConfigProto;

/**
 * tensorflow-java sessions on a target, like Python's {@code tf.compat.v1.Session(target)}:
 * tensorflow-java's {@code Session} constructors take no target, so this sets one with the C API's
 * {@code TF_SetTarget} and wraps the result in a normal {@code org.tensorflow.Session} (its
 * package-private constructor, by reflection; runs and {@code close()} behave as usual).
 *
 * <p>Targets: {@code ""} or {@code null} (in-process, a plain {@code new Session(graph, config)})
 * and {@code grpc://host:port} (a TensorFlow server's master). TensorFlow registers no other
 * session factory, so {@code local} or a bare {@code host:port} fail here with a clear error rather
 * than in TensorFlow.
 */
public final class TargetSessions {
  private TargetSessions() {}

  /**
   * A new session on {@code graph} at {@code target} with {@code config} (or none). Connecting is
   * lazy: an unreachable server fails the first run, not this call.
   *
   * @throws IllegalArgumentException a target other than empty or {@code grpc://host:port}
   * @throws org.tensorflow.exceptions.TensorFlowException TensorFlow refused the options
   * @throws IllegalStateException tensorflow-java's session constructor could not be reached
   */
  @SuppressWarnings("try") // the scope frees the options and status when the try block ends
  public static Session open(Graph graph, String target, ConfigProto config) {
    if (target == null || target.isEmpty()) {
      return new Session(graph, config);
    }
    if (!target.matches("grpc://[^:/\\s]+:\\d+")) {
      throw new IllegalArgumentException(
          "session target '"
              + target
              + "': expected \"\" or grpc://host:port (TensorFlow has no other session factory)");
    }
    TF_Session handle;
    try (PointerScope scope = new PointerScope()) { // NOPMD: frees the pointers made in the block
      TF_Status status = TF_Status.newStatus();
      TF_SessionOptions options = TF_SessionOptions.newSessionOptions();
      tensorflow.TF_SetTarget(options, target);
      if (config != null) {
        BytePointer bytes = new BytePointer(config.toByteArray());
        tensorflow.TF_SetConfig(options, bytes, bytes.capacity(), status);
        status.throwExceptionIfNotOK();
      }
      handle = TF_Session.newSession(graphHandle(graph), options, status);
      status.throwExceptionIfNotOK();
      handle.retainReference();
    }
    try {
      Constructor<Session> c = Session.class.getDeclaredConstructor(Graph.class, TF_Session.class);
      c.setAccessible(true);
      return c.newInstance(graph, handle);
    } catch (InvocationTargetException e) {
      handle.releaseReference();
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw new IllegalStateException("tensorflow-java's Session(Graph, TF_Session) failed", e);
    } catch (ReflectiveOperationException | RuntimeException e) {
      handle.releaseReference();
      throw new IllegalStateException(
          "cannot reach tensorflow-java's package-private Session(Graph, TF_Session) constructor"
              + " (is tensorflow-core-api on the module path? it must be on the class path)",
          e);
    }
  }

  /**
   * Marks the graph's initializers as run in {@code session} without running them: a non-chief's
   * session shares variables the chief initialized (tensorflow-java otherwise refuses every run of
   * a session whose graph has initializers it did not run).
   */
  static void markInitialized(Session session) {
    try {
      Method mark = Session.class.getDeclaredMethod("markAllInitializersAsRan");
      mark.setAccessible(true);
      mark.invoke(session);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw new IllegalStateException("Session.markAllInitializersAsRan failed", e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "cannot reach tensorflow-java's package-private Session.markAllInitializersAsRan", e);
    }
  }

  private static TF_Graph graphHandle(Graph graph) {
    try {
      Method ref = Graph.class.getDeclaredMethod("ref");
      ref.setAccessible(true);
      Object reference = ref.invoke(graph);
      Method handle = reference.getClass().getDeclaredMethod("nativeHandle");
      handle.setAccessible(true);
      // The reference only keeps the graph from closing while it is held; the session keeps its
      // own hold on the native graph (TF_NewSession), so it is released right away.
      try {
        return (TF_Graph) handle.invoke(reference);
      } finally {
        ((AutoCloseable) reference).close();
      }
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw new IllegalStateException("cannot read the graph's native handle", e.getCause());
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the graph's native handle", e);
    }
  }
}
