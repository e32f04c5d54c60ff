package org.jhooks.tf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.ModelDependentHook;
import org.jhooks.ModelInstance;
import org.jhooks.RunOptions;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.merger.MergedRun;
import org.jhooks.merger.RunMerger;
import org.tensorflow.Graph;
import org.tensorflow.ndarray.NdArray;

/**
 * Runs a tensorflow-java graph with hooks: the JVM twin of TensorFlow's {@code
 * tf.compat.v1.train.MonitoredSession}. The lifecycle, the call order, end of input, errors and
 * recovery follow {@code docs/contract.md} exactly:
 *
 * <ul>
 *   <li>{@link Builder#build()}: {@code modelInstance} is set on every {@link ModelDependentHook},
 *       every hook's {@code beginSession()} runs once, the session is created with the {@link
 *       SessionCreator} and every hook's {@code afterCreateSession} runs.
 *   <li>{@link #run}: every hook's {@code beforeSessionRun} in registration order, one merged run
 *       ({@link RunMerger}), every hook's {@code afterSessionRun} in the same order; returns the
 *       caller's results in the caller's structure, heap copies.
 *   <li>End of input ({@code TFOutOfRangeException}): {@link #run} returns {@code null}, {@link
 *       #shouldStop()} and {@link #reachedEndOfInput()} become true; the failing run gets no
 *       {@code afterSessionRun}; {@link #close()} calls {@code end()}.
 *   <li>ABORTED / UNAVAILABLE (see {@link ErrorCodes}) in a run or a callback: the raw session is
 *       closed and re-created, every hook's {@code afterCreateSession} runs again, the step is
 *       retried from {@code beforeSessionRun}.
 *   <li>Any other error propagates unchanged (a suppressed {@link HookException} names the hook and
 *       callback it came from); the raw session is closed at once and {@code end()} is never
 *       called.
 * </ul>
 *
 * Not thread-safe: drive it from one thread.
 */
