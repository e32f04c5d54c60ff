package org.jhooks.conformance;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.tf.MonitoredSession;
import org.jhooks.tf.MonitoredTrainingSession;

/**
 * The JVM driver: {@link MonitoredTrainingSession} with its built-in hooks off, the setup's role,
 * hooks, model instance and session creator, and the caller's loop over {@link
 * MonitoredSession#run} and {@link MonitoredSession#runWithoutHooks} ({@link Caller}); a run
 * returning null with {@link MonitoredSession#reachedEndOfInput()} ends the loop at the end of
 * input.
 */
public final class MonitoredTrainingSessionDriver implements ConformanceDriver {

  @Override
  public String name() {
    return "jvm";
  }

  @Override
  public DriverOutcome run(DriverSetup setup, Caller caller) {
    MonitoredTrainingSession.Builder builder =
        MonitoredTrainingSession.builder(setup.graph())
            .isChief(setup.isChief())
            .chiefOnlyHooks(setup.chiefOnlyHooks())
            .hooks(setup.hooks())
            .logStepCountSteps(0)
            .sessionCreator(setup.sessionCreator())
            .modelInstance(setup.modelInstance());
    List<Object> results = new ArrayList<>();
    List<Object> withoutHooks = new ArrayList<>();
    int calls = 0;
    try (MonitoredSession session = builder.build()) {
      loop:
      while (true) {
        for (RunWithoutHooks w : caller.withoutHooksAfter(calls)) {
          Object r = session.runWithoutHooks(w.fetches(), w.feeds(), null);
          if (r == null && session.reachedEndOfInput()) {
            break loop;
          }
          withoutHooks.add(r);
        }
        if (session.shouldStop() || calls >= caller.maxRuns()) {
          break;
        }
        calls++;
        Object r = session.run(caller.args());
        if (r == null && session.reachedEndOfInput()) {
          break;
        }
        results.add(r);
      }
      return DriverOutcome.finished(
          calls, results, withoutHooks, session.shouldStop(), session.reachedEndOfInput());
    } catch (RuntimeException | Error e) {
      return DriverOutcome.failed(calls, results, withoutHooks, e);
    }
  }
}
