package org.jhooks.bridgetest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.tensorflow.ndarray.NdArray;

/**
 * A Java hook for the bridge tests: appends "name.callback ..." to a shared log, asks for the
 * fetches and feeds it is given, optionally requests a stop at a run, and describes every value it
 * sees as "dtype shape value".
 */
public class RecordingHook implements Hook {
  public static final List<String> LOG = Collections.synchronizedList(new ArrayList<>());

  protected final String name;
  private final Object fetches;
  private final Map<String, NdArray<?>> feeds;
  private final int stopAtRun;
  private int runs;

  public RecordingHook(String name, Object fetches, Map<String, NdArray<?>> feeds, int stopAtRun) {
    this.name = name;
    this.fetches = fetches;
    this.feeds = feeds;
    this.stopAtRun = stopAtRun;
  }

  public RecordingHook(String name) {
    this(name, null, null, -1);
  }

  public RecordingHook(String name, Object fetches) {
    this(name, fetches, null, -1);
  }

  protected void log(String entry) {
    LOG.add(name + "." + entry);
  }

  @Override
  public void begin() {
    log("begin");
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    log("afterCreateSession step=" + session.globalStep());
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    log("beforeSessionRun caller=" + describe(runContext.originalArgs().fetches()));
    if (fetches == null && feeds == null) {
      return null;
    }
    return SessionRunArgs.of(fetches, feeds);
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    runs++;
    log("afterSessionRun " + describe(runValues.results()));
    if (runs == stopAtRun) {
      runContext.requestStop();
    }
  }

  @Override
  public void end(Session session) {
    log("end step=" + session.globalStep());
  }

  /** "dtype[shape]=values" for arrays, the same structure for lists and maps. */
  public static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof NdArray) {
      NdArray<?> a = (NdArray<?>) value;
      StringBuilder values = new StringBuilder();
      a.scalars()
          .forEach(s -> values.append(values.length() == 0 ? "" : ",").append(s.getObject()));
      return org.jhooks.bridge.NumpyArrays.dtype(a)
          + java.util.Arrays.toString(a.shape().asArray())
          + "="
          + values;
    }
    if (value instanceof List) {
      List<String> out = new ArrayList<>();
      for (Object e : (List<?>) value) {
        out.add(describe(e));
      }
      return out.toString();
    }
    if (value instanceof Map) {
      StringBuilder out = new StringBuilder("{");
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        out.append(out.length() == 1 ? "" : ", ")
            .append(e.getKey())
            .append('=')
            .append(describe(e.getValue()));
      }
      return out.append('}').toString();
    }
    return String.valueOf(value);
  }
}