public final class MonitoredSession implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(MonitoredSession.class.getName());

  private final Graph graph;
  private final List<Hook> hooks;
  private final List<String> hookNames;
  private final SessionCreator creator;
  private final Predicate<Throwable> recoverable;
  private final int maxRecoveries;
  private final Coordinator coord = new Coordinator();

  private TfSession session;
  private boolean stop;
  private boolean endOfInput;
  private boolean closed;
  private Throwable failure;
  private int recoveries;

  private MonitoredSession(Builder b) {
    this.graph = b.graph;
    this.hooks = Collections.unmodifiableList(new ArrayList<>(b.hooks));
    List<String> names = new ArrayList<>();
    for (int i = 0; i < hooks.size(); i++) {
      names.add(HookNames.name(hooks.get(i), i + 1));
    }
    this.hookNames = names;
    this.creator = b.creator != null ? b.creator : new CheckpointRestoringSessionCreator(null);
    this.recoverable = b.recoverable;
    this.maxRecoveries = b.maxRecoveries;
    for (int i = 0; i < hooks.size(); i++) {
      if (hooks.get(i) instanceof ModelDependentHook) {
        ModelDependentHook h = (ModelDependentHook) hooks.get(i);
        if (b.modelInstance != null) {
          callHook(i, "setModelInstance", () -> h.setModelInstance(b.modelInstance));
        } else if (h.modelInstance() == null) {
          throw new HookException(hookNames.get(i), "beginSession",
              "is a ModelDependentHook but the driver was given no ModelInstance (Builder.modelInstance)");
        }
      }
    }
    for (int i = 0; i < hooks.size(); i++) {
      Hook h = hooks.get(i);
      callHook(i, "beginSession", h::beginSession);
    }
    withRecovery(
        () -> {
          if (session == null) {
            createSession();
          }
          return null;
        },
        true);
  }

  /** A builder for a monitored session running {@code graph}. */
  public static Builder builder(Graph graph) {
    return new Builder(graph);
  }

  /**
   * One hooked run; see the class doc.
   *
   * @param args the caller's fetches, feeds and options; never null
   * @return the caller's results in the structure of {@code args.fetches()} ({@code null} leaves
   *     for targets), or {@code null} when the input ended in this run
   * @throws org.jhooks.HookFeedConflictException two hooks feed the same tensor
   * @throws org.jhooks.CallerFeedConflictException a hook and the caller feed the same tensor
   * @throws IllegalStateException the session is closed or failed before
   */
  public Object run(SessionRunArgs args) {
    Objects.requireNonNull(args, "args");
    return withRecovery(() -> runHooked(args), false);
  }

  /** {@link #run(SessionRunArgs)} with fetches only. */
  public Object run(Object fetches) {
    return run(SessionRunArgs.of(fetches));
  }

  /** {@link #run(SessionRunArgs)} with fetches and feeds. */
  public Object run(Object fetches, Map<String, ? extends NdArray<?>> feeds) {
    return run(SessionRunArgs.of(fetches, feeds));
  }

  /**
   * Runs {@code stepFn} with access to the raw session and to hooked runs, like TensorFlow's
   * {@code run_step_fn}: end of input makes it return {@code null}; a recoverable error re-creates
   * the session and runs {@code stepFn} again.
   */
  public <T> T runStepFn(StepFn<T> stepFn) {
    return withRecovery(() -> stepFn.run(new StepContext(this)), false);
  }

  /** A run on the raw session: no hooks, no recovery, no end-of-input handling. */
  public Object runWithoutHooks(Object fetches, Map<String, ? extends NdArray<?>> feeds, RunOptions options) {
    return session().run(fetches, feeds, options);
  }

  /** The current raw session view (it changes when the session is recovered). */
  public TfSession session() {
    checkUsable();
    return session;
  }

  /** The coordinator hooks received in {@code afterCreateSession}. */
  public Coordinator coordinator() {
    return coord;
  }

  /**
   * Whether training should stop: a hook or step function requested it, the coordinator did, the
   * input ended, or the session was closed.
   */
  public boolean shouldStop() {
    return stop || closed || failure != null || coord.shouldStop();
  }

  /** Whether a run ended with {@code TFOutOfRangeException}. */
  public boolean reachedEndOfInput() {
    return endOfInput;
  }

  /** How many times the session was re-created after an ABORTED or UNAVAILABLE error. */
  public int recoveryCount() {
    return recoveries;
  }

  public List<Hook> hooks() {
    return hooks;
  }

  /**
   * Calls every hook's {@code end()} (unless the session failed, or a coordinator error was
   * reported, which is then thrown) and closes the raw session. The first exception from an
   * {@code end()} stops the loop and propagates; the session is closed regardless. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (failure != null || session == null) {
      return;
    }
    Throwable coordError = coord.error();
    try {
      if (coordError == null) {
        for (int i = 0; i < hooks.size(); i++) {
          Hook h = hooks.get(i);
          TfSession s = session;
          callHook(i, "end", () -> h.end(s));
        }
      }
    } finally {
      closeRaw(null);
    }
    if (coordError != null) {
      closeHooksAfterFailure(coordError);
      throw coordError instanceof RuntimeException
          ? (RuntimeException) coordError
          : new IllegalStateException("a thread reported an error to the coordinator", coordError);
    }
  }

  void requestStop() {
    stop = true;
  }

  /** One hooked run without recovery; see {@link StepContext#runWithHooks}. */
  Object runHooked(SessionRunArgs args) {
    checkUsable();
    TfSession s = session;
    SessionRunContext context = new SessionRunContext(args, s);
    RunMerger merger = new RunMerger(args);
    for (int i = 0; i < hooks.size(); i++) {
      Hook h = hooks.get(i);
      SessionRunArgs hookArgs = callHook(i, "beforeSessionRun", () -> h.beforeSessionRun(context));
      String missing = hookArgs == null ? null : s.missingName(hookArgs);
      if (missing != null) {
        throw new GraphNameException(hookNames.get(i), "beforeSessionRun", missing, "is not in the session's graph");
      }
      if (hookArgs != null) {
        for (Map.Entry<String, ? extends NdArray<?>> feed : hookArgs.feeds().entrySet()) {
          String problem = s.feedProblem(feed.getKey(), feed.getValue());
          if (problem != null) {
            throw new HookException(hookNames.get(i), "beforeSessionRun", "feed '" + feed.getKey() + "': " + problem);
          }
        }
      }
      merger.add(hookNames.get(i), hookArgs);
    }
    MergedRun merged = merger.finish();
    FlatResult result = s.runFlat(merged.tensorFetches(), merged.targets(), merged.feeds(), merged.options());
    for (int i = 0; i < hooks.size(); i++) {
      Hook h = hooks.get(i);
      SessionRunValues values =
          new SessionRunValues(merged.hookResults(i, result::value), merged.options(), result.runMetadata());
      callHook(i, "afterSessionRun", () -> h.afterSessionRun(context, values));
    }
    if (context.stopRequested()) {
      stop = true;
    }
    return merged.callerResults(result::value);
  }

  // The recovery loop of TensorFlow's _RecoverableSession: on ABORTED/UNAVAILABLE close the raw
  // session, create a new one (afterCreateSession again) and retry the whole body.
  private <T> T withRecovery(Supplier<T> body, boolean creating) {
    checkUsable();
    boolean needSession = false;
    while (true) {
      try {
        if (needSession) {
          createSession();
          needSession = false;
        }
        return body.get();
      } catch (RuntimeException | Error e) {
        if (!creating && ErrorCodes.isEndOfInput(e)) {
          endOfInput = true;
          stop = true;
          return null;
        }
        if (recoverable.test(e) && recoveries < maxRecoveries) {
          recoveries++;
          LOG.log(Level.WARNING, "re-creating the session after a recoverable error (recovery " + recoveries + ")", e);
          closeRaw(e);
          needSession = !creating;
          continue;
        }
        failure = e;
        closeRaw(e);
        closeHooksAfterFailure(e);
        throw e;
      }
    }
  }

  private void createSession() {
    org.tensorflow.Session raw = creator.createSession(graph);
    session = creator.wrap(raw, graph);
    coord.clearStop();
    for (int i = 0; i < hooks.size(); i++) {
      Hook h = hooks.get(i);
      TfSession s = session;
      callHook(i, "afterCreateSession", () -> h.afterCreateSession(s, coord));
    }
  }

  // end() is not called after an error (the contract), so a hook holding resources or background
  // work (an AsyncCheckpointSaverHook's write in flight) would lose its failure; closing every
  // AutoCloseable hook waits for that work and attaches what it raises to the error in flight.
  private void closeHooksAfterFailure(Throwable failure) {
    for (int i = 0; i < hooks.size(); i++) {
      if (hooks.get(i) instanceof AutoCloseable) {
        try {
          ((AutoCloseable) hooks.get(i)).close();
        } catch (Exception | Error e) {
          if (e != failure) {
            failure.addSuppressed(new HookException(hookNames.get(i), "close", "failed after the session failed", e));
          }
        }
      }
    }
  }

  private void closeRaw(Throwable pending) {
    TfSession s = session;
    session = null;
    if (s == null) {
      return;
    }
    try {
      s.close();
    } catch (RuntimeException e) {
      if (pending != null) {
        pending.addSuppressed(e);
      } else {
        throw e;
      }
    }
  }

  private void checkUsable() {
    if (failure != null) {
      throw new IllegalStateException("the monitored session failed before and is closed", failure);
    }
    if (closed) {
      throw new IllegalStateException("the monitored session is closed");
    }
  }

  private void callHook(int i, String callback, Runnable call) {
    callHook(i, callback, () -> {
      call.run();
      return null;
    });
  }

  // Errors from hook code propagate unchanged (type matters: end of input, recovery); a suppressed
  // HookException records which hook and callback raised them.
  private <T> T callHook(int i, String callback, Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException | Error e) {
      if (!(e instanceof HookException)) {
        e.addSuppressed(new HookException(hookNames.get(i), callback, "raised " + e.getClass().getName()));
      }
      throw e;
    }
  }

  /** Configures a {@link MonitoredSession}. */
  public static final class Builder {
    private final Graph graph;
    private final List<Hook> hooks = new ArrayList<>();
    private SessionCreator creator;
    private ModelInstance modelInstance;
    private Predicate<Throwable> recoverable = ErrorCodes::isRecoverable;
    private int maxRecoveries = Integer.MAX_VALUE;

    private Builder(Graph graph) {
      this.graph = Objects.requireNonNull(graph, "graph");
    }

    /** Adds hooks, called in the order added. */
    public Builder hooks(List<? extends Hook> more) {
      for (Hook h : more) {
        hooks.add(Objects.requireNonNull(h, "a hook is null"));
      }
      return this;
    }

    public Builder hooks(Hook... more) {
      return hooks(List.of(more));
    }

    /** How sessions are made; default {@link CheckpointRestoringSessionCreator} without a dir. */
    public Builder sessionCreator(SessionCreator sessionCreator) {
      this.creator = sessionCreator;
      return this;
    }

    /** Handed to every {@link ModelDependentHook} before {@code beginSession()}. */
    public Builder modelInstance(ModelInstance instance) {
      this.modelInstance = instance;
      return this;
    }

    /** Which errors re-create the session; default {@link ErrorCodes#isRecoverable}. */
    public Builder recoverableWhen(Predicate<Throwable> predicate) {
      this.recoverable = Objects.requireNonNull(predicate);
      return this;
    }

    /** At most this many re-creations, then the error propagates; default unlimited, as TensorFlow. */
    public Builder maxRecoveries(int max) {
      this.maxRecoveries = max;
      return this;
    }

    /**
     * Runs the hooks' {@code beginSession()}, creates the session and runs {@code
     * afterCreateSession}.
     */
    public MonitoredSession build() {
      return new MonitoredSession(this);
    }
  }
}
