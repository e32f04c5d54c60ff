package org.jhooks.bridge;

import java.util.Map;
import org.jhooks.RunOptions;
import org.jhooks.Session;
import org.tensorflow.ndarray.NdArray;

/**
 * The Java view of a Python session whose graph is finalized: every call goes to the Python view
 * but {@link #globalStepTensorName()}, which a finalized graph cannot change, so it is answered
 * here instead of crossing into Python on every run (Java hooks ask for it each step). Made by
 * {@link JavaHookCalls#withGlobalStepTensorName}.
 */
final class FixedStepNameSession implements Session {
  private final Session python;
  private final String globalStepTensorName;

  FixedStepNameSession(Session python, String globalStepTensorName) {
    this.python = python;
    this.globalStepTensorName = globalStepTensorName;
  }

  @Override
  public Object run(Object fetches, Map<String, ? extends NdArray<?>> feeds, RunOptions options) {
    return python.run(fetches, feeds, options);
  }

  @Override
  public Object run(Object fetches) {
    return python.run(fetches);
  }

  @Override
  public Object run(Object fetches, Map<String, ? extends NdArray<?>> feeds) {
    return python.run(fetches, feeds);
  }

  @Override
  public void save(String prefix) {
    python.save(prefix);
  }

  @Override
  public void restore(String prefix) {
    python.restore(prefix);
  }

  @Override
  public Map<String, String> saveableVariables() {
    return python.saveableVariables();
  }

  @Override
  public java.util.List<String> nonFiniteVariables() {
    return python.nonFiniteVariables();
  }

  @Override
  public long takeSnapshot() {
    return python.takeSnapshot();
  }

  @Override
  public void saveSnapshot(String prefix) {
    python.saveSnapshot(prefix);
  }

  @Override
  public java.util.List<String> nonFiniteSnapshot() {
    return python.nonFiniteSnapshot();
  }

  @Override
  public byte[] graphDef() {
    return python.graphDef();
  }

  @Override
  public byte[] metaGraphDef() {
    return python.metaGraphDef();
  }

  @Override
  public org.jhooks.CheckpointGuard checkpointGuard() {
    return python.checkpointGuard();
  }

  @Override
  public String globalStepTensorName() {
    return globalStepTensorName;
  }

  @Override
  public long globalStep() {
    return python.globalStep();
  }

  @Override
  public String toString() {
    return python.toString();
  }
}
