package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jhooks.CallerFeedConflictException;
import org.jhooks.Hook;
import org.jhooks.HookFeedConflictException;
import org.jhooks.ModelInstance;
import org.jhooks.checkpoint.CheckpointState;
import org.jhooks.checkpoint.Checkpoints;
import org.jhooks.testing.FaultInjectingSessionCreator;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.ErrorCodes;
import org.jhooks.tf.SessionCreator;
import org.tensorflow.Graph;
import org.tensorflow.Session;
import org.tensorflow.ndarray.NdArray;

/**
 * Runs one conformance scenario on a {@link ConformanceDriver} (by default the JVM driver, {@link
 * MonitoredTrainingSessionDriver}): makes the scenario's hooks (Java, or another language's through
 * {@link ForeignHooks}) recording into one {@link Recorder}, adds a user's hooks last, gives the
 * driver a {@link CheckpointRestoringSessionCreator} of the scenario's checkpoint dir (or a user's
 * creator) wrapped in a {@link FaultInjectingSessionCreator} counting runs of {@code train} for
 * {@code recoveryFaults}, and returns what happened as an observation, which {@link
 * Expectations#compare} checks against the scenario. See {@code docs/conformance.md}, "Runners".
 *
 * <p>The observation (JSON): {@code trace}, {@code results}, {@code listenerTrace}, {@code saves},
 * {@code callerRuns}, {@code callerResults}, {@code withoutHooksResults}, {@code outcome} ({@code
 * kind}; {@code error}: an {@link ErrorDescriptions} object; for feed conflicts {@code which}),
 * {@code finalOpsValues}, {@code stateFile} (basenames, or null), {@code checkpointValues} (step to
 * variable to value, for every checkpoint the state file lists) and {@code hookPositions} (hook
 * name to its 1-based place in the driver's hook list, as error messages name hooks).
 */
public final class JvmScenarioRunner {
  private JvmScenarioRunner() {}

  /** Every hook in Java, on the JVM driver. */
  public static JsonObject run(JsonObject scenario, Path workDir) {
    return run(scenario, javaLanguages(scenario), null, workDir);
  }

  /** A {@code "java"} per hook of the scenario. */
  public static List<String> javaLanguages(JsonObject scenario) {
    List<String> languages = new ArrayList<>();
    scenario.getAsJsonArray("hooks").forEach(h -> languages.add("java"));
    return languages;
  }

  /**
   * @param languages per hook of the scenario, {@code "java"} or {@code "python"} (made by {@code
   *     foreign})
   * @param workDir an empty dir for the checkpoint dir
   */
  public static JsonObject run(
      JsonObject scenario, List<String> languages, ForeignHooks foreign, Path workDir) {
    return run(scenario, languages, foreign, workDir, List.of(), null, null);
  }

