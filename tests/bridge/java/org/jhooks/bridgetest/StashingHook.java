package org.jhooks.bridgetest;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.FloatNdArray;
import org.tensorflow.ndarray.NdArrays;

/**
 * Breaks the ownership rule on purpose (docs/bridge.md, "Arrays and ownership"): fetches a float32
 * tensor every run, keeps the view it received in the first run (and a copy of it), and in every
 * later callback reads the kept view on this thread and on another one. Each read is logged as
 * {@code "<run> <thread> ok <first element> <last element>"} or {@code "<run> <thread> <exception
 * class>: <message>"} into {@link #reads}.
 */
public class StashingHook implements Hook {
  private final String tensor;
  private FloatNdArray stashed;
  private FloatNdArray copy;
  private int run;
  public final List<String> reads = new CopyOnWriteArrayList<>();

  public StashingHook(String tensor) {
    this.tensor = tensor;
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    return SessionRunArgs.of(tensor);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    run++;
    if (stashed == null) {
      stashed = (FloatNdArray) runValues.results();
      copy = NdArrays.ofFloats(stashed.shape());
      stashed.copyTo(copy); // the rule's way to keep a value
    }
    reads.add(read(run + " callback"));
    String[] other = new String[1];
    Thread thread = new Thread(() -> other[0] = read(run + " thread"));
    thread.start();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    reads.add(other[0]);
  }

  private String read(String where) {
    try {
      long last = stashed.size() - 1;
      // an element read, then a bulk copy: both must be checked
      float first = stashed.getFloat(0);
      FloatNdArray again = NdArrays.ofFloats(stashed.shape());
      stashed.copyTo(again);
      return where + " ok " + first + " " + again.getFloat(last);
    } catch (RuntimeException e) {
      return where + " " + e.getClass().getName() + ": " + e.getMessage();
    }
  }

  /** The first element of the copy made in the first callback. */
  public float copiedFirst() {
    return copy.getFloat(0);
  }

  /** The element at {@code index} of the kept view, read now (throws once its lease ended). */
  public float stashedAt(long index) {
    return stashed.getFloat(index);
  }
}
