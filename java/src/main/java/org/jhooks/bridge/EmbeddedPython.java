package org.jhooks.bridge;

import java.io.File;
import java.lang.ref.Cleaner;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jhooks.tf.SessionExit;

/**
 * CPython embedded in a JVM that Java started (plain {@code java}, Gradle {@code run}, a container
 * entry point), through jep: the Java half of the bridge's jep backend ({@code
 * jhooks.bridge.backend.jep_backend} is the Python half). JPype remains the backend when Python
 * hosts the process ({@code python -m jhooks java}); see docs/bridge.md, "Backends".
 *
 * <p>{@link #start()} starts the interpreter once per process. The Python environment is the one
 * whose {@code jep} package holds the jep jar on the classpath: its {@code libjep.so} (the native
 * library built with that jar; a jar and a library of different jep builds crash the JVM) is loaded
 * from the jar's directory, and when that directory is inside a virtual environment the interpreter
 * runs as that environment's {@code bin/python}, so its site-packages (jhooks, numpy, TensorFlow,
 * the hook modules) are importable without {@code PYTHONPATH}. {@code -Djhooks.python=PATH} or the
 * environment variable {@code JHOOKS_PYTHON} name another Python executable of the environment.
 *
 * <p>Threads: jep lets a thread call Python only through an interpreter it opened itself, so each
 * Java thread that calls a Python object gets its own {@code jep.SharedInterpreter} (all share one
 * {@code sys.modules}, so one set of Python objects) on its first call; it is never closed (jep
 * closes an interpreter only on the thread that opened it). Python objects are handed to Java as
 * {@link #proxy proxies} holding a handle into a Python registry, so any Java thread, including a
 * checkpoint saver's writer thread, may call them.
 *
 * <p>jep is reached by reflection: the jhooks jar does not depend on it, and an app that never
 * loads Python hooks needs no jep.
 */
public final class EmbeddedPython {
  /** System property naming the Python executable of the environment to embed. */
  public static final String PYTHON_PROPERTY = "jhooks.python";

  /** Environment variable naming the Python executable, when the property is not set. */
  public static final String PYTHON_ENV = "JHOOKS_PYTHON";

  public static final String HOW_TO_GET_JEP =
      "put the jep jar of your Python environment on the classpath"
          + " (pip install 'jhooks[jep]', then -cp ...:<site-packages>/jep/jep-<version>.jar;"
          + " 'python -m jhooks jvm-options --jep-jar' prints it), never a jar from Maven Central";

  private static final String CALL = "_jhooks_call";
  private static final ThreadLocal<Object> INTERPRETER = new ThreadLocal<>();
  private static volatile boolean started;
  private static RuntimeException failure;
  private static Method invoke;
  // Handles of proxies the JVM collected: released in Python at the next call (from any thread).
  private static final Cleaner CLEANER = Cleaner.create();
  private static final ConcurrentLinkedQueue<Long> RELEASED = new ConcurrentLinkedQueue<>();

  private EmbeddedPython() {}

  /** Whether jep's jar is on the classpath (the embedded backend can start). */
  public static boolean jepAvailable() {
    return jepClass("jep.SharedInterpreter") != null;
  }

  /** Whether {@link #start()} ran: Python is embedded in this JVM. */
  public static boolean started() {
    return started;
  }

  /**
   * Starts the embedded interpreter once (later calls return at once) and runs {@code
   * jhooks.bridge.launcher.embedded.start()}: it checks the TensorFlow runtime rule and installs
   * the {@code PythonHooks} loader.
   *
   * @throws IllegalStateException jep's jar is not on the classpath (the message says how to get
   *     it)
   * @throws PythonException the Python side refused, e.g. {@code
   *     jhooks.bridge.process.errors.JvmError} when the JVM lacks the options that let Python's
   *     TensorFlow and tensorflow-java share one runtime (its message lists the exact {@code -D}
   *     flags); later calls throw the same exception again (what was refused cannot change while
   *     the JVM runs)
   */
  public static synchronized void start() {
    if (failure != null) {
      throw failure;
    }
    if (started) {
      return;
    }
    try {
      startOnce();
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    }
  }

