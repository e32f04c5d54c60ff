package org.jhooks.hooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.HookException;
import org.jhooks.Logs;
import org.jhooks.Session;
import org.jhooks.checkpoint.CheckpointState;
import org.jhooks.checkpoint.CheckpointStateException;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.tf.TensorValues;
import org.tensorflow.ndarray.NdArray;

/**
 * A {@link CheckpointSaverListener} that copies each saved checkpoint whose metric is among the
 * best {@code keep} seen into {@code <checkpointDir>/<subdir>}, with its own {@code checkpoint}
 * state file. Twin of {@code jhooks.hooks.BestCheckpointsListener}; like Keras' {@code
 * ModelCheckpoint(save_best_only=True)} (TensorFlow's savers keep the newest N only).
 *
 * <p>The metric is read with a raw run (no feeds) in {@code beforeSave}, so it holds the value of
 * the step being saved. The sub-directory's state file lists the kept checkpoints worst first, so
 * its {@code model_checkpoint_path} (what {@code tf.train.latest_checkpoint(subdir)} restores) is
 * the best; {@code best_checkpoints.json} there records each one's metric value, so a restarted run
 * continues the ranking. A tie does not replace a kept checkpoint; a NaN or infinite metric never
 * qualifies. Files are copied, never moved: the saver's own checkpoints and rotation are untouched.
 * The listener writes and deletes only inside the sub-directory, and deletes only {@code
 * <basename>-<step>} checkpoints there: those it drops from its own list, and in {@code begin}
 * those its index does not list (what a kill between a copy and the index write leaves); {@code
 * begin} also makes the state file list what the index lists. An index that is not exactly one of
 * this listener's ({@link BestCheckpointsIndex}) is a {@link HookException} in {@code begin} naming
 * the file and the entry, and nothing is deleted. See {@code docs/standard-hooks.md}.
 */
public final class BestCheckpointsListener implements CheckpointSaverListener {
  private static final String NAME = "BestCheckpointsListener";

  /** The metric index file in the sub-directory ({@link BestCheckpointsIndex}). */
  public static final String INDEX_FILE = BestCheckpointsIndex.FILE;

  private static final Pattern CHECKPOINT_FILE =
      Pattern.compile("(?s)(.+)(?:\\.index|\\.meta|\\.data-\\d{5}-of-\\d{5})");

  private static final System.Logger LOG = Logs.get("org.jhooks.hooks.BestCheckpointsListener");

  private final String checkpointDir;
  private final String metric;
  private final String mode;
  private final int keep;
  private final String checkpointBasename;
  private final Path bestDir;

  /** {@code (step, value)} of the kept checkpoints, best first. */
  private List<Entry> best = new ArrayList<>();

  private Entry pending;

  /** A kept checkpoint: its global step and metric value. */
  public static final class Entry {
    private final long step;
    private final double value;

    Entry(long step, double value) {
      this.step = step;
      this.value = value;
    }

    public long step() {
      return step;
    }

    public double value() {
      return value;
    }

    @Override
    public String toString() {
      return "(" + step + ", " + value + ")";
    }
  }

  /**
   * @param checkpointDir the saver's checkpoint dir (the listener reads its checkpoints there)
   * @param metric a scalar numeric tensor (one element, any float or int type), e.g. {@code
   *     "val_loss:0"}
   * @param mode {@code "min"} (lower is better) or {@code "max"}
   * @param keep how many best checkpoints to keep, at least 1
   * @param subdir a plain directory name inside {@code checkpointDir}, not {@code checkpoint} (the
   *     saver's state file) ({@code null}: {@code "best"})
   * @param checkpointBasename the saver's basename ({@code null}: {@code "model.ckpt"})
   * @throws IllegalArgumentException a bad argument, naming the listener and the value
   */
  public BestCheckpointsListener(
      String checkpointDir,
      String metric,
      String mode,
      int keep,
      String subdir,
      String checkpointBasename) {
    if (checkpointDir == null || checkpointDir.isEmpty()) {
      throw new IllegalArgumentException(
          NAME + ": checkpointDir must be given, got " + checkpointDir);
    }
    if (metric == null || metric.isEmpty()) {
      throw new IllegalArgumentException(NAME + ": metric must be a tensor name, got " + metric);
    }
    if (!"min".equals(mode) && !"max".equals(mode)) {
      throw new IllegalArgumentException(NAME + ": mode must be 'min' or 'max', got " + mode);
    }
    if (keep < 1) {
      throw new IllegalArgumentException(NAME + ": keep must be an int >= 1, got " + keep);
    }
    String sub = subdir == null ? "best" : subdir;
    if (sub.isEmpty()
        || sub.equals(".")
        || sub.equals("..")
        || sub.contains("/")
        || sub.contains("\\")
        || sub.contains("\u0000")) {
      throw new IllegalArgumentException(
          NAME + ": subdir must be a directory name without a path separator, got '" + sub + "'");
    }
    if (sub.equals(Checkpoints.STATE_FILE)) { // a directory there: the saver's dir unreadable
      throw new IllegalArgumentException(
          NAME + ": subdir must not be 'checkpoint', the name of the saver's state file");
    }
    this.checkpointBasename =
        Checkpoints.validateBasename(
            NAME, checkpointBasename == null ? Checkpoints.DEFAULT_BASENAME : checkpointBasename);
    this.checkpointDir = checkpointDir;
    this.metric = metric;
    this.mode = mode;
    this.keep = keep;
    this.bestDir = Path.of(checkpointDir, sub);
  }