  /**
   * Runs the scenario once on {@code driver} and returns the observation.
   *
   * @param languages per hook of the scenario, {@code "java"} or {@code "python"} (made by {@code
   *     foreign}, which may be null when every hook is Java)
   * @param workDir an empty dir for the checkpoint dir
   * @param extraHooks hooks registered after the scenario's (a user's hook under test, see {@link
   *     GuardedHook}); made for this run only
   * @param driver the driver, or null for {@link MonitoredTrainingSessionDriver}
   * @param sessionCreators (checkpoint dir or null) to the session creator the driver is given
   *     (recovery faults wrap it), or null for {@link CheckpointRestoringSessionCreator}
   */
  public static JsonObject run(
      JsonObject scenario,
      List<String> languages,
      ForeignHooks foreign,
      Path workDir,
      List<Hook> extraHooks,
      ConformanceDriver driver,
      Function<Path, SessionCreator> sessionCreators) {
    ConformanceDriver theDriver = driver != null ? driver : new MonitoredTrainingSessionDriver();
    JsonObject driverSpec = scenario.getAsJsonObject("driver");
    boolean chief = !driverSpec.has("isChief") || driverSpec.get("isChief").getAsBoolean();
    Path checkpointDir = null;
    if (driverSpec.has("checkpointDir") && driverSpec.get("checkpointDir").getAsBoolean()) {
      checkpointDir = workDir.resolve("checkpoints");
      try {
        Files.createDirectories(checkpointDir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Recorder recorder = new Recorder();
    JsonObject observation = new JsonObject();
    try (Graph graph = new Graph()) {
      ModelInstance model = theDriver.buildModel(graph, scenario.getAsJsonObject("model"));
      List<Hook> chiefOnly = new ArrayList<>();
      List<Hook> others = new ArrayList<>();
      Map<Hook, String> names = new IdentityHashMap<>();
      Map<String, Hook> finalOps = new LinkedHashMap<>();
      JsonArray hooks = scenario.getAsJsonArray("hooks");
      for (int i = 0; i < hooks.size(); i++) {
        JsonObject spec = hooks.get(i).getAsJsonObject();
        String name = spec.get("name").getAsString();
        boolean java = languages.get(i).equals("java");
        Hook h;
        if (java) {
          h =
              spec.has("standard")
                  ? StandardHooks.create(spec, checkpointDir, recorder)
                  : ScriptedHook.create(spec, recorder);
        } else {
          h =
              foreign.create(
                  spec.toString(),
                  recorder,
                  checkpointDir == null ? null : checkpointDir.toString());
        }
        names.put(h, name);
        if (spec.has("standard")
            && spec.getAsJsonObject("standard").get("type").getAsString().equals("FinalOpsHook")) {
          finalOps.put(name, java ? h : null);
        }
        boolean chiefOnlyHook = spec.has("chiefOnly") && spec.get("chiefOnly").getAsBoolean();
        (chiefOnlyHook ? chiefOnly : others).add(h);
      }
      others.addAll(extraHooks);
      SessionCreator creator =
          sessionCreators != null
              ? sessionCreators.apply(checkpointDir)
              : new CheckpointRestoringSessionCreator(checkpointDir);
      if (driverSpec.has("recoveryFaults")) {
        FaultInjectingSessionCreator faults = new FaultInjectingSessionCreator(creator, "train");
        driverSpec
            .getAsJsonArray("recoveryFaults")
            .forEach(
                f ->
                    faults.failRun(
                        f.getAsJsonObject().get("atAttempt").getAsInt(), ErrorCodes.Code.ABORTED));
        creator = faults;
      }
      DriverSetup setup =
          new DriverSetup(graph, model, chief, chiefOnly, others, checkpointDir, creator);
      JsonObject positions = new JsonObject();
      List<Hook> all = setup.allHooks();
      for (int i = 0; i < all.size(); i++) {
        if (names.containsKey(all.get(i))) {
          positions.addProperty(names.get(all.get(i)), i + 1);
        }
      }
      observation.add("hookPositions", positions);
      JsonObject caller = scenario.getAsJsonObject("caller");
      Object fetches =
          Values.fetchStructure(
              caller.has("fetches")
                  ? caller.get("fetches")
                  : new com.google.gson.JsonPrimitive("train"));
      Map<String, NdArray<?>> feeds =
          caller.has("feeds") ? Values.feeds(caller.getAsJsonObject("feeds")) : Map.of();
      List<RunWithoutHooks> withoutHooks = new ArrayList<>();
      if (caller.has("withoutHooks")) {
        for (com.google.gson.JsonElement w : caller.getAsJsonArray("withoutHooks")) {
          JsonObject o = w.getAsJsonObject();
          withoutHooks.add(
              new RunWithoutHooks(
                  o.get("afterRun").getAsInt(),
                  Values.fetchStructure(o.get("fetches")),
                  o.has("feeds") ? Values.feeds(o.getAsJsonObject("feeds")) : Map.of()));
        }
      }
      DriverOutcome outcome =
          theDriver.run(
              setup, new Caller(caller.get("maxRuns").getAsInt(), fetches, feeds, withoutHooks));
      describeOutcome(outcome, observation);
      JsonObject finalValues = new JsonObject();
      finalOps.forEach(
          (name, h) ->
              finalValues.add(
                  name,
                  h != null
                      ? StandardHooks.finalOpsValues(h)
                      : JsonParser.parseString(foreign.finalOpsValues(name))));
      observation.add("finalOpsValues", finalValues);
    }
    JsonArray trace = new JsonArray();
    recorder.trace().forEach(trace::add);
    observation.add("trace", trace);
    observation.add("results", recorder.results());
    JsonArray listenerTrace = new JsonArray();
    recorder.listenerTrace().forEach(listenerTrace::add);
    observation.add("listenerTrace", listenerTrace);
    JsonArray saves = new JsonArray();
    recorder.saves().forEach(saves::add);
    observation.add("saves", saves);
    checkpoints(checkpointDir, observation);
    return observation;
  }

  private static void describeOutcome(DriverOutcome driven, JsonObject observation) {
    JsonArray callerResults = new JsonArray();
    driven.callerResults().forEach(r -> callerResults.add(Values.toJson(r)));
    JsonObject outcome = new JsonObject();
    Throwable e = driven.error();
    if (e == null) {
      outcome.addProperty(
          "kind", driven.endOfInput() ? "endOfInput" : driven.stopped() ? "stopped" : "normal");
    } else {
      boolean conflict =
          e instanceof HookFeedConflictException || e instanceof CallerFeedConflictException;
      outcome.addProperty("kind", conflict ? "conflict" : "error");
      if (conflict) {
        outcome.addProperty("which", e instanceof HookFeedConflictException ? "hook" : "caller");
      }
      outcome.add("error", ErrorDescriptions.describe(e));
    }
    observation.addProperty("callerRuns", driven.callerRuns());
    observation.add("callerResults", callerResults);
    JsonArray withoutHooksResults = new JsonArray();
    driven.withoutHooksResults().forEach(r -> withoutHooksResults.add(Values.toJson(r)));
    observation.add("withoutHooksResults", withoutHooksResults);
    observation.add("outcome", outcome);
  }

  private static void checkpoints(Path dir, JsonObject observation) {
    stateAndValues(dir, observation);
    observation.add("stepsOnDisk", stepsOnDisk(dir));
    observation.add("graph", graphFiles(dir));
    JsonObject subdirs = new JsonObject();
    if (dir != null && Files.isDirectory(dir)) {
      try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
        for (Path sub :
            entries
                .filter(p -> Files.isRegularFile(p.resolve(Checkpoints.STATE_FILE)))
                .sorted()
                .collect(java.util.stream.Collectors.toList())) {
          JsonObject o = new JsonObject();
          stateAndValues(sub, o);
          o.add("stepsOnDisk", stepsOnDisk(sub));
          subdirs.add(sub.getFileName().toString(), o);
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    observation.add("subdirs", subdirs);
  }

  /**
   * {@code nodes}: the sorted node names of {@code <dir>/graph.pbtxt} (a text GraphDef), null
   * without the file; {@code events}: {@code graph_def} / {@code meta_graph_def} for each graph
   * event of the dir's event files, in order. What TF's CheckpointSaverHook writes at session
   * creation; twin of Python's {@code jhooks.conformance.python_driver.graph_files}.
   */
  private static JsonObject graphFiles(Path dir) {
    JsonObject out = new JsonObject();
    JsonArray events = new JsonArray();
    out.add("nodes", JsonNull.INSTANCE);
    out.add("events", events);
    if (dir == null || !Files.isDirectory(dir)) {
      return out;
    }
    try {
      Path graph = dir.resolve(Checkpoints.GRAPH_FILE);
      if (Files.isRegularFile(graph)) {
        JsonArray nodes = new JsonArray();
        com.google.protobuf.TextFormat.parse(
                Files.readString(graph), org.tensorflow.proto.GraphDef.class)
            .getNodeList()
            .stream()
            .map(org.tensorflow.proto.NodeDef::getName)
            .sorted()
            .forEach(nodes::add);
        out.add("nodes", nodes);
      }
      List<Path> files;
      try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
        files =
            entries
                .filter(p -> p.getFileName().toString().startsWith("events.out.tfevents."))
                .sorted()
                .collect(java.util.stream.Collectors.toList());
      }
      for (Path f : files) {
        for (org.tensorflow.proto.Event e : eventsOf(f)) {
          if (e.hasGraphDef()) {
            events.add("graph_def");
          }
          if (e.hasMetaGraphDef()) {
            events.add("meta_graph_def");
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The Event records of a TFRecord event file (lengths and CRCs as TensorFlow frames them). */
  private static List<org.tensorflow.proto.Event> eventsOf(Path file) throws IOException {
    java.nio.ByteBuffer b =
        java.nio.ByteBuffer.wrap(Files.readAllBytes(file)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    List<org.tensorflow.proto.Event> out = new ArrayList<>();
    while (b.remaining() >= 12) {
      int n = (int) b.getLong();
      b.getInt(); // the length's masked CRC
      byte[] data = new byte[n];
      b.get(data);
      b.getInt(); // the data's masked CRC
      out.add(org.tensorflow.proto.Event.parseFrom(data));
    }
    return out;
  }

  private static final java.util.regex.Pattern CHECKPOINT_FILE =
      java.util.regex.Pattern.compile("^.+-([0-9]+)\\.(?:index|data-[0-9]{5}-of-[0-9]{5})$");

  /** The global steps of every checkpoint index or data file in {@code dir}, sorted. */
  private static JsonArray stepsOnDisk(Path dir) {
    java.util.TreeSet<Long> steps = new java.util.TreeSet<>();
    if (dir != null && Files.isDirectory(dir)) {
      try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
        entries.forEach(
            p -> {
              java.util.regex.Matcher m = CHECKPOINT_FILE.matcher(p.getFileName().toString());
              if (m.matches()) {
                steps.add(Long.parseLong(m.group(1)));
              }
            });
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    JsonArray out = new JsonArray();
    steps.forEach(out::add);
    return out;
  }

  private static void stateAndValues(Path dir, JsonObject observation) {
    JsonObject values = new JsonObject();
    Optional<CheckpointState> state = dir == null ? Optional.empty() : Checkpoints.readState(dir);
    if (state.isEmpty()) {
      observation.add("stateFile", JsonNull.INSTANCE);
      observation.add("checkpointValues", values);
      return;
    }
    JsonObject stateFile = new JsonObject();
    stateFile.addProperty("modelCheckpointPath", basename(state.get().modelCheckpointPath()));
    JsonArray all = new JsonArray();
    for (String p : state.get().allModelCheckpointPaths()) {
      all.add(basename(p));
      Path prefix = Path.of(p).isAbsolute() ? Path.of(p) : dir.resolve(p);
      String b = basename(p);
      if (b.matches(".*[*?\\[].*")) {
        continue; // TensorFlow's reader takes the prefix as a file pattern
      }
      values.add(b.substring(b.lastIndexOf('-') + 1), variables(prefix));
    }
    stateFile.add("allModelCheckpointPaths", all);
    observation.add("stateFile", stateFile);
    observation.add("checkpointValues", values);
  }

  private static String basename(String path) {
    return Path.of(path).getFileName().toString();
  }

  /** The variables stored at {@code prefix}, read by restoring them into a fresh recipe graph. */
  static JsonObject variables(Path prefix) {
    JsonObject out = new JsonObject();
    try (Graph g = new Graph()) {
      ModelRecipe.build(g, new JsonObject());
      try (Session s = new Session(g)) {
        s.restore(prefix.toString());
        for (String v : List.of("global_step", "counter")) {
          try (org.tensorflow.Result r = s.runner().fetch(v).run()) {
            out.add(v, Values.toJson(org.jhooks.tf.TensorValues.copyOf(r.get(0))));
          }
        }
      }
    }
    return out;
  }
}
