package org.jhooks.tf;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jhooks.Logs;
import org.tensorflow.Graph;
import org.tensorflow.GraphOperation;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.Tensor;
import org.tensorflow.exceptions.TensorFlowException;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TBool;

/**
 * The session creator of a non-chief worker, like TensorFlow's {@code WorkerSessionCreator}: it
 * never initializes or restores anything (the chief does); it opens a session on the master, waits
 * until every variable of the graph is initialized, then runs the local init ops.
 *
 * <p>Waiting follows TensorFlow's {@code SessionManager.wait_for_session}: check, and if a variable
 * is not initialized yet, close the session, sleep {@code recoveryWaitSecs} (TensorFlow: 30 s, not
 * configurable from {@code MonitoredTrainingSession}) and try again, until {@code maxWaitSecs}
 * (TensorFlow's default: 7200 s) have passed; then {@link ModelNotReadyException}, naming the
 * variables that were not ready. A check that fails because a task is unreachable or restarting
 * (UNAVAILABLE, ABORTED) counts as not ready. The readiness check is TensorFlow's ready op in
 * spirit: {@code IsVariableInitialized} of every {@code VariableV2} and {@code VarIsInitializedOp}
 * of every {@code VarHandleOp} of the graph, ops added under {@code jhooks_ready/} on first use.
 */
public final class WorkerSessionCreator implements SessionCreator {
  private static final System.Logger LOG = Logs.get(WorkerSessionCreator.class.getName());
  private static final String SCOPE = "jhooks_ready";

  private final String master;
  private final ConfigProto config;
  private final List<String> localInitOps;
  private final double recoveryWaitSecs;
  private final double maxWaitSecs;
  private List<String> variables;
  private List<String> checks;

  /**
   * @param master the session target, {@code grpc://host:port} (or {@code ""} in-process)
   * @param config the session config (device filters!), or {@code null}
   * @param localInitOps ops run as targets once the model is ready, in one run
   * @param recoveryWaitSecs seconds between checks, &gt; 0
   * @param maxWaitSecs seconds to wait in all before {@link ModelNotReadyException}, &ge; 0
   * @throws IllegalArgumentException a wait out of range
   */
  public WorkerSessionCreator(
      String master,
      ConfigProto config,
      List<String> localInitOps,
      double recoveryWaitSecs,
      double maxWaitSecs) {
    if (!(recoveryWaitSecs > 0)) {
      throw new IllegalArgumentException(
          "WorkerSessionCreator: recoveryWaitSecs must be > 0, got " + recoveryWaitSecs);
    }
    if (!(maxWaitSecs >= 0)) {
      throw new IllegalArgumentException(
          "WorkerSessionCreator: maxWaitSecs must be >= 0, got " + maxWaitSecs);
    }
    this.master = master == null ? "" : master;
    this.config = config;
    this.localInitOps = List.copyOf(localInitOps);
    this.recoveryWaitSecs = recoveryWaitSecs;
    this.maxWaitSecs = maxWaitSecs;
  }

  /** With TensorFlow's waits: a check every 30 s, at most 7200 s. */
  public WorkerSessionCreator(String master, ConfigProto config) {
    this(master, config, List.of(), 30, 7200);
  }

  @Override
  public Session createSession(Graph graph) {
    ensureChecks(graph);
    long start = System.nanoTime();
    while (true) {
      Session session = TargetSessions.open(graph, master, config);
      TargetSessions.markInitialized(session);
      List<String> notReady = List.of();
      RuntimeException failure = null;
      try {
        notReady = notReady(session);
        if (notReady.isEmpty()) {
          runLocalInitOps(session);
          return session;
        }
      } catch (TensorFlowException e) {
        if (!ErrorCodes.isRecoverable(e)) {
          session.close();
          throw e;
        }
        failure = e;
      } catch (RuntimeException | Error e) {
        session.close();
        throw e;
      }
      session.close();
      double waited = (System.nanoTime() - start) / 1e9;
      if (waited + recoveryWaitSecs > maxWaitSecs) {
        throw new ModelNotReadyException(master, waited, notReady, failure);
      }
      LOG.log(
          System.Logger.Level.INFO,
          "Waiting for model to be ready on "
              + master
              + ": "
              + (failure != null ? failure.getMessage() : "not initialized: " + notReady));
      sleep(recoveryWaitSecs);
    }
  }

  private synchronized void ensureChecks(Graph graph) {
    if (checks != null) {
      return;
    }
    List<GraphOperation> vars = new ArrayList<>();
    for (Iterator<GraphOperation> it = graph.operations(); it.hasNext(); ) {
      GraphOperation op = it.next();
      String type = op.type();
      if (!op.name().startsWith(SCOPE + "/")
          && (type.equals("VariableV2") || type.equals("Variable") || type.equals("VarHandleOp"))) {
        vars.add(op);
      }
    }
    List<String> names = new ArrayList<>();
    List<String> outputs = new ArrayList<>();
    for (GraphOperation var : vars) {
      String checkName = SCOPE + "/" + var.name();
      GraphOperation existing = graph.operation(checkName);
      if (existing == null) {
        boolean resource = var.type().equals("VarHandleOp");
        existing =
            graph
                .opBuilder(
                    resource ? "VarIsInitializedOp" : "IsVariableInitialized",
                    checkName,
                    graph.baseScope())
                .addInput(var.output(0))
                .build();
      }
      names.add(var.name());
      outputs.add(existing.name());
    }
    this.variables = names;
    this.checks = outputs;
  }

  private List<String> notReady(Session session) {
    if (checks.isEmpty()) {
      return List.of();
    }
    Session.Runner runner = session.runner();
    for (String check : checks) {
      runner.fetch(check);
    }
    List<String> notReady = new ArrayList<>();
    try (Result result = runner.run()) {
      for (int i = 0; i < checks.size(); i++) {
        Tensor t = result.get(i);
        if (!((TBool) t).getBoolean()) {
          notReady.add(variables.get(i));
        }
      }
    }
    return notReady;
  }

  private void runLocalInitOps(Session session) {
    if (localInitOps.isEmpty()) {
      return;
    }
    Session.Runner runner = session.runner();
    for (String op : localInitOps) {
      runner.addTarget(op);
    }
    runner.run().close();
  }

  private static void sleep(double secs) {
    try {
      Thread.sleep((long) (secs * 1000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the model to be ready", e);
    }
  }
}
