package org.jhooks.python;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.bridge.EmbeddedPython;

/**
 * Python hooks for a JVM application, in either of two set-ups (docs/bridge.md, "Backends"):
 *
 * <ul>
 *   <li>started by the jhooks launcher (Python hosts the process, JPype backend):
 *       <pre>
 *   python -m jhooks java [--classpath CP] MAIN_CLASS --hook my.module:LossPrinter -- APP_ARGS...
 * </pre>
 *       The launcher runs {@code MAIN_CLASS.main} in the Python process and installs a {@link
 *       Loader}; the app asks for the hooks given on the command line with {@link
 *       #fromCommandLine()} or loads one by name with {@link #load}.
 *   <li>started by plain {@code java} (or Gradle {@code run}, a container entry point) with the jep
 *       jar of a Python environment on its classpath (jep backend): the first {@link #load} starts
 *       CPython inside the JVM ({@link org.jhooks.bridge.EmbeddedPython}), checks that the JVM was
 *       started with the options that let Python's TensorFlow and tensorflow-java share one runtime
 *       (its error lists the missing {@code -D} flags), and loads the hook; {@link
 *       #fromCommandLine()} is empty.
 * </ul>
 *
 * <p>Each hook is a Python object behind a Java proxy, callable from any Java thread; its
 * exceptions arrive as {@code org.jhooks.bridge.PythonException} (or the jhooks twin, e.g. {@code
 * HookException}). Without the launcher and without jep every method but {@link #available()}
 * throws {@link IllegalStateException} saying how to start the app.
 */
public final class PythonHooks {
  private PythonHooks() {}

  static final String HOW_TO_START =
      "Python hooks need the jhooks launcher or jep: run the app with"
          + " 'python -m jhooks java [--classpath CP] MAIN_CLASS --hook module:Class ... --"
          + " APP_ARGS', or start it with plain java and "
          + EmbeddedPython.HOW_TO_GET_JEP;

  /** What the launcher installs: makes Python objects and hands them out as Java proxies. */
  public interface Loader {
    /** The hooks named by {@code --hook} on the command line, in order. */
    List<Hook> commandLineHooks();

    /** Instantiates {@code module:Class} with {@code args} (Java strings and numbers) as a Hook. */
    Hook loadHook(String spec, Object[] args);

    /** Instantiates {@code module:Class} with {@code args} as a CheckpointSaverListener. */
    CheckpointSaverListener loadListener(String spec, Object[] args);
  }

  private static volatile Loader loader;

  /** Called by the launcher; replaces any loader installed before. */
  public static void install(Loader newLoader) {
    loader = newLoader;
  }

  /**
   * Whether Python hooks can be loaded: a launcher installed a loader (the app runs under {@code
   * python -m jhooks java}), or jep is on the classpath of a JVM Python does not host.
   */
  public static boolean available() {
    return loader != null || (EmbeddedPython.jepAvailable() && !pythonHosts());
  }

  /**
   * The hooks given with {@code --hook} on the launcher's command line, in order; empty when none.
   *
   * @throws IllegalStateException the JVM was not started by the launcher, and jep is not on the
   *     classpath
   */
  public static List<Hook> fromCommandLine() {
    return Collections.unmodifiableList(new ArrayList<>(loader().commandLineHooks()));
  }

  /**
   * A new Python hook: {@code spec} is {@code "package.module:ClassName"}, {@code args} go to its
   * constructor. The spec names Python code that is imported and run: take it only from a trusted
   * source. Before calling anything the launcher checks that the target is a {@code jhooks.Hook}
   * subclass or a factory annotated to return one ({@code def make(...) -> MyHook}), and refuses
   * anything else ({@code "os:system"}) without calling it.
   *
   * @throws IllegalStateException the JVM was not started by the launcher, and jep is not on the
   *     classpath
   * @throws org.jhooks.bridge.PythonException the spec names no hook class or factory (nothing was
   *     called; Python's {@code LauncherError}), or the import or the constructor failed; on the
   *     jep backend also when the JVM lacks the shared-runtime options (Python's {@code JvmError},
   *     naming the flags to add)
   */
  public static Hook load(String spec, Object... args) {
    return loader().loadHook(spec, args);
  }

  /**
   * A new Python CheckpointSaverListener, as {@link #load}: the target must be a {@code
   * jhooks.CheckpointSaverListener} subclass or a factory annotated to return one.
   */
  public static CheckpointSaverListener loadListener(String spec, Object... args) {
    return loader().loadListener(spec, args);
  }

  private static Loader loader() {
    Loader l = loader;
    if (l == null && EmbeddedPython.jepAvailable() && !pythonHosts()) {
      EmbeddedPython.start(); // installs the loader, or throws saying why not
      l = loader;
    }
    if (l == null) {
      throw new IllegalStateException(HOW_TO_START);
    }
    return l;
  }

  /** Whether JPype started this JVM (Python hosts it): then only the launcher's loader applies. */
  private static boolean pythonHosts() {
    try {
      Class.forName("org.jpype.JPypeContext", false, PythonHooks.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
