package org.jhooks.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Hook;
import org.jhooks.SaveDecision;
import org.jhooks.Session;
import org.jhooks.hooks.AsyncCheckpointSaverHook;
import org.jhooks.hooks.CheckpointSaverHook;
import org.jhooks.tf.GlobalStep;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.TfSession;
import org.tensorflow.Graph;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.types.TFloat32;

/**
 * The JVM side of benchmarks P10 and P11 and of the large-model tests: a model of float32 variables
 * {@code big0, big1, ...} (zeros) whose {@code train_step} adds 1 to every element of each and to
 * the global step, so after a run each holds the global step (twin of {@code
 * _big_variables_graph(sizes=...)} in {@code benchmarks/measure.py}); the time of sync saves by
 * {@link CheckpointSaverHook} against tensorflow-java's own {@code Session.save} in one session;
 * the peak extra resident memory of one save by {@link AsyncCheckpointSaverHook}.
 */
public final class SaveBench {
  private SaveBench() {}

  /** A new graph of float32 variables {@code big<i>} of {@code elements[i]} zeros. */
  public static Graph model(long[] elements) {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    List<Op> adds = new ArrayList<>();
    for (int i = 0; i < elements.length; i++) {
      Operand dims = new Operand(tf, elements[i]);
      Variable<TFloat32> v = tf.withName("big" + i).variable(dims.fill(0f));
      adds.add(tf.assignAdd(v, dims.fill(1f)));
    }
    GlobalStep.create(tf, tf.withControlDependencies(adds).noOp());
    return g;
  }

  /** Builds {@code fill([n], value)} operands of one shape. */
  private static final class Operand {
    private final Ops tf;
    private final long n;

    Operand(Ops tf, long n) {
      this.tf = tf;
      this.n = n;
    }

    org.tensorflow.Operand<TFloat32> fill(float value) {
      return tf.fill(tf.constant(new long[] {n}), tf.constant(value));
    }
  }

  /** Records the seconds from each {@code beforeSave} to its {@code afterSave}. */
  private static final class SaveTimer implements CheckpointSaverListener {
    final List<Double> seconds = new ArrayList<>();
    private long started;

    @Override
    public SaveDecision decideSave(Session session, long globalStep) {
      started = System.nanoTime();
      return SaveDecision.SAVE;
    }

    @Override
    public boolean afterSave(Session session, long globalStep) {
      seconds.add((System.nanoTime() - started) / 1e9);
      return false;
    }
  }

  /** Keeps the raw session of the run (tensorflow-java's, for its own {@code Session.save}). */
  private static final class RawSession implements Hook {
    TfSession session;

    @Override
    public void afterCreateSession(Session session, org.jhooks.Coordinator coord) {
      this.session = (TfSession) session;
    }
  }

