package org.jhooks.tf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.ModelInstance;
import org.tensorflow.Graph;
import org.tensorflow.proto.ConfigProto;

/**
 * Builds a {@link MonitoredSession} for training, like TensorFlow's {@code
 * tf.compat.v1.train.MonitoredTrainingSession}: on the chief the hooks are the chief-only hooks,
 * then TensorFlow's default hooks built from the standard hooks ({@link DefaultHooks}), in
 * TensorFlow's order: a step counter when {@code logStepCountSteps > 0} (writing {@code
 * global_step/sec} to the summary dir, if any), a summary saver when a summary op is given
 * (TensorFlow takes it from the graph's summary collection, which tensorflow-java lacks), a
 * checkpoint saver when a checkpoint dir is given; then the user's hooks. On a non-chief only the
 * user's hooks run; chief-only hooks and default hooks get no callbacks at all. Sessions restore
 * the latest checkpoint of the checkpoint dir, else initialize. With {@link Builder#master} the
 * sessions run on a TensorFlow server ({@code grpc://host:port}), for between-graph training on a
 * {@link Cluster}: there a non-chief's sessions never initialize but wait for the chief ({@link
 * WorkerSessionCreator}); see {@code docs/distributed.md}. See {@code docs/contract.md}, "Monitored
 * training session", and {@code docs/jvm-driver.md}.
 */
public final class MonitoredTrainingSession {
  private MonitoredTrainingSession() {}

  public static Builder builder(Graph graph) {
    return new Builder(graph);
  }

  /** Options with TensorFlow's defaults: save every 600 s, log the step rate every 100 steps. */
  public static final class Builder {
    private final Graph graph;
    private final List<Hook> hooks = new ArrayList<>();
    private final List<Hook> chiefOnlyHooks = new ArrayList<>();
    private final List<CheckpointSaverListener> listeners = new ArrayList<>();
    private boolean isChief = true;
    private Path checkpointDir;
    private Integer saveCheckpointSteps;
    private final List<String> localInitOps = new ArrayList<>();
    private Double saveCheckpointSecs;
    private int maxToKeep = 5;
    private int logStepCountSteps = 100;
    private Path summaryDir;
    private boolean summaryDirSet;
    private Object summaryOp;
    private Integer saveSummariesSteps;
    private Double saveSummariesSecs;
    private SessionCreator sessionCreator;
    private ModelInstance modelInstance;
    private Predicate<Throwable> recoverable;
    private String master = "";
    private ConfigProto config;
    private double recoveryWaitSecs = 30;
    private double maxWaitSecs = 7200;
    private DefaultHooks defaultHooks;
    private TfConfig tfConfig;

    private Builder(Graph graph) {
      this.graph = Objects.requireNonNull(graph, "graph");
    }

    public Builder hooks(List<? extends Hook> more) {
      hooks.addAll(more);
      return this;
    }

    public Builder hooks(Hook... more) {
      return hooks(List.of(more));
    }

    /** Hooks that run only on the chief, before the built-ins. */
    public Builder chiefOnlyHooks(List<? extends Hook> more) {
      chiefOnlyHooks.addAll(more);
      return this;
    }

    public Builder chiefOnlyHooks(Hook... more) {
      return chiefOnlyHooks(List.of(more));
    }

    /**
     * The session target: {@code ""} (default, in-process) or a TensorFlow server's {@code
     * grpc://host:port} ({@link ClusterServer#target()}), as TensorFlow's {@code master}.
     *
     * @throws IllegalArgumentException any other target (see {@link TargetSessions})
     */
    public Builder master(String target) {
      String t = target == null ? "" : target;
      if (!t.isEmpty() && !t.matches("grpc://[^:/\\s]+:\\d+")) {
        throw new IllegalArgumentException(
            "MonitoredTrainingSession: master '" + t + "': expected \"\" or grpc://host:port");
      }
      this.master = t;
      return this;
    }

    /**
     * The task's role in its cluster, as {@code TF_CONFIG} gives it ({@link TfConfig#fromEnv()}):
     * sets {@link #isChief} now; at {@link #build()} the sessions' master becomes the task's own
     * server (started then, once per JVM: {@link TfConfig#server()}) and the task's device filters
     * are added to {@link #config} ({@link TfConfig#sessionConfig}). For local training (no
     * cluster) the master stays in-process. Place the graph's ops with {@link
     * TfConfig#replicaDeviceSetter()}.
     *
     * @throws IllegalArgumentException the evaluator, which reads checkpoints and does not train
     */
    public Builder tfConfig(TfConfig task) {
      Objects.requireNonNull(task, "tfConfig");
      if (task.isEvaluator()) {
        throw new IllegalArgumentException(
            "MonitoredTrainingSession: tfConfig "
                + task
                + ": the evaluator does not train: it reads the chief's checkpoints");
      }
      this.tfConfig = task;
      this.isChief = task.isChief();
      return this;
    }

