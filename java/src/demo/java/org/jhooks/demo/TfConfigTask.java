package org.jhooks.demo;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.hooks.GlobalStepWaiterHook;
import org.jhooks.hooks.StopAtStepHook;
import org.jhooks.python.PythonHooks;
import org.jhooks.tf.TfConfig;

/**
 * A JVM worker of {@code python -m jhooks cluster-demo --launch tf-config} and of {@code
 * examples/kubernetes}, started by plain {@code java} with its role in {@code TF_CONFIG} only, as
 * an operator starts a task:
 *
 * <pre>
 * TF_CONFIG='{"cluster": {...}, "task": {"type": "worker", "index": 0}}' \
 *   java $(python -m jhooks jvm-options) -cp JHOOKS_CLASSPATH:JEP_JAR org.jhooks.demo.TfConfigTask \
 *   --csv wdbc.csv --last-step 600 --result-dir /results [--start-barrier] [--learning-rate 0.5]
 *   [--checkpoint-dir DIR --save-steps 100] [--recovery-wait-secs 0.5] [--max-wait-secs 300]
 *   [--hooks python|java]
 * </pre>
 *
 * <p>Its hooks are Python hooks, embedded with jep ({@link PythonHooks#load}): {@code
 * jhooks.hooks}' {@code StopAtStepHook} and, on a non-chief, {@code GlobalStepWaiterHook}, and with
 * {@code --start-barrier} the demo's {@code jhooks.demo.tf_config_task:TaskStartBarrier}; with
 * {@code --hooks java} the first two are their Java twins instead (to measure the jep crossing). A
 * Java hook given to every task as chief-only counts its runs (0 unless this task is the chief).
 * Writes {@code <result-dir>/<type><index>.result.json}: steps, seconds, recoveries,
 * chief_only_runs.
 */
public final class TfConfigTask {
  private TfConfigTask() {}

  /** Counts the runs it sees: given to every task as a chief-only hook. */
  static final class ChiefOnlyProbe implements Hook {
    long runs;

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      runs++;
      return null;
    }
  }

  static Map<String, String> options(String[] args) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("TfConfigTask: unexpected argument '" + a + "'");
      }
      if (a.equals("--start-barrier")) {
        out.put(a, "true");
      } else if (i + 1 < args.length) {
        out.put(a, args[++i]);
      } else {
        throw new IllegalArgumentException("TfConfigTask: " + a + " needs a value");
      }
    }
    return out;
  }

  private static String required(Map<String, String> o, String name) {
    String v = o.get(name);
    if (v == null) {
      throw new IllegalArgumentException("TfConfigTask: " + name + " is required");
    }
    return v;
  }

  public static void main(String[] args) throws IOException {
    Map<String, String> o = options(args);
    TfConfig task = TfConfig.fromEnv();
    if (task.isEvaluator() || "ps".equals(task.taskType())) {
      throw new IllegalArgumentException(
          "TfConfigTask trains a chief or worker; TF_CONFIG gives " + task);
    }
    Path resultDir = Path.of(required(o, "--result-dir"));
    long lastStep = Long.parseLong(required(o, "--last-step"));
    double maxWaitSecs = Double.parseDouble(o.getOrDefault("--max-wait-secs", "300"));
    List<Hook> hooks = new ArrayList<>();
    if (o.containsKey("--start-barrier")) {
      hooks.add(
          PythonHooks.load(
              "jhooks.demo.tf_config_task:TaskStartBarrier", resultDir.toString(), maxWaitSecs));
    }
    // --hooks java: the standard hooks' Java twins, to measure what the jep crossing costs.
    boolean javaHooks = "java".equals(o.getOrDefault("--hooks", "python"));
    if (!task.isChief()) {
      hooks.add(
          javaHooks
              ? new GlobalStepWaiterHook(1, 0.2)
              : PythonHooks.load("jhooks.hooks.global_step_waiter:GlobalStepWaiterHook", 1L, 0.2));
    }
    hooks.add(
        javaHooks
            ? new StopAtStepHook(null, lastStep)
            : PythonHooks.load("jhooks.hooks.stop_at_step:StopAtStepHook", null, lastStep));
    ChiefOnlyProbe probe = new ChiefOnlyProbe();
    String checkpointDir = o.get("--checkpoint-dir");
    ClusterDemoTask.Result r =
        ClusterDemoTask.train(
            Path.of(required(o, "--csv")),
            task,
            Float.parseFloat(o.getOrDefault("--learning-rate", "0.5")),
            hooks,
            List.of(probe),
            task.isChief() && checkpointDir != null ? Path.of(checkpointDir) : null,
            Integer.parseInt(o.getOrDefault("--save-steps", "100")),
            Double.parseDouble(o.getOrDefault("--recovery-wait-secs", "0.5")),
            maxWaitSecs);
    JsonObject result = new JsonObject();
    result.addProperty("job", task.taskType());
    result.addProperty("index", task.taskIndex());
    result.addProperty("lang", "jvm");
    result.addProperty("steps", r.localSteps);
    result.addProperty("seconds", r.seconds);
    result.addProperty("recoveries", r.recoveries);
    result.addProperty("chief_only_runs", probe.runs);
    if (task.isChief()) {
      result.addProperty("accuracy", r.accuracy);
    }
    Files.createDirectories(resultDir);
    Path file = resultDir.resolve(task.taskType() + task.taskIndex() + ".result.json");
    Path tmp = resultDir.resolve(file.getFileName() + ".tmp");
    Files.writeString(tmp, new GsonBuilder().create().toJson(result), StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    System.out.println("task " + task.taskType() + ":" + task.taskIndex() + " done: " + result);
    System.out.flush();
    // The task's TensorFlow server cannot be stopped (ClusterServer): end the process here.
    Runtime.getRuntime().halt(0);
  }
}