  /**
   * Benchmark P10 on the JVM: in one session of {@code graph}, {@code saves} sync saves by {@link
   * CheckpointSaverHook} (a save every step: its listener-timed save, from {@code beforeSave} to
   * {@code afterSave}: the NaN check, the files, the state file, rotation) alternated with as many
   * {@code Session.save} calls of tensorflow-java's raw session, each timed with the deletion of
   * the previous one (what the hook's rotation does; the order swapped every other round), both
   * under {@code dir}, keeping one checkpoint each.
   *
   * @return {@code [hook seconds..., raw seconds...]}, {@code saves} each, in round order
   */
  public static double[] syncSaves(Graph graph, String dir, int saves) {
    SaveTimer timer = new SaveTimer();
    RawSession raw = new RawSession();
    Path rawDir = Path.of(dir, "raw");
    CheckpointSaverHook hook =
        CheckpointSaverHook.builder(Path.of(dir, "hook").toString())
            .saveSteps(1)
            .maxToKeep(1)
            .listeners(timer)
            .build();
    double[] out = new double[2 * saves];
    try (MonitoredSession s = MonitoredSession.builder(graph).hooks(raw, hook).build()) {
      timer.seconds.clear(); // the save after session creation
      Files.createDirectories(rawDir);
      String previous = rawDir.resolve("model.ckpt-first").toString();
      raw.session.rawSession().save(previous);
      for (int r = 0; r < saves; r++) {
        String prefix = rawDir.resolve("model.ckpt-" + r).toString();
        if (r % 2 == 0) {
          s.run(GlobalStep.TRAIN_STEP);
          out[saves + r] = rawSave(raw.session, prefix, previous);
        } else {
          out[saves + r] = rawSave(raw.session, prefix, previous);
          s.run(GlobalStep.TRAIN_STEP);
        }
        previous = prefix;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int r = 0; r < saves; r++) {
      out[r] = timer.seconds.get(r);
    }
    return out;
  }

  /**
   * Seconds of tensorflow-java's save of {@code prefix} and the deletion of the {@code previous}
   * checkpoint: what keeping one checkpoint costs (the hook's rotation, TF's {@code max_to_keep}).
   */
  private static double rawSave(TfSession session, String prefix, String previous)
      throws IOException {
    long t0 = System.nanoTime();
    session.rawSession().save(prefix);
    deleteCheckpoint(previous);
    return (System.nanoTime() - t0) / 1e9;
  }

  private static void deleteCheckpoint(String prefix) throws IOException {
    Path p = Path.of(prefix);
    try (var files = Files.list(p.getParent())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getFileName().toString().startsWith(p.getFileName().toString() + ".")) {
          Files.delete(f);
        }
      }
    }
  }

  /** The process's resident set in bytes ({@code /proc/self/statm}). */
  public static long rssBytes() {
    try {
      String[] statm = Files.readString(Path.of("/proc/self/statm")).trim().split(" ");
      return Long.parseLong(statm[1]) * 4096L;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Benchmark P11 on the JVM: the peak extra resident memory (bytes) of one save by {@link
   * AsyncCheckpointSaverHook} of {@code graph} into {@code dir}: the resident set sampled every
   * millisecond from the save's {@code beforeSave} (on the training thread, before the snapshot)
   * until the write is on disk, minus its value at {@code beforeSave}. The save after session
   * creation is skipped (a listener's SKIP), so the measured save is the hook's first: its snapshot
   * buffers are allocated in it.
   *
   * @return {@code [peak extra bytes, saved global step]}
   */
  public static long[] asyncSavePeak(Graph graph, String dir) throws InterruptedException {
    long[] baseline = {-1};
    long[] peak = {0};
    CheckpointSaverListener mark =
        new CheckpointSaverListener() {
          @Override
          public SaveDecision decideSave(Session session, long globalStep) {
            if (globalStep == 0) {
              return SaveDecision.SKIP;
            }
            synchronized (peak) {
              baseline[0] = rssBytes();
              peak[0] = baseline[0];
            }
            return SaveDecision.SAVE;
          }
        };
    AsyncCheckpointSaverHook hook =
        AsyncCheckpointSaverHook.builder(dir).saveSteps(2).maxToKeep(1).listeners(mark).build();
    boolean[] done = {false};
    Thread sampler =
        new Thread(
            () -> {
              while (true) {
                synchronized (peak) {
                  if (done[0]) {
                    return;
                  }
                  if (baseline[0] >= 0) {
                    peak[0] = Math.max(peak[0], rssBytes());
                  }
                }
                try {
                  Thread.sleep(1);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "rss-sampler");
    sampler.setDaemon(true);
    sampler.start();
    long step;
    try (MonitoredSession s = MonitoredSession.builder(graph).hooks(hook).build()) {
      s.run(GlobalStep.TRAIN_STEP);
      s.run(GlobalStep.TRAIN_STEP); // the save of step 2
      hook.waitForPendingSaves();
      synchronized (peak) {
        peak[0] = Math.max(peak[0], rssBytes());
        done[0] = true;
      }
      step = hook.lastSavedStep();
    } finally {
      synchronized (peak) {
        done[0] = true;
      }
      sampler.join();
    }
    return new long[] {peak[0] - baseline[0], step};
  }
}
