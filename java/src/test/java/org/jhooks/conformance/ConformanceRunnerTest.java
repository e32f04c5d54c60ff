package org.jhooks.conformance;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jhooks.Hook;
import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.MonitoredSession;
import org.junit.Test;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.junit.runners.model.InitializationError;

/**
 * {@link ConformanceRunner} as users run it: with their own hook, session creator and driver, one
 * named test per scenario. The user test classes are nested and run with {@link JUnitCore} through
 * {@link #run} (a user's class has {@code @RunWith(ConformanceRunner.class)}; these have not, so
 * that Gradle does not run them as tests of their own).
 */
public class ConformanceRunnerTest {
  static final AtomicInteger CREATED = new AtomicInteger();

  /** A well-behaved hook of a user's: fetches the global step. */
  public static final class StepReader implements Hook {
    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      return SessionRunArgs.of("global_step_read:0");
    }
  }

  /** A user's hook that throws in beforeSessionRun. */
  public static final class Broken implements Hook {
    @Override
    public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
      throw new IllegalStateException("broken user hook");
    }
  }

  /**
   * A second JVM driver, registered only through the driver interface: {@link MonitoredSession}
   * built directly (no MonitoredTrainingSession), the caller's loop over it.
   */
  public static final class PlainMonitoredSessionDriver implements ConformanceDriver {
    @Override
    public String name() {
      return "plain";
    }

    @Override
    public DriverOutcome run(DriverSetup setup, Caller caller) {
      List<Object> results = new ArrayList<>();
      List<Object> withoutHooks = new ArrayList<>();
      int runs = 0;
      try (MonitoredSession session =
          MonitoredSession.builder(setup.graph())
              .hooks(setup.allHooks())
              .sessionCreator(setup.sessionCreator())
              .modelInstance(setup.modelInstance())
              .build()) {
        loop:
        while (true) {
          for (RunWithoutHooks w : caller.withoutHooksAfter(runs)) {
            Object r = session.runWithoutHooks(w.fetches(), w.feeds(), null);
            if (r == null && session.reachedEndOfInput()) {
              break loop;
            }
            withoutHooks.add(r);
          }
          if (session.shouldStop() || runs >= caller.maxRuns()) {
            break;
          }
          runs++;
          Object r = session.run(caller.args());
          if (r == null && session.reachedEndOfInput()) {
            break;
          }
          results.add(r);
        }
        return DriverOutcome.finished(
            runs, results, withoutHooks, session.shouldStop(), session.reachedEndOfInput());
      } catch (RuntimeException | Error e) {
        return DriverOutcome.failed(runs, results, withoutHooks, e);
      }
    }
  }

  public static class UserHookAndCreator {
    public static ConformanceOptions options() {
      return ConformanceOptions.builder()
          .hookFactory(StepReader::new)
          .sessionCreator(
              (Path dir) -> {
                CREATED.incrementAndGet();
                return new CheckpointRestoringSessionCreator(dir);
              })
          .build();
    }
  }

  public static class BrokenUserHook {
    public static ConformanceOptions options() {
      return ConformanceOptions.builder()
          .hookFactory(Broken::new)
          .scenarios("normal_end_hook_order", "error_hook_after_run", "results_tuple_fetch_python")
          .build();
    }
  }

  public static class SecondDriver {
    public static ConformanceOptions options() {
      return ConformanceOptions.builder().driver(new PlainMonitoredSessionDriver()).build();
    }
  }

  public static class BadlyNamedDriver {
    public static ConformanceOptions options() {
      return ConformanceOptions.builder()
          .driver(
              new ConformanceDriver() {
                @Override
                public String name() {
                  return "Bad Name";
                }

                @Override
                public DriverOutcome run(DriverSetup setup, Caller caller) {
                  throw new AssertionError("never run");
                }
              })
          .build();
    }
  }

  @Test
  public void aDriverNameThatCannotBeACaseIdIsRefused() {
    try {
      new ConformanceRunner(BadlyNamedDriver.class);
      throw new AssertionError("accepted a driver named 'Bad Name'");
    } catch (InitializationError e) {
      assertTrue(
          String.valueOf(e.getCauses()),
          e.getCauses()
              .get(0)
              .getMessage()
              .startsWith("a conformance driver's name must match [a-z0-9]+, got 'Bad Name'"));
    }
  }

  private static Request request(Class<?> userTest) {
    try {
      return Request.runner(new ConformanceRunner(userTest));
    } catch (InitializationError e) {
      throw new AssertionError(e);
    }
  }

  private static Result run(Class<?> userTest) {
    return new JUnitCore().run(request(userTest));
  }

  private static List<String> names(Result result) {
    List<String> out = new ArrayList<>();
    result.getFailures().forEach(f -> out.add(f.getDescription().getMethodName()));
    return out;
  }

  @Test
  public void aWellBehavedUserHookAndSessionCreatorPassEveryScenario() {
    CREATED.set(0);
    Result result = run(UserHookAndCreator.class);
    assertEquals(String.valueOf(result.getFailures()), 0, result.getFailureCount());
    int scenarios = Scenarios.names().size();
    assertEquals(scenarios, result.getRunCount());
    assertTrue(result.getIgnoreCount() + result.getAssumptionFailureCount() < 10);
    assertTrue(
        "the user's creator made every session (recoveries make more)",
        CREATED.get() >= scenarios - result.getAssumptionFailureCount());
  }

  @Test
  public void aUserHookThatThrowsFailsNamingItselfAndTheCallback() {
    Result result = run(BrokenUserHook.class);
    assertEquals(
        List.of(
            "normal_end_hook_order[jvm-driver-java-hooks]",
            "error_hook_after_run[jvm-driver-java-hooks]"),
        names(result));
    for (Failure f : result.getFailures()) {
      assertTrue(
          f.getMessage(),
          f.getMessage()
              .contains(
                  "your hook org.jhooks.conformance.ConformanceRunnerTest$Broken raised in"
                      + " beforeSessionRun: java.lang.IllegalStateException: broken user hook"));
    }
    assertEquals(
        "results_tuple_fetch_python needs a Python hook", 1, result.getAssumptionFailureCount());
  }

  @Test
  public void aSecondDriverThroughTheInterfacePassesEveryScenario() {
    Request request = request(SecondDriver.class);
    assertEquals(
        "ids name the driver",
        "normal_end_hook_order[plain-driver-java-hooks]",
        request.getRunner().getDescription().getChildren().stream()
            .map(d -> d.getMethodName())
            .filter(n -> n.startsWith("normal_end_hook_order["))
            .findFirst()
            .orElseThrow());
    Result result = new JUnitCore().run(request);
    assertEquals(String.valueOf(result.getFailures()), 0, result.getFailureCount());
    assertEquals(Scenarios.names().size(), result.getRunCount());
  }
}