  /** {@code keep} best checkpoints in {@code <checkpointDir>/best}, basename {@code model.ckpt}. */
  public BestCheckpointsListener(String checkpointDir, String metric, String mode, int keep) {
    this(checkpointDir, metric, mode, keep, null, null);
  }

  /** The saver's checkpoint directory, as given. */
  public String checkpointDir() {
    return checkpointDir;
  }

  /** The name of the metric tensor. */
  public String metric() {
    return metric;
  }

  /** {@code "min"} or {@code "max"}: which values are better. */
  public String mode() {
    return mode;
  }

  /** How many best checkpoints are kept. */
  public int keep() {
    return keep;
  }

  /** The checkpoints' basename. */
  public String checkpointBasename() {
    return checkpointBasename;
  }

  /** The sub-directory of the best checkpoints. */
  public Path bestDir() {
    return bestDir;
  }

  /** The kept checkpoints, best first. */
  public synchronized List<Entry> best() {
    return Collections.unmodifiableList(new ArrayList<>(best));
  }

  /** The prefix of the best kept checkpoint (in the sub-directory), or {@code null}. */
  public synchronized String bestCheckpoint() {
    return best.isEmpty() ? null : prefix(best.get(0).step);
  }

  @Override
  public synchronized void begin() {
    try {
      Files.createDirectories(bestDir);
    } catch (IOException e) {
      throw new HookException(
          NAME, "begin", "cannot create the sub-directory '" + bestDir + "': " + e, e);
    }
    best = load(); // before anything is deleted: a refused index leaves the dir as it is
    pending = null;
    Checkpoints.cleanStaleTemporaries(bestDir, checkpointBasename); // incl. half-copied files
    try (Stream<Path> entries = Files.list(bestDir)) {
      for (Path p : (Iterable<Path>) entries::iterator) { // an index file a killed write left
        if (p.getFileName().toString().startsWith(INDEX_FILE + ".tmp")
            && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(p);
        }
      }
    } catch (IOException e) {
      throw new HookException(NAME, "begin", "cannot clean '" + bestDir + "': " + e, e);
    }
    removeOrphans();
    writeState(best);
  }

  @Override
  public synchronized void beforeSave(Session session, long globalStep) {
    NdArray<?> value = (NdArray<?>) session.run(metric);
    Object number = value.size() == 1 ? value.scalars().iterator().next().getObject() : null;
    Double asDouble = TensorValues.scalarAsDouble(value); // a uint8 240 is 240, not the byte's -16
    if (!(number instanceof Number) || asDouble == null) {
      throw new IllegalArgumentException(
          NAME
              + ".beforeSave: metric "
              + metric
              + " must be one number, got shape "
              + value.shape()
              + (number == null ? "" : " of " + number.getClass().getSimpleName()));
    }
    pending = new Entry(globalStep, asDouble);
  }

  @Override
  public synchronized boolean afterSave(Session session, long globalStep) {
    Entry e = pending != null && pending.step == globalStep ? pending : null;
    pending = null;
    if (e == null || !Double.isFinite(e.value) || !qualifies(e.value)) { // the index: finite only
      return false;
    }
    String source =
        Checkpoints.checkpointPrefix(Path.of(checkpointDir), checkpointBasename, e.step).toString();
    Checkpoints.copyCheckpoint(source, prefix(e.step));
    List<Entry> ranked = new ArrayList<>();
    for (Entry b : best) {
      if (b.step != e.step) {
        ranked.add(b);
      }
    }
    ranked.add(e);
    Comparator<Entry> byValue = Comparator.comparingDouble(Entry::value);
    ranked.sort("max".equals(mode) ? byValue.reversed() : byValue); // stable: ties keep the older
    List<Entry> kept = new ArrayList<>(ranked.subList(0, Math.min(keep, ranked.size())));
    List<Entry> dropped = ranked.subList(kept.size(), ranked.size());
    // A kill from the copy on leaves files the index may not list: the next begin() removes them.
    writeState(kept);
    BestCheckpointsIndex.write(bestDir, metric, mode, kept, checkpointBasename);
    best = kept;
    for (Entry d : dropped) {
      Checkpoints.deleteCheckpoint(bestDir, checkpointBasename, Path.of(prefix(d.step)));
    }
    LOG.log(
        System.Logger.Level.INFO,
        NAME
            + ": step "
            + e.step
            + " ("
            + metric
            + " = "
            + e.value
            + ") is among the best "
            + keep
            + "; kept: "
            + kept);
    return false;
  }

