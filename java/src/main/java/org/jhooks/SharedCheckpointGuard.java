package org.jhooks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.WeakHashMap;

/** The thread-safe {@link CheckpointGuard}; also the one-per-view fallback of {@link Session}. */
final class SharedCheckpointGuard implements CheckpointGuard {
  private static final Map<Session, CheckpointGuard> BY_VIEW =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final List<String> losses = new ArrayList<>();
  private Long nanStep;
  private String nanLoss;

  /** The guard of a view that keeps none itself: one per view object, while it is reachable. */
  static CheckpointGuard attachedTo(Session session) {
    return BY_VIEW.computeIfAbsent(session, s -> new SharedCheckpointGuard());
  }

  @Override
  public synchronized void watchLoss(String tensorName) {
    if (!losses.contains(tensorName)) {
      losses.add(tensorName);
    }
  }

  @Override
  public synchronized List<String> watchedLosses() {
    return new ArrayList<>(losses);
  }

  @Override
  public synchronized void reportNanLoss(long globalStep, String lossTensor) {
    if (nanStep == null || globalStep < nanStep) {
      nanStep = globalStep;
      nanLoss = lossTensor;
    }
  }

  @Override
  public synchronized OptionalLong nanStep() {
    return nanStep == null ? OptionalLong.empty() : OptionalLong.of(nanStep);
  }

  @Override
  public synchronized Optional<String> nanLoss() {
    return Optional.ofNullable(nanLoss);
  }

  @Override
  public synchronized String toString() {
    return "CheckpointGuard(watched=" + losses + ", nanStep=" + nanStep + ")";
  }
}
