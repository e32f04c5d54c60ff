package org.jhooks.tf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jhooks.Coordinator;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.HookNames;
import org.jhooks.Logs;
import org.jhooks.ModelDependentHook;
import org.jhooks.ModelInstance;
import org.jhooks.Nest;
import org.jhooks.RunOptions;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunArgsException;
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
 *       #shouldStop()} and {@link #reachedEndOfInput()} become true; the failing run gets no {@code
 *       afterSessionRun}; {@link #close()} calls {@code end()}.
 *   <li>ABORTED / UNAVAILABLE (see {@link ErrorCodes}) in a run or a callback: the raw session is
 *       closed and re-created, every hook's {@code afterCreateSession} runs again, the step is
 *       retried from {@code beforeSessionRun}.
 *   <li>An end of input raised by a hook callback (its code, its raw runs, a listener, a final op),
 *       or a Java {@link Error} from one, is a {@link HookException} naming the hook and callback,
 *       with the original as its cause: only the caller's own run ends the input.
 *   <li>Any other error propagates unchanged (a suppressed {@link HookException} names the hook and
 *       callback it came from); the raw session is closed at once and {@code end()} is never
 *       called.
 * </ul>
 *
 * Not thread-safe: drive it from one thread.
 */
public final class MonitoredSession implements AutoCloseable {
  private static final System.Logger LOG = Logs.get(MonitoredSession.class.getName());

  private final Graph graph;
  private final List<Hook> hooks;
  private final List<String> hookNames;
  // The hooks as the run loop calls them: one hook, or a batch of consecutive ones (HookBatch);
  // and each hook alone, as the other callbacks call it.
  private final List<HookUnit> units;
  private final HookUnit[] singles;
  // Per hook: the args it last returned that the run loop accepted (a batch's repeated args).
  private final SessionRunArgs[] accepted;
  // The last run's plan on session `planned`: what the caller and each hook asked for, as fetch
  // keys (fetchKey), and the merged run made of it, reused while every key repeats. A hook whose
  // key repeats is not checked again: its names passed on this session before.
  private final Object[] hookKeys;
  private Object callerKey;
  private MergedRun plannedRun;
  private TfSession planned;
  private final SessionCreator creator;
  private final Predicate<Throwable> recoverable;
  private final int maxRecoveries;
  private final Coordinator coord = new Coordinator();

  private TfSession session;
  private boolean stop;
  private boolean endOfInput;
  private boolean closed;
  // Which hooks got afterCreateSession (onError goes to them), and whether onError was sent.
  private boolean[] gotSession;
  private boolean errorNotified;
  private Throwable failure;
  private int recoveries;
  // For the JVM's exit (SessionExit): a stop it asked for (a recovery keeps it), the thread that
  // drives this session, how many of its calls are in progress and when the last one ended.
  private volatile boolean exitStop;
  private volatile Thread driver = Thread.currentThread();
  private volatile int calls;
  private volatile long lastCall = System.nanoTime();

  private MonitoredSession(Builder b) {
    this.graph = b.graph;
    this.hooks = Collections.unmodifiableList(new ArrayList<>(b.hooks));
    List<String> names = new ArrayList<>();
    for (int i = 0; i < hooks.size(); i++) {
      names.add(HookNames.name(hooks.get(i), i + 1));
    }
    this.hookNames = names;
    this.units = HookUnit.of(hooks, hookNames);
    this.singles = new HookUnit[hooks.size()];
    for (int i = 0; i < hooks.size(); i++) {
      singles[i] = HookUnit.single(i, hookNames);
    }
    this.accepted = new SessionRunArgs[hooks.size()];
    this.hookKeys = new Object[hooks.size()];
    this.creator = b.creator != null ? b.creator : new CheckpointRestoringSessionCreator(null);
    this.recoverable = b.recoverable;
    this.maxRecoveries = b.maxRecoveries;
    for (int i = 0; i < hooks.size(); i++) {
      if (hooks.get(i) instanceof ModelDependentHook) {
        ModelDependentHook h = (ModelDependentHook) hooks.get(i);
        if (b.modelInstance != null) {
          callHook(i, "setModelInstance", () -> h.setModelInstance(b.modelInstance));
        } else if (h.modelInstance() == null) {
          throw new HookException(
              hookNames.get(i),
              "beginSession",
              "is a ModelDependentHook but the driver was given no ModelInstance"
                  + " (Builder.modelInstance)");
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
    SessionExit.opened(this);
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
   * @throws HookException called from inside one of this session's hook callbacks (re-entrant),
   *     naming that hook and callback
   */
  public Object run(SessionRunArgs args) {
    Objects.requireNonNull(args, "args");
    checkNotReentrant("run");
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
   * Runs {@code stepFn} with access to the raw session and to hooked runs, like TensorFlow's {@code
   * run_step_fn}: end of input makes it return {@code null}; a recoverable error re-creates the
   * session and runs {@code stepFn} again.
   */
  public <T> T runStepFn(StepFn<T> stepFn) {
    checkNotReentrant("runStepFn");
    return withRecovery(() -> stepFn.run(new StepContext(this)), false);
  }

  /**
   * One run that fires no hook (TF #11971), for initializer and evaluation runs between training
   * steps: no {@code beforeSessionRun}/{@code afterSessionRun}, so hooks' run counts and schedules
   * do not see it (a run of the train op still moves the global step, which step-based hooks read
   * in their next run). Twin of Python's {@code jhooks.tf.run_without_hooks}.
   *
   * <p>Recovery and errors as {@link #run}, like TensorFlow's {@code MonitoredSession.run_step_fn}
   * ({@code _RecoverableSession}): an ABORTED/UNAVAILABLE error closes the raw session, creates a
   * new one (every hook's {@code afterCreateSession} again, not {@code beginSession}) and retries
   * the run on it; any other error propagates unchanged after every hook that got {@code
   * afterCreateSession} got {@code onError}, and the session is failed ({@code end()} is not
   * called).
   *
   * @param fetches a tensor name {@code "op:N"}, an op name (a target, {@code null} in the result),
   *     or a list/map nest of them ({@link Nest})
   * @param feeds tensor name to value (dtype and shape of the endpoint); may be null
   * @param options run options or null
   * @return heap copies in the structure of {@code fetches}, or {@code null} when the input ended
   *     in this run ({@link #reachedEndOfInput()} and {@link #shouldStop()} become true)
   * @throws IllegalArgumentException a name not in the graph or a feed that does not fit its
   *     tensor, naming it (the session fails, as for any error)
   * @throws IllegalStateException the session is closed or failed before
   * @throws HookException called from inside one of this session's hook callbacks (a recovery there
   *     would replace the session under the running hook): use the session the callback was given
   */
  public Object runWithoutHooks(
      Object fetches, Map<String, ? extends NdArray<?>> feeds, RunOptions options) {
    checkNotReentrant("runWithoutHooks");
    return withRecovery(() -> session.run(fetches, feeds, options), false);
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
   * input ended, the session was closed, or the JVM is exiting ({@link SessionExit}).
   */
  public boolean shouldStop() {
    lastCall = System.nanoTime();
    return stop || exitStop || closed || failure != null || coord.shouldStop();
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
   * reported, which is then thrown) and closes the raw session. The first exception from an {@code
   * end()} stops the loop and propagates; the session is closed regardless. Idempotent.
   */
  @Override
  public void close() {
    checkNotReentrant("close");
    if (closed) {
      return;
    }
    closed = true;
    if (failure != null || session == null) {
      SessionExit.closed(this);
      return;
    }
    calls++;
    Throwable coordError = coord.error();
    try {
      if (coordError == null) {
        for (int i = 0; i < hooks.size(); i++) {
          Hook h = hooks.get(i);
          TfSession s = session;
          callHook(i, "end", () -> h.end(s));
        }
      } else {
        notifyError(coordError);
        closeHooksAfterFailure(coordError); // before the session: writes in flight read it
      }
    } catch (RuntimeException | Error e) {
      notifyError(e);
      throw e;
    } finally {
      closeRaw(null);
      calls--;
      SessionExit.closed(this);
    }
    if (coordError != null) {
      throw coordError instanceof RuntimeException
          ? (RuntimeException) coordError
          : new IllegalStateException("a thread reported an error to the coordinator", coordError);
    }
  }

  void requestStop() {
    stop = true;
  }

  /** The JVM is exiting ({@link SessionExit}): stop after the run in progress. */
  void requestExitStop() {
    exitStop = true;
  }

  /**
   * Whether the exit should wait for this session: it has not failed, its thread is alive and not
   * exiting itself, and that thread is in a call on it (close() included) or, the session open, out
   * of one for less than {@code idleNanos}.
   */
  boolean drivenWithin(long idleNanos) {
    Thread t = driver;
    if (failure != null || !t.isAlive() || callsExit(t)) {
      return false;
    }
    if (calls > 0) { // close() too: it is closed from its start, and end() runs in it
      return true;
    }
    return !closed && System.nanoTime() - lastCall < idleNanos;
  }

  private static boolean callsExit(Thread t) {
    for (StackTraceElement e : t.getStackTrace()) {
      if (e.getClassName().equals("java.lang.Shutdown")) {
        return true;
      }
    }
    return false;
  }

  /** One hooked run without recovery; see {@link StepContext#runWithHooks}. */
  Object runHooked(SessionRunArgs args) {
    checkUsable();
    TfSession s = session;
    if (planned != s) { // a new session (recovery): check every name on it again
      planned = s;
      plannedRun = null;
      java.util.Arrays.fill(hookKeys, null);
    }
    MergedRun last = plannedRun;
    plannedRun = null; // until this run's hooks all returned
    Object key = fetchKey(args);
    boolean repeated = last != null && key != null && key.equals(callerKey);
    callerKey = key == null ? null : snapshot(key);
    SessionRunContext context = new SessionRunContext(args, s);
    RunMerger merger = new RunMerger(args);
    for (HookUnit u : units) {
      if (u.batch == null) {
        Hook h = hooks.get(u.first);
        SessionRunArgs a = callHook(u, "beforeSessionRun", () -> h.beforeSessionRun(context));
        repeated &= accept(s, merger, u, u.first, a);
      } else {
        repeated &= beforeBatch(s, merger, u, context);
      }
    }
    MergedRun merged = repeated ? last : merger.finish();
    plannedRun = merged;
    FlatResult result =
        s.runFlat(merged.tensorFetches(), merged.targets(), merged.feeds(), merged.options());
    for (HookUnit u : units) {
      SessionRunValues[] values = new SessionRunValues[u.count];
      for (int j = 0; j < u.count; j++) {
        values[j] =
            new SessionRunValues(
                merged.hookResults(u.first + j, result::value),
                merged.options(),
                result.runMetadata());
      }
      if (u.batch == null) {
        Hook h = hooks.get(u.first);
        callHook(u, "afterSessionRun", () -> h.afterSessionRun(context, values[0]));
      } else {
        callHook(u, "afterSessionRun", () -> u.batch.afterSessionRun(context, values));
      }
    }
    if (context.stopRequested()) {
      stop = true;
    }
    return merged.callerResults(result::value);
  }

  // What args ask for, as a key equal to the key of args asking for the same: NOTHING for none, the
  // fetches for fetch-only args whose fetches are a name or a list of names; null for any other
  // args (feed values and options are checked and merged every run).
  private static Object fetchKey(SessionRunArgs args) {
    if (args == null) {
      return NOTHING;
    }
    if (!args.feeds().isEmpty() || args.options() != null) {
      return null;
    }
    Object fetches = args.fetches();
    if (fetches == null) {
      return NO_FETCHES;
    }
    if (fetches instanceof String) {
      return fetches;
    }
    if (fetches instanceof List) {
      for (Object f : (List<?>) fetches) {
        if (!(f instanceof String)) {
          return null;
        }
      }
      return fetches;
    }
    return null;
  }

  // A key that a hook changing its own list later does not change.
  private static Object snapshot(Object key) {
    return key instanceof List ? List.copyOf((List<?>) key) : key;
  }

  private static final Object NOTHING = new Object();
  private static final Object NO_FETCHES = new Object();

  // A batch's beforeSessionRun calls: each returns at the next hook with new args, which are
  // checked before the batch goes on; the args of hooks it reports repeated are the ones accepted
  // before. Whether every hook's key repeated.
  private boolean beforeBatch(
      TfSession s, RunMerger merger, HookUnit u, SessionRunContext context) {
    boolean repeated = true;
    int start = 0;
    while (start < u.count) {
      int from = start;
      HookBatch.Before got =
          callHook(u, "beforeSessionRun", () -> u.batch.beforeSessionRun(context, from));
      int index = got.index();
      for (int j = start; j < Math.min(index, u.count); j++) {
        SessionRunArgs again = got.repeated(j) ? accepted[u.first + j] : null;
        repeated &= accept(s, merger, u, u.first + j, again);
      }
      if (index < u.count) {
        repeated &= accept(s, merger, u, u.first + index, got.args());
      }
      start = index + 1;
    }
    return repeated;
  }

  // Checks hook i's args against the graph (unless they ask for what they asked for last run) and
  // adds them to the run; whether they did. A batch whose hook's args are refused forgets every
  // hook's args, so none counts as repeated next time.
  private boolean accept(
      TfSession s, RunMerger merger, HookUnit u, int i, SessionRunArgs hookArgs) {
    Object key = fetchKey(hookArgs);
    boolean repeated = key != null && key.equals(hookKeys[i]);
    try {
      if (!repeated) {
        hookKeys[i] = null;
        check(s, i, hookArgs);
      }
      merger.add(hookNames.get(i), hookArgs);
    } catch (RuntimeException e) {
      if (u.batch != null) {
        accepted[i] = null;
        u.batch.forget();
      }
      throw e;
    }
    if (!repeated && key != null) {
      hookKeys[i] = snapshot(key);
    }
    if (hookArgs != null && u.batch != null) {
      accepted[i] = hookArgs;
    }
    return repeated;
  }

  private void check(TfSession s, int i, SessionRunArgs hookArgs) {
    if (hookArgs == null) {
      return;
    }
    String missing = s.missingName(hookArgs);
    if (missing != null) {
      throw new GraphNameException(
          hookNames.get(i), "beforeSessionRun", missing, s.whyMissing(missing, hookNames.get(i)));
    }
    for (String fetch : Nest.flatten(hookArgs.fetches())) {
      String problem = Nest.isTensorName(fetch) ? s.fetchProblem(fetch) : null;
      if (problem != null) {
        throw new HookException(
            hookNames.get(i), "beforeSessionRun", "fetch '" + fetch + "': " + problem);
      }
    }
    for (Map.Entry<String, ? extends NdArray<?>> feed : hookArgs.feeds().entrySet()) {
      String problem = s.feedProblem(feed.getKey(), feed.getValue());
      if (problem != null) {
        throw new HookException(
            hookNames.get(i), "beforeSessionRun", "feed '" + feed.getKey() + "': " + problem);
      }
    }
  }

  // The recovery loop of TensorFlow's _RecoverableSession: on ABORTED/UNAVAILABLE close the raw
  // session, create a new one (afterCreateSession again) and retry the whole body.
  private <T> T withRecovery(Supplier<T> body, boolean creating) {
    checkUsable();
    driver = Thread.currentThread();
    calls++;
    try {
      return recovering(body, creating);
    } finally {
      calls--;
      lastCall = System.nanoTime();
    }
  }

  private <T> T recovering(Supplier<T> body, boolean creating) {
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
          LOG.log(
              System.Logger.Level.WARNING,
              "re-creating the session after a recoverable error (recovery " + recoveries + ")",
              e);
          closeRaw(e);
          needSession = !creating;
          continue;
        }
        failure = e;
        SessionExit.closed(this);
        notifyError(e);
        // hooks first: an AsyncCheckpointSaverHook's write in flight reads the session's snapshot
        // buffers, so the session stays open until it is on disk
        closeHooksAfterFailure(e);
        closeRaw(e);
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
      gotSession()[i] = true;
      callHook(i, "afterCreateSession", () -> h.afterCreateSession(s, coord));
    }
  }

  private boolean[] gotSession() {
    if (gotSession == null) {
      gotSession = new boolean[hooks.size()];
    }
    return gotSession;
  }

  // Hook.onError, once, for every hook that got afterCreateSession, before the raw session
  // closes; what it throws is attached to the error in flight (docs/contract.md, "onError").
  private void notifyError(Throwable error) {
    if (errorNotified || gotSession == null) {
      return;
    }
    errorNotified = true;
    for (int i = 0; i < hooks.size(); i++) {
      if (!gotSession[i]) {
        continue;
      }
      Hook h = hooks.get(i);
      TfSession s = session;
      try {
        callHook(i, "onError", () -> h.onError(s, error));
      } catch (RuntimeException | Error e) {
        if (e != error) {
          error.addSuppressed(
              e instanceof HookException
                  ? e
                  : new HookException(hookNames.get(i), "onError", "raised " + e, e));
        }
      }
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
            failure.addSuppressed(
                new HookException(hookNames.get(i), "close", "failed after the session failed", e));
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
    callHook(
        singles[i],
        callback,
        () -> {
          call.run();
          return null;
        });
  }

  private void callHook(HookUnit u, String callback, Runnable call) {
    callHook(
        u,
        callback,
        () -> {
          call.run();
          return null;
        });
  }

  // What leaves a hook's callback: see hookFailure. For a batch, the hook is the one the batch
  // reached (HookBatch.position()), asked only when a name is needed.
  private <T> T callHook(HookUnit u, String callback, Supplier<T> call) {
    Thread outerThread = activeThread;
    HookUnit outerUnit = activeUnit;
    String outerCallback = activeCallback;
    activeThread = Thread.currentThread();
    activeUnit = u;
    activeCallback = callback;
    TfSession s = session;
    try {
      return s == null ? call.get() : s.calledBy(u.name, callback, call);
    } catch (RuntimeException e) {
      throw hookFailure(u.name.get(), callback, e);
    } catch (Error e) {
      throw hookFailure(u.name.get(), callback, e);
    } finally {
      activeThread = outerThread;
      activeUnit = outerUnit;
      activeCallback = outerCallback;
    }
  }

  // The hook callback running now (on activeThread), so a hook that calls this session's hooked
  // run (or close) from inside it gets a clear error instead of unbounded recursion.
  private volatile Thread activeThread;
  private volatile HookUnit activeUnit;
  private volatile String activeCallback;

  private void checkNotReentrant(String what) {
    if (activeThread == Thread.currentThread()) {
      throw new HookException(
          activeUnit.name.get(),
          activeCallback,
          "called the monitored session's "
              + what
              + " from inside its own callback (re-entrant: "
              + (what.equals("runWithoutHooks")
                  ? "a recovery would replace the session under the running hook"
                  : "it would run the hooks again")
              + "); use runContext.session() / the session given to the callback for a raw run");
    }
  }

  /**
   * What leaves callback {@code callback} of {@code hook} when it throws {@code e}
   * (docs/contract.md, "End of input"): an end of input ({@link ErrorCodes#isEndOfInput}) becomes a
   * {@link HookException} naming the hook and callback, since only the caller's own run ends the
   * input (the hook's own code, a raw run through {@code runContext.session()}, a listener or a
   * final op must not end it silently); so does a {@link SessionRunArgsException} (invalid args the
   * hook built, naming the value); a {@link HookException} leaves as it is (a raw run's unknown
   * name or refused tensor already names the hook, {@link TfSession#calledBy}); anything else
   * propagates unchanged (its type matters: recovery, a hook's own exception types) with a
   * suppressed {@code HookException} recording the hook and callback.
   */
  static RuntimeException hookFailure(String hook, String callback, RuntimeException e) {
    if (e instanceof HookException) {
      return e;
    }
    if (ErrorCodes.isEndOfInput(e)) {
      return new HookException(
          hook,
          callback,
          "raised "
              + e
              + " (end of input). Only an OutOfRange raised by the caller's own run ends the"
              + " input; one raised by a hook, its raw runs, a listener or a final op is an error"
              + " (docs/contract.md)",
          e);
    }
    if (e instanceof SessionRunArgsException) {
      return new HookException(hook, callback, "made invalid SessionRunArgs: " + e.getMessage(), e);
    }
    e.addSuppressed(new HookException(hook, callback, "raised " + e.getClass().getName()));
    return e;
  }

  /**
   * A {@link Error} from a hook (StackOverflowError, OutOfMemoryError, ...) propagates as itself,
   * as the Java convention expects (a caller catches the Error, not a wrapper), with an ERROR log
   * record naming the hook and callback (the Error as its thrown) and, when the Error takes one, a
   * suppressed {@link HookException} saying the same (the JVM's own StackOverflowError and
   * OutOfMemoryError take none: their addSuppressed does nothing). When even that cannot be made
   * (memory), the error itself, with nothing added.
   */
  static Error hookFailure(String hook, String callback, Error e) {
    for (Throwable s : e.getSuppressed()) {
      if (s instanceof HookException) {
        return e; // an inner callback (a hook calling another's) already named its hook
      }
    }
    try {
      HookException where = new HookException(hook, callback, "raised " + e.getClass().getName());
      e.addSuppressed(where);
      LOG.log(System.Logger.Level.ERROR, where.getMessage(), e);
    } catch (Error unable) { // nothing more can be made: the Error itself is what is thrown
      return e;
    }
    return e;
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

    /**
     * At most this many re-creations, then the error propagates; default unlimited, as TensorFlow.
     */
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
