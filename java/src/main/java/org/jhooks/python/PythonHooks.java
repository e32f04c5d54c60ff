package org.jhooks.python;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;

/**
 * Python hooks for a JVM application started by the jhooks launcher:
 *
 * <pre>
 *   python -m jhooks java [--classpath CP] MAIN_CLASS --hook my.module:LossPrinter -- APP_ARGS...
 * </pre>
 *
 * <p>The launcher runs {@code MAIN_CLASS.main} in the Python process and installs a {@link Loader};
 * the app then asks for the hooks given on the command line with {@link #fromCommandLine()} or
 * loads one by name with {@link #load}. Each is a Python object behind a Java proxy; its exceptions
 * arrive as {@code org.jhooks.bridge.PythonException}. In a JVM not started by the launcher every
 * method throws {@link IllegalStateException} saying how to start the app. See docs/bridge.md,
 * "Launcher".
 */
public final class PythonHooks {
  private PythonHooks() {}

  static final String HOW_TO_START =
      "Python hooks are available only in a JVM started by the jhooks launcher: run the app with"
          + " 'python -m jhooks java [--classpath CP] MAIN_CLASS --hook module:Class ... --"
          + " APP_ARGS'";

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

  /** Whether a launcher installed a loader (the app runs under {@code python -m jhooks java}). */
  public static boolean available() {
    return loader != null;
  }

  /**
   * The hooks given with {@code --hook} on the launcher's command line, in order; empty when none.
   *
   * @throws IllegalStateException the JVM was not started by the launcher
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
   * @throws IllegalStateException the JVM was not started by the launcher
   * @throws org.jhooks.bridge.PythonException the spec names no hook class or factory (nothing was
   *     called; Python's {@code LauncherError}), or the import or the constructor failed
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
    if (l == null) {
      throw new IllegalStateException(HOW_TO_START);
    }
    return l;
  }
}