    /**
     * The session config, e.g. {@link Cluster#sessionConfig} with the task's device filters
     * (TensorFlow's {@code config}); {@code null} for TensorFlow's defaults.
     */
    public Builder config(ConfigProto sessionConfig) {
      this.config = sessionConfig;
      return this;
    }

    /**
     * How a non-chief waits for the chief to initialize the model ({@link WorkerSessionCreator}): a
     * check every {@code recoveryWaitSecs} (TensorFlow: 30 s, which its {@code
     * MonitoredTrainingSession} does not let you change), for at most {@code maxWaitSecs}
     * (TensorFlow: 7200 s) before a {@link ModelNotReadyException}.
     *
     * @throws IllegalArgumentException {@code recoveryWaitSecs <= 0} or {@code maxWaitSecs < 0}
     */
    public Builder workerWait(double recoveryWaitSecs, double maxWaitSecs) {
      if (!(recoveryWaitSecs > 0) || !(maxWaitSecs >= 0)) {
        throw new IllegalArgumentException(
            "MonitoredTrainingSession: workerWait("
                + recoveryWaitSecs
                + ", "
                + maxWaitSecs
                + "): recoveryWaitSecs must be > 0 and maxWaitSecs >= 0");
      }
      this.recoveryWaitSecs = recoveryWaitSecs;
      this.maxWaitSecs = maxWaitSecs;
      return this;
    }

