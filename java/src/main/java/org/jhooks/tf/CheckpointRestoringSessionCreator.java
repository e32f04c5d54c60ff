package org.jhooks.tf;

import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;
import org.tensorflow.Graph;
import org.tensorflow.proto.ConfigProto;

/**
 * The default {@link SessionCreator}, like TensorFlow's {@code ChiefSessionCreator}: restores the
 * latest checkpoint of the checkpoint dir ({@link Checkpoints#latestCheckpoint}) if there is one,
 * else runs the graph's initializers.
 */
public final class CheckpointRestoringSessionCreator implements SessionCreator {
  private static final Logger LOG = Logger.getLogger(CheckpointRestoringSessionCreator.class.getName());

  private final Path checkpointDir;
  private final ConfigProto config;
  private volatile String lastRestored;

  /**
   * @param checkpointDir where to look for checkpoints, or {@code null} to always initialize
   * @param config the session config, or {@code null}
   */
  public CheckpointRestoringSessionCreator(Path checkpointDir, ConfigProto config) {
    this.checkpointDir = checkpointDir;
    this.config = config;
  }

  public CheckpointRestoringSessionCreator(Path checkpointDir) {
    this(checkpointDir, null);
  }

  @Override
  public org.tensorflow.Session createSession(Graph graph) {
    org.tensorflow.Session session = new org.tensorflow.Session(graph, config);
    try {
      Optional<String> latest = checkpointDir == null ? Optional.empty() : Checkpoints.latestCheckpoint(checkpointDir);
      if (latest.isPresent()) {
        session.restore(latest.get());
        LOG.info("restored checkpoint " + latest.get());
      } else {
        session.initialize();
      }
      lastRestored = latest.orElse(null);
      return session;
    } catch (RuntimeException | Error e) {
      session.close();
      throw e;
    }
  }

  /** The prefix restored by the last {@link #createSession}, or {@code null} if it initialized. */
  public String lastRestored() {
    return lastRestored;
  }
}