  private static void startOnce() {
    Class<?> main = jepClass("jep.MainInterpreter");
    if (main == null) {
      throw new IllegalStateException("jep is not on the classpath: " + HOW_TO_GET_JEP);
    }
    try {
      Path jarDir = jarDirectory(main);
      Path library = jarDir == null ? null : jarDir.resolve("libjep.so");
      if (library != null && Files.isRegularFile(library)) {
        main.getMethod("setJepLibraryPath", String.class).invoke(null, library.toString());
      }
      String python = pythonExecutable(jarDir);
      if (python != null) {
        Class<?> config = main.getClassLoader().loadClass("jep.PyConfig");
        Object params = config.getConstructor().newInstance();
        config.getMethod("setProgramName", String.class).invoke(params, python);
        main.getMethod("setInitParams", config).invoke(null, params);
      }
      invoke =
          main.getClassLoader()
              .loadClass("jep.Interpreter")
              .getMethod("invoke", String.class, Object[].class);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("jep on the classpath is unusable: " + HOW_TO_GET_JEP, e);
    }
    interpreter(); // the first one also initializes CPython
    call(0L, "start");
    started = true;
    Runtime.getRuntime().addShutdownHook(new Thread(EmbeddedPython::atExit, "jhooks-python-exit"));
  }

  /**
   * How long the JVM's exit waits for Python's exit functions, after the sessions' {@code end()}
   * (within the 10 s a signalled exit may take, with {@link SessionExit}'s default 8 s).
   */
  private static final long EXIT_FUNCTIONS_MILLIS = 1500;

