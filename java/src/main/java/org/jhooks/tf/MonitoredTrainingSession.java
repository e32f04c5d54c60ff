package org.jhooks.tf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.ModelInstance;
import org.tensorflow.Graph;

/**
 * Builds a {@link MonitoredSession} for training, like TensorFlow's {@code
 * tf.compat.v1.train.MonitoredTrainingSession}: on the chief the hooks are the chief-only hooks,
 * then the built-ins ({@link BasicStepCounter} when {@code logStepCountSteps > 0}, {@link
 * BasicCheckpointSaver} when a checkpoint dir is given), then the user's hooks. On a non-chief only
 * the user's hooks run; chief-only hooks and built-ins get no callbacks at all. Sessions restore
 * the latest checkpoint of the checkpoint dir, else initialize. See {@code docs/contract.md},
 * "Monitored training session".
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
    private SessionCreator sessionCreator;
    private ModelInstance modelInstance;
    private Predicate<Throwable> recoverable;

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

    public Builder isChief(boolean chief) {
      this.isChief = chief;
      return this;
    }

    /** Where checkpoints are restored from and saved to; null for none. */
    public Builder checkpointDir(Path dir) {
      this.checkpointDir = dir;
      return this;
    }

    /** Save every this many global steps (replaces the 600 s default). */
    /**
     * Ops run after every restore or initialization of the default session creator (TensorFlow's
     * {@code Scaffold.local_init_op}); name a dataset iterator's {@code MakeIterator} here, since a
     * restore marks every initializer as run.
     */
    public Builder localInitOps(String... ops) {
      localInitOps.addAll(List.of(ops));
      return this;
    }

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

    /** Replaces the default {@link CheckpointRestoringSessionCreator} of the checkpoint dir. */
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

    /** The hooks in the order the session will call them. */
    public List<Hook> allHooks() {
      List<Hook> all = new ArrayList<>();
      if (isChief) {
        all.addAll(chiefOnlyHooks);
        if (logStepCountSteps > 0) {
          all.add(new BasicStepCounter(logStepCountSteps));
        }
        if (checkpointDir != null) {
          int steps = saveCheckpointSteps == null ? 0 : saveCheckpointSteps;
          double secs = saveCheckpointSecs != null ? saveCheckpointSecs : (steps > 0 ? 0 : 600);
          if (secs > 0) {
            steps = 0;
          }
          if (steps > 0 || secs > 0) {
            all.add(new BasicCheckpointSaver(checkpointDir, steps, secs, Checkpoints.DEFAULT_BASENAME, maxToKeep, listeners));
          }
        }
      }
      all.addAll(hooks);
      return all;
    }

    public MonitoredSession build() {
      MonitoredSession.Builder b =
          MonitoredSession.builder(graph)
              .hooks(allHooks())
              .sessionCreator(sessionCreator != null
                      ? sessionCreator
                      : new CheckpointRestoringSessionCreator(checkpointDir, null, localInitOps))
              .modelInstance(modelInstance);
      if (recoverable != null) {
        b.recoverableWhen(recoverable);
      }
      return b.build();
    }
  }
}
