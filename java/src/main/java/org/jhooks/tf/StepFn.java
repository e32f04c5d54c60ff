package org.jhooks.tf;

/** A step run by {@link MonitoredSession#runStepFn}; may run the raw session and hooked runs. */
@FunctionalInterface
public interface StepFn<T> {
  T run(StepContext context);
}
