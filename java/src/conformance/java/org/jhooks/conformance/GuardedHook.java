package org.jhooks.conformance;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.Coordinator;
import org.jhooks.Described;
import org.jhooks.Hook;
import org.jhooks.HookNames;
import org.jhooks.ModelDependentHook;
import org.jhooks.Session;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;

/**
 * A user's hook checked by the conformance suite: every callback is forwarded to the user's hook
 * and anything it throws is recorded (and still thrown), so that the suite can report "your hook
 * raised in end" apart from the scenario's own mismatches. Errors name the user's hook ({@link
 * Described}). Made by {@link #of}, which keeps a {@link ModelDependentHook} model-dependent: the
 * driver sets the guard's model instance and the guard hands it to the user's hook before {@code
 * begin}. {@code close()} reaches the user's hook when it is {@link AutoCloseable}, as the JVM
 * driver closes such hooks after an error. Twin of {@code
 * jhooks.conformance.user_hooks.GuardedHook}.
 */
@SuppressWarnings("try") // close() forwards the user hook's own close(), whatever it throws
public class GuardedHook implements Hook, Described, AutoCloseable {
  private final Hook hook;
  private final List<String> raised = new ArrayList<>();

  GuardedHook(Hook hook) {
    this.hook = hook;
  }

  /** The guard for {@code hook}: a {@link ModelDependentHook} when {@code hook} is one. */
  public static Hook of(Hook hook) {
    if (hook == null) {
      throw new IllegalArgumentException("the hook factory returned null, not a Hook");
    }
    return hook instanceof ModelDependentHook
        ? new GuardedModelDependentHook((ModelDependentHook) hook)
        : new GuardedHook(hook);
  }

  /** The user's hook. */
  public Hook hook() {
    return hook;
  }

  /**
   * What the user's hook threw, one line each: {@code your hook <name> raised in <callback>:
   * <type>: <message>}; empty when it threw nothing.
   */
  public synchronized List<String> raised() {
    return List.copyOf(raised);
  }

  /** The {@link #raised()} lines of a guard made by {@link #of} (any other hook: none). */
  public static List<String> raisedBy(Hook guard) {
    if (guard instanceof GuardedHook) {
      return ((GuardedHook) guard).raised();
    }
    if (guard instanceof GuardedModelDependentHook) {
      return ((GuardedModelDependentHook) guard).guard.raised();
    }
    return List.of();
  }

  synchronized void record(String callback, Throwable t) {
    raised.add(
        "your hook "
            + HookNames.name(hook)
            + " raised in "
            + callback
            + ": "
            + t.getClass().getName()
            + ": "
            + t.getMessage());
  }

  private RuntimeException rethrow(String callback, RuntimeException e) {
    record(callback, e);
    return e;
  }

  private Error rethrow(String callback, Error e) {
    record(callback, e);
    return e;
  }

  @Override
  public String describe() {
    return hook instanceof Described ? ((Described) hook).describe() : hook.getClass().getName();
  }

  @Override
  public void begin() {
    beginSession();
  }

  @Override
  public void beginSession() {
    try {
      hook.beginSession();
    } catch (RuntimeException e) {
      throw rethrow("beginSession", e);
    } catch (Error e) {
      throw rethrow("beginSession", e);
    }
  }

  @Override
  public void afterCreateSession(Session session, Coordinator coord) {
    try {
      hook.afterCreateSession(session, coord);
    } catch (RuntimeException e) {
      throw rethrow("afterCreateSession", e);
    } catch (Error e) {
      throw rethrow("afterCreateSession", e);
    }
  }

  @Override
  public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
    try {
      return hook.beforeSessionRun(runContext);
    } catch (RuntimeException e) {
      throw rethrow("beforeSessionRun", e);
    } catch (Error e) {
      throw rethrow("beforeSessionRun", e);
    }
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    try {
      hook.afterSessionRun(runContext, runValues);
    } catch (RuntimeException e) {
      throw rethrow("afterSessionRun", e);
    } catch (Error e) {
      throw rethrow("afterSessionRun", e);
    }
  }

  @Override
  public void end(Session session) {
    try {
      hook.end(session);
    } catch (RuntimeException e) {
      throw rethrow("end", e);
    } catch (Error e) {
      throw rethrow("end", e);
    }
  }

  @Override
  public void onError(Session session, Throwable error) {
    try {
      hook.onError(session, error);
    } catch (RuntimeException e) {
      throw rethrow("onError", e);
    } catch (Error e) {
      throw rethrow("onError", e);
    }
  }

  @Override
  public void close() throws Exception {
    if (hook instanceof AutoCloseable) {
      try {
        ((AutoCloseable) hook).close();
      } catch (Exception e) {
        record("close", e);
        throw e;
      } catch (Error e) {
        throw rethrow("close", e);
      }
    }
  }

  @Override
  public String toString() {
    return "GuardedHook(" + hook + ")";
  }

  /** A guard around a {@link ModelDependentHook}, itself model-dependent. */
  @SuppressWarnings("try")
  static final class GuardedModelDependentHook extends ModelDependentHook
      implements Described, AutoCloseable {
    final GuardedHook guard;
    private final ModelDependentHook user;

    GuardedModelDependentHook(ModelDependentHook user) {
      this.user = user;
      this.guard = new GuardedHook(user);
    }

    private void handOver() {
      if (modelInstance() != null && user.modelInstance() != modelInstance()) {
        try {
          user.setModelInstance(modelInstance());
        } catch (RuntimeException e) {
          throw guard.rethrow("setModelInstance", e);
        }
      }
    }

    @Override
    public String describe() {
      return guard.describe();
    }

    @Override
    public void begin() {
      beginSession();
    }

    @Override
    public void beginSession() {
      handOver();
      guard.beginSession();
    }

    @Override
    public void afterCreateSession(Session session, Coordinator coord) {
      guard.afterCreateSession(session, coord);
    }

    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      return guard.beforeSessionRun(runContext);
    }

    @Override
    public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
      guard.afterSessionRun(runContext, runValues);
    }

    @Override
    public void end(Session session) {
      guard.end(session);
    }

    @Override
    public void onError(Session session, Throwable error) {
      guard.onError(session, error);
    }

    @Override
    public void close() throws Exception {
      guard.close();
    }

    @Override
    public String toString() {
      return "GuardedHook(" + user + ")";
    }
  }
}
