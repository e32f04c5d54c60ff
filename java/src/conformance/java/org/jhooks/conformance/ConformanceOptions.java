package org.jhooks.conformance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jhooks.Hook;
import org.jhooks.tf.SessionCreator;

/**
 * What {@link ConformanceRunner} checks besides jhooks itself: a user's hook (added last to every
 * scenario, guarded: it must throw nothing and leave the traces and outcome unchanged), a user's
 * session creator (given to the driver in place of {@code CheckpointRestoringSessionCreator}), a
 * user's {@link ConformanceDriver}, or a subset of the scenarios. Immutable; made with {@link
 * #builder()}. The Python counterparts are the flags of {@code python -m jhooks conformance}.
 */
public final class ConformanceOptions {
  private final Supplier<? extends Hook> hookFactory;
  private final Function<Path, SessionCreator> sessionCreators;
  private final ConformanceDriver driver;
  private final List<String> scenarios;

  private ConformanceOptions(Builder b) {
    this.hookFactory = b.hookFactory;
    this.sessionCreators = b.sessionCreators;
    this.driver = b.driver;
    this.scenarios = List.copyOf(b.scenarios);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The user's hook factory (a new hook per scenario), or null. */
  public Supplier<? extends Hook> hookFactory() {
    return hookFactory;
  }

  /** (checkpoint dir, or null) to the user's session creator, or null for jhooks' own. */
  public Function<Path, SessionCreator> sessionCreators() {
    return sessionCreators;
  }

  /** The driver checked: the user's, or {@link MonitoredTrainingSessionDriver}. */
  public ConformanceDriver driver() {
    return driver != null ? driver : new MonitoredTrainingSessionDriver();
  }

  /** Whether the driver is jhooks' own (its expected-failure list, xfail-java.json, applies). */
  public boolean builtInDriver() {
    return driver == null;
  }

  /** The scenario names to run; empty for every scenario. */
  public List<String> scenarios() {
    return scenarios;
  }

  /** Builds {@link ConformanceOptions}; every setting is optional. */
  public static final class Builder {
    private Supplier<? extends Hook> hookFactory;
    private Function<Path, SessionCreator> sessionCreators;
    private ConformanceDriver driver;
    private final List<String> scenarios = new ArrayList<>();

    private Builder() {}

    /** A factory of the hook to check; called once per scenario, it must return a new hook. */
    public Builder hookFactory(Supplier<? extends Hook> factory) {
      this.hookFactory = factory;
      return this;
    }

    /**
     * The session creator to check, per scenario: called with the scenario's checkpoint dir (null
     * when it has none); the creator must restore the dir's latest checkpoint when there is one,
     * else initialize the variables. Recovery faults wrap it.
     */
    public Builder sessionCreator(Function<Path, SessionCreator> creators) {
      this.sessionCreators = creators;
      return this;
    }

    /** The driver to check in place of the JVM driver. */
    public Builder driver(ConformanceDriver driver) {
      this.driver = driver;
      return this;
    }

    /** Only these scenarios (repeatable); by default every scenario. */
    public Builder scenarios(String... names) {
      this.scenarios.addAll(List.of(names));
      return this;
    }

    public ConformanceOptions build() {
      return new ConformanceOptions(this);
    }
  }
}
