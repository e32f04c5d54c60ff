package org.jhooks.hooks;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.HookException;
import org.jhooks.Session;
import org.jhooks.checkpoint.CheckpointState;
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
 * continues the ranking. A tie does not replace a kept checkpoint; a NaN metric never qualifies.
 * Files are copied, never moved: the saver's own checkpoints and rotation are untouched. The
 * listener writes and deletes only inside the sub-directory, and deletes only the {@code
 * <basename>-<step>} checkpoints it dropped from its own list. See {@code docs/standard-hooks.md}.
 */
public final class BestCheckpointsListener implements CheckpointSaverListener {
  private static final String NAME = "BestCheckpointsListener";

  /** The metric index file in the sub-directory. */
  public static final String INDEX_FILE = "best_checkpoints.json";

  private static final System.Logger LOG =
      System.getLogger("org.jhooks.hooks.BestCheckpointsListener");
  private static final Gson GSON = new GsonBuilder().setPrettyPrinting().create();

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
    Checkpoints.cleanStaleTemporaries(bestDir, checkpointBasename); // incl. half-copied files
    try (java.util.stream.Stream<Path> entries = Files.list(bestDir)) {
      for (Path p : (Iterable<Path>) entries::iterator) { // an index file a killed write left
        if (p.getFileName().toString().startsWith(INDEX_FILE + ".tmp")
            && Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(p);
        }
      }
    } catch (IOException e) {
      throw new HookException(NAME, "begin", "cannot clean '" + bestDir + "': " + e, e);
    }
    best = load();
    pending = null;
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
    if (e == null || Double.isNaN(e.value) || !qualifies(e.value)) {
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
    List<String> worstFirst = new ArrayList<>();
    for (int i = kept.size() - 1; i >= 0; i--) {
      worstFirst.add(Path.of(prefix(kept.get(i).step)).getFileName().toString());
    }
    Checkpoints.writeState(
        bestDir, new CheckpointState(worstFirst.get(worstFirst.size() - 1), worstFirst));
    best = kept;
    writeIndex();
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

  private List<Entry> load() {
    Path path = bestDir.resolve(INDEX_FILE);
    if (!Files.exists(path)) {
      return new ArrayList<>();
    }
    JsonObject data;
    List<Entry> entries = new ArrayList<>();
    try {
      data = JsonParser.parseString(Files.readString(path)).getAsJsonObject();
      for (JsonElement el : data.getAsJsonArray("best")) {
        JsonObject o = el.getAsJsonObject();
        entries.add(new Entry(number(o, "step").getAsLong(), number(o, "value").getAsDouble()));
      }
    } catch (IOException | RuntimeException e) { // Gson: ClassCast, NumberFormat, IllegalState...
      throw new HookException(
          NAME, "begin", "cannot read " + path + ": " + e + "; remove or repair it", e);
    }
    String theirMetric = text(data, "metric");
    String theirMode = text(data, "mode");
    if (!metric.equals(theirMetric) || !mode.equals(theirMode)) {
      throw new HookException(
          NAME,
          "begin",
          path
              + " ranks '"
              + theirMetric
              + "' ("
              + theirMode
              + "), not '"
              + metric
              + "' ("
              + mode
              + "); use another subdir");
    }
    entries.removeIf(en -> !Checkpoints.checkpointExists(prefix(en.step)));
    Comparator<Entry> byValue = Comparator.comparingDouble(Entry::value);
    entries.sort("max".equals(mode) ? byValue.reversed() : byValue);
    return entries;
  }

  /** {@code o.name} if it is a JSON number (as Python's twin: not a boolean, not a string). */
  private static JsonElement number(JsonObject o, String name) {
    JsonElement e = o.get(name);
    if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
      throw new IllegalStateException(name + " is not a number: " + e);
    }
    return e;
  }

  /** {@code data.name} as text: a JSON string's value, else the JSON ({@code null} when absent). */
  private static String text(JsonObject data, String name) {
    JsonElement e = data.get(name);
    return e == null ? null : e.isJsonPrimitive() ? e.getAsString() : e.toString();
  }

  private void writeIndex() {
    JsonObject data = new JsonObject();
    data.addProperty("metric", metric);
    data.addProperty("mode", mode);
    JsonArray list = new JsonArray();
    for (Entry b : best) {
      JsonObject o = new JsonObject();
      o.addProperty("step", b.step);
      o.addProperty("value", b.value);
      o.addProperty("checkpoint", Path.of(prefix(b.step)).getFileName().toString());
      list.add(o);
    }
    data.add("best", list);
    Path tmp = null;
    try {
      tmp = Files.createTempFile(bestDir, INDEX_FILE + ".tmp", "");
      Files.writeString(tmp, GSON.toJson(data) + "\n", StandardCharsets.UTF_8);
      Files.move(
          tmp,
          bestDir.resolve(INDEX_FILE),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + bestDir.resolve(INDEX_FILE), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the write's own error is being thrown
        }
      }
    }
  }

  @Override
  public String toString() {
    return NAME + "(" + metric + ", mode=" + mode + ", keep=" + keep + ", dir=" + bestDir + ")";
  }
}