  /**
   * At the JVM's exit (a shutdown hook), once the open monitored sessions have ended ({@link
   * SessionExit#stopAndAwait}), runs Python's {@code atexit} functions, as Python's own exit would,
   * while every thread still runs; waits at most {@link #EXIT_FUNCTIONS_MILLIS}. The JVM never
   * finalizes the embedded interpreter, and some exit functions must run before the C library's
   * exit handlers: h5py's unregisters the HDF5 converters that HDF5's handler otherwise calls into
   * Python, taking the GIL, while the JVM holds the thread that has it at its exit safepoint (the
   * process hung on SIGTERM once a hook imported TensorFlow).
   */
  private static void atExit() {
    SessionExit.stopAndAwait(); // the hooks' end() first: Python hooks still run in it
    Thread exitFunctions =
        new Thread(
            () -> {
              try {
                call(0L, "at_exit");
              } catch (RuntimeException e) {
                System.err.println("jhooks: Python's exit functions failed: " + e);
              }
            },
            "jhooks-python-exit-functions");
    exitFunctions.setDaemon(true);
    exitFunctions.start();
    try {
      exitFunctions.join(EXIT_FUNCTIONS_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Calls {@code method(args)} on the Python object registered as {@code handle} (handle 0: the
   * entry module {@code jhooks.bridge.launcher.embedded}) on this thread's interpreter. A Python
   * exception arrives as the Java exception the Python side made of it ({@link PythonException}, or
   * the jhooks twin such as {@code HookException}); a Java exception that passed through Python is
   * rethrown unchanged.
   */
  public static Object call(long handle, String method, Object... args) {
    if (!RELEASED.isEmpty()) {
      releaseCollected();
    }
    Object[] all = new Object[args.length + 2];
    all[0] = handle;
    all[1] = method;
    System.arraycopy(args, 0, all, 2, args.length);
    try {
      return invoke.invoke(interpreter(), CALL, all);
    } catch (InvocationTargetException e) {
      throw rethrown(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Calls the Python function {@code module.function(args)} on this thread's interpreter, starting
   * it first if needed; its exceptions arrive as by {@link #call}. For Java code that runs Python
   * work it names itself, never for names from users (hooks from specs go through {@code
   * PythonHooks.load}, which checks them).
   */
  public static Object callFunction(String module, String function, Object... args) {
    start();
    Object[] all = new Object[args.length + 2];
    all[0] = module;
    all[1] = function;
    System.arraycopy(args, 0, all, 2, args.length);
    return call(0L, "call_function", all);
  }

  /**
   * A Java object implementing {@code iface} whose methods call the methods of the same name of the
   * Python object registered as {@code handle}, from any Java thread. {@code equals}/{@code
   * hashCode} are identity, {@code toString} is {@code description}. The Python object stays
   * registered (alive) until the JVM collects the proxy; it is then released at the next call.
   * Numbers Python returns are narrowed to the method's primitive return type.
   */
  public static <T> T proxy(Class<T> iface, long handle, String description) {
    InvocationHandler handler =
        (self, method, args) -> {
          switch (method.getName()) {
            case "equals":
              if (method.getParameterCount() == 1) {
                return self == args[0];
              }
              break;
            case "hashCode":
              if (method.getParameterCount() == 0) {
                return System.identityHashCode(self);
              }
              break;
            case "toString":
              if (method.getParameterCount() == 0) {
                return description;
              }
              break;
            default:
              break;
          }
          Object result = call(handle, method.getName(), args == null ? new Object[0] : args);
          return narrowed(result, method.getReturnType());
        };
    T proxy =
        iface.cast(Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[] {iface}, handler));
    CLEANER.register(proxy, () -> RELEASED.add(handle));
    return proxy;
  }

  /** {@link #proxy(Class, long, String)} of the interface named {@code iface}, for Python. */
  public static Object proxyOf(String iface, long handle, String description)
      throws ClassNotFoundException {
    return proxy(Class.forName(iface), handle, description);
  }

  private static void releaseCollected() {
    List<Long> handles = new ArrayList<>();
    for (Long h = RELEASED.poll(); h != null; h = RELEASED.poll()) {
      handles.add(h);
    }
    if (!handles.isEmpty()) {
      call(0L, "release", handles.stream().mapToLong(Long::longValue).toArray());
    }
  }

  /**
   * The binary names of the class of {@code value} and of its superclasses, nearest first: what
   * Python's {@code Class.getName()}/{@code getSuperclass()} walk gives on JPype (jep hands a
   * {@code java.lang.Class} to Python without those methods).
   */
  public static String[] classNames(Object value) {
    List<String> names = new ArrayList<>();
    for (Class<?> c = value.getClass(); c != null; c = c.getSuperclass()) {
      names.add(c.getName());
    }
    return names.toArray(new String[0]);
  }

  private static Object narrowed(Object result, Class<?> type) {
    if (!(result instanceof Number)) {
      return result;
    }
    Number n = (Number) result;
    if (type == int.class || type == Integer.class) {
      return n.intValue();
    }
    if (type == long.class || type == Long.class) {
      return n.longValue();
    }
    if (type == double.class || type == Double.class) {
      return n.doubleValue();
    }
    if (type == float.class || type == Float.class) {
      return n.floatValue();
    }
    return result;
  }

  /** jep's JepException carries what the Python side raised as its cause: throw that. */
  private static RuntimeException rethrown(Throwable thrown) {
    Throwable carried = thrown.getCause();
    if (thrown.getClass().getName().equals("jep.JepException") && carried != null) {
      EmbeddedPython.<RuntimeException>sneaky(carried);
    }
    if (thrown instanceof RuntimeException) {
      return (RuntimeException) thrown;
    }
    if (thrown instanceof Error) {
      throw (Error) thrown;
    }
    return new IllegalStateException(thrown);
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void sneaky(Throwable t) throws E {
    throw (E) t;
  }

  /** This thread's interpreter, opened (with the call helper imported) on its first use. */
  private static Object interpreter() {
    Object interp = INTERPRETER.get();
    if (interp != null) {
      return interp;
    }
    try {
      Class<?> shared = jepClass("jep.SharedInterpreter");
      if (shared == null) {
        throw new IllegalStateException("jep is not on the classpath: " + HOW_TO_GET_JEP);
      }
      interp = shared.getConstructor().newInstance();
      shared
          .getMethod("exec", String.class)
          .invoke(interp, "from jhooks.bridge.launcher.embedded import call as " + CALL);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          "cannot start Python in this JVM (jep): " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("jep on the classpath is unusable: " + HOW_TO_GET_JEP, e);
    }
    INTERPRETER.set(interp);
    return interp;
  }

  private static Class<?> jepClass(String name) {
    try {
      return Class.forName(name, false, EmbeddedPython.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /** The directory of the jar (or classes directory) {@code cls} was loaded from, or null. */
  private static Path jarDirectory(Class<?> cls) {
    try {
      var source = cls.getProtectionDomain().getCodeSource();
      if (source == null) {
        return null;
      }
      Path location = Path.of(source.getLocation().toURI());
      return Files.isDirectory(location) ? location : location.getParent();
    } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The Python executable to run as: {@code -Djhooks.python}, {@code $JHOOKS_PYTHON}, else the
   * {@code bin/python} of the virtual environment holding {@code jarDir} (the one with a {@code
   * pyvenv.cfg}); null for jep's default (the Python it was built with, with {@code PYTHONPATH}).
   */
  static String pythonExecutable(Path jarDir) {
    String configured = System.getProperty(PYTHON_PROPERTY);
    if (configured == null || configured.isEmpty()) {
      configured = System.getenv(PYTHON_ENV);
    }
    if (configured != null && !configured.isEmpty()) {
      return new File(configured).getAbsolutePath();
    }
    for (Path dir = jarDir; dir != null; dir = dir.getParent()) {
      Path python = dir.resolve("bin").resolve("python");
      if (Files.isRegularFile(dir.resolve("pyvenv.cfg")) && Files.exists(python)) {
        return python.toString();
      }
    }
    return null;
  }
}
