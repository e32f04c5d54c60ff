package org.jhooks.tf;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jhooks.Logs;
import org.jhooks.checkpoint.Checkpoints;
import org.tensorflow.Graph;
import org.tensorflow.proto.ConfigProto;

/**
 * The default {@link SessionCreator}, like TensorFlow's {@code ChiefSessionCreator}: restores the
 * latest checkpoint of the checkpoint dir ({@link Checkpoints#latestCheckpoint}) if there is one,
 * else runs the graph's initializers; then runs the local init ops, like TensorFlow's {@code
 * Scaffold.local_init_op}.
 *
 * <p>Local init ops matter after a restore: tensorflow-java's {@code Session.restore} marks every
 * graph initializer as run, so state that is not in the checkpoint (a dataset iterator's {@code
 * MakeIterator}, for example) must be initialized by naming its op here.
 */
public final class CheckpointRestoringSessionCreator implements SessionCreator {
  private static final System.Logger LOG =
      Logs.get(CheckpointRestoringSessionCreator.class.getName());

  private final Path checkpointDir;
  private final ConfigProto config;
  private final List<String> localInitOps;
  private final String master;
  private volatile String lastRestored;

  /**
   * @param checkpointDir where to look for checkpoints, or {@code null} to always initialize
   * @param config the session config, or {@code null}
   */
  public CheckpointRestoringSessionCreator(Path checkpointDir, ConfigProto config) {
    this(checkpointDir, config, List.of());
  }

  /**
   * @param localInitOps op names run as targets after every restore or initialization, in one run
   */
  public CheckpointRestoringSessionCreator(
      Path checkpointDir, ConfigProto config, List<String> localInitOps) {
    this(checkpointDir, config, localInitOps, "");
  }

  /**
   * A chief's session creator on a TensorFlow server: {@code master} is the session target, {@code
   * grpc://host:port} ({@link TargetSessions}), or {@code ""} in-process. On a cluster the restored
   * or initialized variables live on the ps tasks, where the non-chiefs' {@link
   * WorkerSessionCreator} waits for them.
   */
  public CheckpointRestoringSessionCreator(
      Path checkpointDir, ConfigProto config, List<String> localInitOps, String master) {
    this.master = master == null ? "" : master;
    this.checkpointDir = checkpointDir;
    this.config = config;
    this.localInitOps = List.copyOf(localInitOps);
  }

  public CheckpointRestoringSessionCreator(Path checkpointDir) {
    this(checkpointDir, null);
  }

  @Override
  public org.tensorflow.Session createSession(Graph graph) {
    org.tensorflow.Session session = TargetSessions.open(graph, master, config);
    try {
      Optional<String> latest =
          checkpointDir == null ? Optional.empty() : Checkpoints.latestCheckpoint(checkpointDir);
      if (latest.isPresent()) {
        session.restore(latest.get());
        LOG.log(System.Logger.Level.INFO, "restored checkpoint " + latest.get());
      } else {
        session.initialize();
      }
      runLocalInitOps(session);
      lastRestored = latest.orElse(null);
      return session;
    } catch (RuntimeException | Error e) {
      session.close();
      throw e;
    }
  }

  private void runLocalInitOps(org.tensorflow.Session session) {
    if (localInitOps.isEmpty()) {
      return;
    }
    org.tensorflow.Session.Runner runner = session.runner();
    for (String op : localInitOps) {
      runner.addTarget(op);
    }
    runner.run().close();
  }

  /** The prefix restored by the last {@link #createSession}, or {@code null} if it initialized. */
  public String lastRestored() {
    return lastRestored;
  }
}