    /**
     * Who makes TensorFlow's default hooks; by default the {@link DefaultHooks} service of the
     * class path, which the jhooks jar provides ({@code org.jhooks.hooks.StandardDefaultHooks}: the
     * standard {@code StepCounterHook}, {@code SummarySaverHook} and {@code CheckpointSaverHook}).
     * Give {@code new StandardDefaultHooks()} here when a repackaged jar lost the service file, or
     * your own to change how the default hooks are made (which of them run stays TensorFlow's
     * rule).
     */
    public Builder defaultHooks(DefaultHooks factory) {
      this.defaultHooks = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /**
     * Whether this task is the chief (default true). Only the chief runs the chief-only hooks and
     * TensorFlow's default hooks; on a cluster ({@link #master}) only the chief initializes or
     * restores the model, and a non-chief's session waits for that ({@link #workerWait}).
     */
    public Builder isChief(boolean chief) {
      this.isChief = chief;
      return this;
    }

    /** Where checkpoints are restored from and saved to; null for none. */
    public Builder checkpointDir(Path dir) {
      this.checkpointDir = dir;
      return this;
    }

    /**
     * Ops run after every restore or initialization of the default session creator (TensorFlow's
     * {@code Scaffold.local_init_op}); name a dataset iterator's {@code MakeIterator} here, since a
     * restore marks every initializer as run.
     */
    public Builder localInitOps(String... ops) {
      localInitOps.addAll(List.of(ops));
      return this;
    }

    /** Save every this many global steps (replaces the 600 s default). */
    public Builder saveCheckpointSteps(int steps) {
      this.saveCheckpointSteps = steps;
      return this;
    }

    /** Save every this many seconds; wins over steps, as in TensorFlow. */
    public Builder saveCheckpointSecs(double secs) {
      this.saveCheckpointSecs = secs;
      return this;
    }

    public Builder maxToKeep(int max) {
      this.maxToKeep = max;
      return this;
    }

    public Builder checkpointSaverListeners(CheckpointSaverListener... more) {
      listeners.addAll(List.of(more));
      return this;
    }

    /** Log the step rate every this many steps; 0 for no step counter. */
    public Builder logStepCountSteps(int steps) {
      this.logStepCountSteps = steps;
      return this;
    }

    /**
     * Where the step counter and the summary saver write event files; defaults to the checkpoint
     * dir, as in TensorFlow; {@code null} for none (the step counter then only logs).
     */
    public Builder summaryDir(Path dir) {
      this.summaryDir = dir;
      this.summaryDirSet = true;
      return this;
    }

    /**
     * The summary to save every {@code saveSummariesSteps} (default 100) steps: a serialized {@code
     * Summary} tensor name or a map tag to scalar tensor name ({@code SummarySaverHook}'s {@code
     * summaryOp}). Without it no summary saver runs.
     */
    public Builder summaryOp(Object op) {
      this.summaryOp = op;
      return this;
    }

    /** Save summaries every this many global steps (TensorFlow's default: 100). */
    public Builder saveSummariesSteps(int steps) {
      this.saveSummariesSteps = steps;
      return this;
    }

    /** Save summaries every this many seconds; wins over steps. */
    public Builder saveSummariesSecs(double secs) {
      this.saveSummariesSecs = secs;
      return this;
    }

    /**
     * Replaces the default session creator: on the chief a {@link
     * CheckpointRestoringSessionCreator} of the checkpoint dir, on a non-chief with a {@link
     * #master} a {@link WorkerSessionCreator}, both on the master with {@link #config}. A non-chief
     * without a master (in-process) restores or initializes like the chief: it has no chief to wait
     * for (TensorFlow's non-chief would wait for ever).
     */
    public Builder sessionCreator(SessionCreator creator) {
      this.sessionCreator = creator;
      return this;
    }

    public Builder modelInstance(ModelInstance instance) {
      this.modelInstance = instance;
      return this;
    }

    public Builder recoverableWhen(Predicate<Throwable> predicate) {
      this.recoverable = predicate;
      return this;
    }

    /**
     * The hooks in the order the session will call them (on the chief: chief-only, step counter,
     * summary saver, checkpoint saver, user hooks).
     */
    public List<Hook> allHooks() {
      List<Hook> all = new ArrayList<>();
      if (isChief) {
        all.addAll(chiefOnlyHooks);
        Path events = summaryDirSet ? summaryDir : checkpointDir;
        String eventDir = events == null ? null : events.toString();
        if (logStepCountSteps > 0) {
          all.add(defaults().stepCounter(logStepCountSteps, eventDir));
        }
        if (summaryOp != null && eventDir != null) {
          Integer steps = saveSummariesSecs != null ? null : saveSummariesSteps;
          if (steps == null && saveSummariesSecs == null) {
            steps = 100;
          }
          all.add(defaults().summarySaver(steps, saveSummariesSecs, eventDir, summaryOp));
        }
        if (checkpointDir != null) {
          int steps = saveCheckpointSteps == null ? 0 : saveCheckpointSteps;
          double secs = saveCheckpointSecs != null ? saveCheckpointSecs : (steps > 0 ? 0 : 600);
          if (steps > 0 || secs > 0) {
            all.add(
                defaults()
                    .checkpointSaver(
                        checkpointDir.toString(),
                        secs > 0 ? null : steps,
                        secs > 0 ? secs : null,
                        maxToKeep,
                        new ArrayList<>(listeners)));
          }
        }
      }
      all.addAll(hooks);
      return all;
    }

    private DefaultHooks defaults() {
      if (defaultHooks == null) {
        defaultHooks = serviceDefaultHooks();
      }
      return defaultHooks;
    }

    private SessionCreator defaultSessionCreator() {
      if (isChief || master.isEmpty()) {
        // In-process (no master) a non-chief has no chief to wait for: it initializes or
        // restores like the chief, as the JVM driver always did (TensorFlow would wait forever).
        return new CheckpointRestoringSessionCreator(checkpointDir, config, localInitOps, master);
      }
      return new WorkerSessionCreator(master, config, localInitOps, recoveryWaitSecs, maxWaitSecs);
    }

    public MonitoredSession build() {
      if (tfConfig != null) {
        master = tfConfig.master().isEmpty() ? "" : tfConfig.server().target();
        config = tfConfig.sessionConfig(config);
      }
      MonitoredSession.Builder b =
          MonitoredSession.builder(graph)
              .hooks(allHooks())
              .sessionCreator(sessionCreator != null ? sessionCreator : defaultSessionCreator())
              .modelInstance(modelInstance);
      if (recoverable != null) {
        b.recoverableWhen(recoverable);
      }
      return b.build();
    }
  }

  /**
   * The one {@link DefaultHooks} service of the class path (the jhooks jar's {@code
   * org.jhooks.hooks.StandardDefaultHooks}).
   *
   * @throws IllegalStateException none, or more than one, is registered
   */
  private static DefaultHooks serviceDefaultHooks() {
    List<DefaultHooks> found = new ArrayList<>();
    ServiceLoader.load(DefaultHooks.class, DefaultHooks.class.getClassLoader()).forEach(found::add);
    if (found.size() != 1) {
      throw new IllegalStateException(
          "MonitoredTrainingSession: expected one org.jhooks.tf.DefaultHooks service on the class"
              + " path (META-INF/services/org.jhooks.tf.DefaultHooks of the jhooks jar), found "
              + found.stream().map(h -> h.getClass().getName()).collect(Collectors.toList())
              + "; choose one with"
              + " builder.defaultHooks(new org.jhooks.hooks.StandardDefaultHooks())");
    }
    return found.get(0);
  }
}