  private String prefix(long step) {
    return Checkpoints.checkpointPrefix(bestDir, checkpointBasename, step).toString();
  }

  private boolean qualifies(double value) {
    if (best.size() < keep) {
      return true;
    }
    double worst = best.get(best.size() - 1).value;
    return "min".equals(mode) ? value < worst : value > worst;
  }

  /**
   * The index's entries whose checkpoints exist, best first; a {@link HookException} naming the
   * file and the entry when the index is not exactly one of this listener's.
   */
  private List<Entry> load() {
    Path path = bestDir.resolve(INDEX_FILE);
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return new ArrayList<>();
    }
    List<Entry> listed;
    try {
      listed = BestCheckpointsIndex.read(path, metric, mode, checkpointBasename);
    } catch (IOException e) {
      throw new HookException(
          NAME, "begin", path + ": cannot be read: " + e + "; remove or repair it", e);
    } catch (IllegalArgumentException e) {
      throw new HookException(NAME, "begin", path + ": " + e.getMessage(), e);
    }
    List<Entry> entries = new ArrayList<>(listed);
    entries.removeIf(en -> !Checkpoints.checkpointExists(prefix(en.step)));
    if (entries.size() < listed.size()) {
      List<Long> missing = new ArrayList<>();
      for (Entry en : listed) {
        if (!entries.contains(en)) {
          missing.add(en.step);
        }
      }
      Collections.sort(missing);
      LOG.log(
          System.Logger.Level.WARNING,
          NAME
              + ": "
              + path
              + " lists steps whose checkpoints are missing; not ranked: "
              + missing);
    }
    Comparator<Entry> byValue = Comparator.comparingDouble(Entry::value);
    entries.sort("max".equals(mode) ? byValue.reversed() : byValue);
    return entries;
  }

  /**
   * Deletes the checkpoint files (regular files {@code <basename>-<digits>.index}, {@code .meta},
   * {@code .data-NNNNN-of-NNNNN}) in the sub-directory whose checkpoint the index does not list:
   * what a kill between a copy and the index write, or before a drop, leaves.
   */
  private void removeOrphans() {
    Set<String> listed = new HashSet<>();
    for (Entry e : best) {
      listed.add(Path.of(prefix(e.step)).getFileName().toString());
    }
    TreeSet<String> removed = new TreeSet<>();
    try (Stream<Path> entries = Files.list(bestDir)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        Matcher m = CHECKPOINT_FILE.matcher(p.getFileName().toString());
        if (m.matches()
            && !listed.contains(m.group(1))
            && Checkpoints.isOwnCheckpoint(bestDir, checkpointBasename, bestDir.resolve(m.group(1)))
            && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(p);
          removed.add(p.getFileName().toString());
        }
      }
    } catch (IOException e) {
      throw new HookException(NAME, "begin", "cannot remove orphans in '" + bestDir + "': " + e, e);
    }
    if (!removed.isEmpty()) {
      LOG.log(
          System.Logger.Level.INFO,
          NAME
              + ": removed checkpoint files its index does not list from "
              + bestDir
              + ": "
              + removed);
    }
  }

  /**
   * Makes the sub-directory's state file list {@code kept} (best first) worst first, so the best is
   * {@code model_checkpoint_path}; with none kept, there is no state file.
   */
  private void writeState(List<Entry> kept) {
    Path path = bestDir.resolve(Checkpoints.STATE_FILE);
    if (kept.isEmpty()) {
      try {
        if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(path);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot remove " + path, e);
      }
      return;
    }
    List<String> worstFirst = new ArrayList<>();
    for (int i = kept.size() - 1; i >= 0; i--) {
      worstFirst.add(Path.of(prefix(kept.get(i).step)).getFileName().toString());
    }
    CheckpointState state = new CheckpointState(worstFirst.get(worstFirst.size() - 1), worstFirst);
    Optional<CheckpointState> current;
    try {
      current = Checkpoints.readState(bestDir);
    } catch (CheckpointStateException e) {
      current = Optional.empty();
    }
    if (!current.equals(Optional.of(state))) {
      Checkpoints.writeState(bestDir, state);
    }
  }

  @Override
  public String toString() {
    return NAME + "(" + metric + ", mode=" + mode + ", keep=" + keep + ", dir=" + bestDir + ")";
  }
}
