package com.example;

import java.nio.file.Path;
import org.jhooks.conformance.ConformanceOptions;
import org.jhooks.conformance.ConformanceRunner;
import org.jhooks.tf.CheckpointRestoringSessionCreator;
import org.jhooks.tf.SessionCreator;
import org.junit.runner.RunWith;

/**
 * Checks this app's own hook ({@link TrainWithHooks.LastLoss}) and session creator with jhooks'
 * conformance suite: every scenario is one test, {@code <scenario>[jvm-driver-java-hooks]}. The
 * hook is added last to each scenario; it must throw nothing and leave the scenario's traces and
 * outcome unchanged. Runs on the JVM alone: no Python is needed.
 */
@RunWith(ConformanceRunner.class)
public class HooksConformanceTest {

  /** The app's session creator: restores the newest checkpoint of the dir, else initializes. */
  static SessionCreator appSessionCreator(Path checkpointDir) {
    return new CheckpointRestoringSessionCreator(checkpointDir);
  }

  public static ConformanceOptions options() {
    return ConformanceOptions.builder()
        .hookFactory(TrainWithHooks.LastLoss::new)
        .sessionCreator(HooksConformanceTest::appSessionCreator)
        .build();
  }
}
