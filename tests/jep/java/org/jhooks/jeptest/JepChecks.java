package org.jhooks.jeptest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.bridge.EmbeddedPython;
import org.jhooks.bridge.NumpyArrays;
import org.jhooks.bridge.PythonException;
import org.jhooks.ndarray.DType;
import org.jhooks.ndarray.DirectValues;
import org.jhooks.python.PythonHooks;
import org.jhooks.testing.Trigger;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.types.TFloat32;

/**
 * Runs one check of the jep backend in a JVM started by plain {@code java} (tests/jep): {@code
 * JepChecks threads|errors|values|stuck-exit|stuck-return|no-python}. Lines starting {@code JAVA }
 * are what Java saw; the Python hooks (tests/jep/jep_hooks.py) print lines starting {@code PY }.
 */
public final class JepChecks {
  private JepChecks() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "threads":
        threads();
        break;
      case "errors":
        errors();
        break;
      case "values":
        values();
        break;
      case "release":
        release();
        break;
      case "dtypes":
        dtypes();
        break;
      case "stuck-exit":
        stuckExit();
        break;
      case "stuck-signal":
        stuckSignal(args.length > 1 ? args[1] : "jep_hooks:Sleeper", args.length > 2);
        break;
      case "stuck-return":
        stuckReturn();
        break;
      case "no-python":
        say("available=" + PythonHooks.available());
        PythonHooks.load("jep_hooks:ThreadCounter");
        break;
      default:
        throw new IllegalArgumentException(args[0]);
    }
  }

  /**
   * Calls {@code beginSession} of the hook {@code spec} names, a callback that never returns, on
   * the main thread ({@code onMain}) or on a new thread the main thread joins; a signal ends the
   * process.
   */
  private static void stuckSignal(String spec, boolean onMain) throws InterruptedException {
    Hook hook = PythonHooks.load(spec);
    if (onMain) {
      hook.beginSession();
      return;
    }
    Thread stuck = new Thread(hook::beginSession);
    stuck.start();
    stuck.join();
  }

  private static void say(String line) {
    System.out.println("JAVA " + line);
    System.out.flush();
  }

  /** One hook called from main, a new thread, and four pool threads twice each. */
  private static void threads() throws Exception {
    say("commandLine=" + PythonHooks.fromCommandLine().size());
    Hook hook = PythonHooks.load("jep_hooks:ThreadCounter");
    hook.beginSession();
    Thread thread = new Thread(hook::beginSession);
    thread.start();
    thread.join();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> done = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      done.add(pool.submit(hook::beginSession));
    }
    for (Future<?> f : done) {
      f.get();
    }
    // a listener called from a saver-like writer thread, as a checkpoint saver's listeners are
    CheckpointSaverListener listener = PythonHooks.loadListener("jep_hooks:SaveCounter");
    List<Boolean> stops = new ArrayList<>();
    Thread writer =
        new Thread(
            () -> {
              for (long step = 10; step <= 30; step += 10) {
                stops.add(listener.afterSave(null, step));
              }
            },
            "checkpoint-writer");
    writer.start();
    writer.join();
    listener.end(null, 30);
    say("stops=" + stops);
    PythonHooks.load("jep_hooks:Nested").beginSession();
    pool.shutdown();
    // 8 threads x 250 calls at once, all released together (org.jhooks.testing.Trigger)
    say("concurrent=" + Trigger.afterSessionRunConcurrently(hook, 8, 250, 300_000));
    hook.end(null);
  }

  private static void describe(String what, Throwable e) {
    StringBuilder chain = new StringBuilder();
    for (Throwable c = e; c != null; c = c.getCause()) {
      chain.append(c.getClass().getName());
      if (c instanceof PythonException) {
        chain.append('(').append(((PythonException) c).pythonType()).append(')');
      }
      chain.append(c.getCause() == null ? "" : " <- ");
    }
    say(what + ".chain=" + chain);
    say(what + ".message=" + e.getMessage());
    if (e instanceof PythonException) {
      String tb = ((PythonException) e).pythonTraceback();
      say(what + ".tracebackNamesHook=" + tb.contains("jep_hooks.py"));
      StackTraceElement top = e.getStackTrace()[0];
      say(what + ".top=" + top.getClassName() + "." + top.getMethodName());
    }
  }

  private static void errors() {
    Hook hook = PythonHooks.load("jep_hooks:Failing");
    try {
      hook.beginSession();
    } catch (RuntimeException e) {
      describe("begin", e);
    }
    try {
      hook.end(null);
    } catch (RuntimeException e) {
      describe("end", e);
    }
    IllegalStateException original = new IllegalStateException("from Java");
    try {
      hook.onError(null, original);
    } catch (RuntimeException e) {
      say("onError.same=" + (e == original));
    }
    SessionRunContext context = new SessionRunContext(SessionRunArgs.of("x:0"), null);
    try {
      hook.beforeSessionRun(context);
    } catch (RuntimeException e) {
      describe("before", e);
    }
    try {
      PythonHooks.load("no_such_module_here:Hook");
    } catch (RuntimeException e) {
      describe("load", e);
    }
    say("alive=true");
  }

  private static NdArray<?> array(String dtype, long[] shape, byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length).order(ByteOrder.nativeOrder());
    buffer.put(bytes).flip();
    return NumpyArrays.fromBuffer(buffer, dtype, shape);
  }

  /**
   * A Python hook's feeds of every dtype: Java prints each one's dtype, shape and bytes (hex), then
   * hands the same arrays back as results.
   */
  private static void dtypes() {
    Hook hook = PythonHooks.load("jep_hooks:EveryDtype");
    SessionRunContext context = new SessionRunContext(SessionRunArgs.of("x:0"), null);
    Map<String, NdArray<?>> feeds = hook.beforeSessionRun(context).feeds();
    for (Map.Entry<String, NdArray<?>> e : feeds.entrySet()) {
      NdArray<?> a = e.getValue();
      String dtype = NumpyArrays.dtype(a);
      StringBuilder hex = new StringBuilder();
      if (dtype.equals("string")) {
        for (byte[] s : NumpyArrays.toStrings(a)) {
          hex.append(HexFormat.of().formatHex(s)).append(',');
        }
      } else {
        ByteBuffer bytes =
            ByteBuffer.allocate(Math.toIntExact(a.size() * DType.ofNumpy(dtype).itemSize()))
                .order(ByteOrder.nativeOrder());
        NumpyArrays.copyToBuffer(a, bytes);
        hex.append(HexFormat.of().formatHex(bytes.array()));
      }
      say(
          "feed."
              + e.getKey()
              + "="
              + dtype
              + " "
              + java.util.Arrays.toString(NumpyArrays.shape(a))
              + " "
              + hex);
    }
    hook.afterSessionRun(
        context, new SessionRunValues(new LinkedHashMap<String, Object>(feeds), null, null));
  }

  /** Results of every kind through afterSessionRun; the big float32 one held in direct memory. */
  private static void values() {
    Hook hook = PythonHooks.load("jep_hooks:Values");
    SessionRunContext context = new SessionRunContext(SessionRunArgs.of("x:0"), null);
    say("fetches=" + hook.beforeSessionRun(context).fetches());
    ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
    Map<String, Object> results = new LinkedHashMap<>();
    b.clear();
    b.putFloat(1.5f).putFloat(-2.25f);
    results.put("f32", array("float32", new long[] {2}, java.util.Arrays.copyOf(b.array(), 8)));
    b.clear();
    b.putDouble(0.1);
    results.put("f64", array("float64", new long[] {}, java.util.Arrays.copyOf(b.array(), 8)));
    b.clear();
    b.putInt(-7).putInt(2147483647);
    results.put("i32", array("int32", new long[] {1, 2}, java.util.Arrays.copyOf(b.array(), 8)));
    b.clear();
    b.putLong(9007199254740993L);
    results.put("i64", array("int64", new long[] {1}, java.util.Arrays.copyOf(b.array(), 8)));
    results.put("b", array("bool", new long[] {2}, new byte[] {1, 0}));
    results.put(
        "s",
        NumpyArrays.fromStrings(
            new byte[][] {"héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[0]},
            new long[] {2}));
    FloatNdArray big;
    try (TFloat32 t = TFloat32.tensorOf(Shape.of(512, 1024))) {
      t.setFloat(3.5f, 0, 0);
      big = (FloatNdArray) DirectValues.copyOf(DType.FLOAT32, t);
    }
    say("bigDirect=" + (NumpyArrays.directBytes(big) != null));
    results.put("big", big);
    hook.afterSessionRun(context, new SessionRunValues(results, null, null));
    big.setFloat(-1f, 0, 0);
    hook.end(null);
  }

  private static long registered() {
    return ((Number) EmbeddedPython.callFunction("jhooks.bridge.backend.jep_backend", "registered"))
        .longValue();
  }

  /** 300 hooks loaded and dropped: once the JVM collected their proxies, Python lets them go. */
  private static void release() throws Exception {
    PythonHooks.load("jep_hooks:ThreadCounter");
    long start = registered();
    for (int i = 0; i < 300; i++) {
      PythonHooks.load("jep_hooks:ThreadCounter").beginSession();
    }
    say("loaded=" + (registered() - start));
    long left = registered() - start;
    for (int round = 0; round < 200 && left > 10; round++) {
      System.gc();
      Thread.sleep(20); // the Cleaner thread queues the handles; the next call releases them
      left = registered() - start;
    }
    say("left=" + left);
  }

  /** A Python callback stuck on a daemon thread when main returns: the process ends with 0. */
  private static void stuckReturn() throws Exception {
    Hook hook = PythonHooks.load("jep_hooks:Sleeper");
    Thread stuck = new Thread(hook::beginSession, "stuck-in-python");
    stuck.setDaemon(true);
    stuck.start();
    Thread.sleep(500);
    say("returning");
  }

  /**
   * A Python callback stuck on a non-daemon thread, then System.exit(3): the process ends with 3.
   */
  private static void stuckExit() throws Exception {
    Hook hook = PythonHooks.load("jep_hooks:Sleeper");
    Thread stuck = new Thread(hook::beginSession, "stuck-in-python");
    stuck.start();
    Thread.sleep(500);
    say("exiting");
    System.exit(3);
  }
}
