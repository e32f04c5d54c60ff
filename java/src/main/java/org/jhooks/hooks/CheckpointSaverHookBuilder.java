package org.jhooks.hooks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jhooks.CheckpointSaverListener;

/**
 * Named parameters for {@link CheckpointSaverHook} and {@link AsyncCheckpointSaverHook}, one setter
 * per parameter of the Python twin ({@code checkpointDir, saveSecs, saveSteps, saver,
 * checkpointBasename="model.ckpt", scaffold, listeners, maxToKeep=5}). Validation happens in {@link
 * #build()} (the hook's constructor).
 *
 * @param <H> the hook type built
 */
public final class CheckpointSaverHookBuilder<H> {
  private final Function<CheckpointSaverHookBuilder<H>, H> factory;
  String checkpointDir;
  Double saveSecs;
  Integer saveSteps;
  Saver saver;
  String checkpointBasename = "model.ckpt";
  Scaffold scaffold;
  List<CheckpointSaverListener> listeners = new ArrayList<>();
  Integer maxToKeep;

  CheckpointSaverHookBuilder(
      String checkpointDir, Function<CheckpointSaverHookBuilder<H>, H> factory) {
    this.checkpointDir = checkpointDir;
    this.factory = factory;
  }

  /** Save every {@code saveSecs} seconds (exclusive with {@link #saveSteps}). */
  public CheckpointSaverHookBuilder<H> saveSecs(double saveSecs) {
    this.saveSecs = saveSecs;
    return this;
  }

  /** Save every {@code saveSteps} global steps (exclusive with {@link #saveSecs}). */
  public CheckpointSaverHookBuilder<H> saveSteps(int saveSteps) {
    this.saveSteps = saveSteps;
    return this;
  }

  public CheckpointSaverHookBuilder<H> saver(Saver saver) {
    this.saver = saver;
    return this;
  }

  public CheckpointSaverHookBuilder<H> checkpointBasename(String checkpointBasename) {
    this.checkpointBasename = checkpointBasename;
    return this;
  }

  public CheckpointSaverHookBuilder<H> scaffold(Scaffold scaffold) {
    this.scaffold = scaffold;
    return this;
  }

  public CheckpointSaverHookBuilder<H> listeners(CheckpointSaverListener... listeners) {
    this.listeners = new ArrayList<>(Arrays.asList(listeners));
    return this;
  }

  public CheckpointSaverHookBuilder<H> listeners(List<CheckpointSaverListener> listeners) {
    this.listeners = new ArrayList<>(listeners);
    return this;
  }

  /** Shorthand for {@code saver(new Saver(null, maxToKeep))}; not together with a saver. */
  public CheckpointSaverHookBuilder<H> maxToKeep(int maxToKeep) {
    this.maxToKeep = maxToKeep;
    return this;
  }

  /**
   * @throws IllegalArgumentException see the hook's constructor
   */
  public H build() {
    return factory.apply(this);
  }
}
