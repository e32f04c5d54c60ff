package org.jhooks.bridgetest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.tensorflow.ndarray.NdArray;
import org.tensorflow.ndarray.NdArrays;

/**
 * A Java hook that passes one kind of bad input in {@code beforeSessionRun}, named by {@code what}:
 * {@code pastOutputs} (fetch {@code double:5}; the op has one output), {@code nullKey} (a feed
 * keyed null), {@code wrongFetchType} (an Integer fetch), {@code notAnArray} (a Float feed value,
 * through raw types), {@code rawPastOutputs} / {@code rawWrongFetchType} (the same through a raw
 * run of {@code runContext.session()}). {@code coordNull} records whether {@code
 * afterCreateSession} got a null coordinator.
 */
public final class BadArgsHook implements Hook {
  private final String what;
  public static final List<String> LOG = new java.util.concurrent.CopyOnWriteArrayList<>();

  public BadArgsHook(String what) {
    this.what = what;
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    LOG.add("afterCreateSession coord=" + (coord == null ? "null" : "set"));
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    switch (what) {
      case "pastOutputs":
        return SessionRunArgs.of("double:5");
      case "nullKey":
        {
          Map<String, NdArray<?>> feeds = new HashMap<>();
          feeds.put(null, NdArrays.scalarOf(1f));
          return SessionRunArgs.of(null, feeds);
        }
      case "wrongFetchType":
        return SessionRunArgs.of(3);
      case "notAnArray":
        {
          Map raw = new HashMap();
          raw.put("y:0", 2.5f);
          return SessionRunArgs.of(null, raw);
        }
      case "rawPastOutputs":
        runContext.session().run("double:5", Map.of(), null);
        return null;
      case "rawWrongFetchType":
        runContext.session().run(3, Map.of(), null);
        return null;
      default:
        return null;
    }
  }
}
