"""One task of ``python -m jhooks cluster-demo``, run as its own process:
``python -m jhooks.demo.cluster_task SPEC.json``.

The spec (JSON) names the task and the cluster: ``cluster`` (job -> addresses), ``job`` (``ps`` or
``worker``), ``index``, ``lang`` (``python`` or ``jvm``), ``lastStep``, ``csv``, ``learningRate``,
``checkpointDir`` and ``saveSteps`` (the chief's), ``recoveryWaitSecs``/``maxWaitSecs`` (how a
non-chief waits for the chief), ``startedMarker``/``waitFor`` (:class:`StartBarrier`) and
``result`` (where the task writes what it did, as JSON).

- ``ps``: a Python ``ClusterServer`` that serves until the process is killed.
- ``worker``, ``lang=python``: Python TensorFlow trains between-graph (ops placed by TensorFlow's
  replica device setter) with **Java** hooks: the chief under ``MonitoredTrainingSession`` (it
  restores or initializes the model and writes checkpoints), the others under ``MonitoredSession``
  with jhooks' ``WorkerSessionCreator`` (a short poll instead of TensorFlow's 30 s).
- ``worker``, ``lang=jvm``: ``org.jhooks.demo.ClusterDemoTask`` trains on the JVM (its own server,
  the JVM replica device setter, the jhooks ``MonitoredTrainingSession``) with **Python** hooks;
  as the chief (``--java-chief``) it also restores or initializes the model and checkpoints.

Every worker is given the same chief-only hook (:class:`ChiefOnlyProbe`), so the result shows which
task ran it; non-chiefs get a ``GlobalStepWaiterHook`` (start once the chief has trained a step).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any

from jhooks.api.hook import Hook

log = logging.getLogger(__name__)


class ChiefOnlyProbe(Hook):
    """Counts the runs it sees: given to every worker as a chief-only hook."""

    def __init__(self) -> None:
        self.runs = 0

    def beforeSessionRun(self, runContext: Any) -> None:
        self.runs += 1


class SessionCounter(Hook):
    """Counts the sessions created (the first, then one per recovery)."""

    def __init__(self) -> None:
        self.sessions = 0

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        self.sessions += 1


class StartBarrier(Hook):
    """Lines the workers up before training, so every one of them is training when the ps is
    restarted: a non-chief touches ``marker`` once its first session exists; the chief, before its
    first run, waits (at most ``maxWaitSecs``) until every marker of ``waitFor`` exists."""

    def __init__(self, marker: str | None, waitFor: list[str], maxWaitSecs: float) -> None:
        self.marker = marker
        self.waitFor = list(waitFor)
        self.maxWaitSecs = maxWaitSecs
        self.passed = False

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        if self.marker is not None and not os.path.exists(self.marker):
            _write(self.marker, {"pid": os.getpid()})

    def beforeSessionRun(self, runContext: Any) -> None:
        if self.passed:
            return
        deadline = time.monotonic() + self.maxWaitSecs
        while not all(os.path.exists(p) for p in self.waitFor):
            if time.monotonic() > deadline:
                missing = [p for p in self.waitFor if not os.path.exists(p)]
                raise TimeoutError(f"StartBarrier: workers not started after {self.maxWaitSecs} s: {missing}")
            time.sleep(0.05)
        self.passed = True


def _barrier(spec: dict[str, Any]) -> StartBarrier:
    return StartBarrier(spec.get("startedMarker"), spec.get("waitFor", []), spec["maxWaitSecs"])


def _write(path: str, result: dict[str, Any]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, path)


def run_ps(spec: dict[str, Any]) -> None:
    from jhooks.tf.cluster import Cluster
    from jhooks.tf.cluster_server import ClusterServer

    server = ClusterServer.start(Cluster(spec["cluster"]), spec["job"], spec["index"])
    _write(spec["result"], {"job": spec["job"], "index": spec["index"], "lang": "python", "ready": True})
    server.join()


def run_python_worker(spec: dict[str, Any]) -> dict[str, Any]:
    from jhooks.tf.cluster import WORKER, Cluster
    from jhooks.tf.tf_config import TfConfig

    return train_python(TfConfig(Cluster(spec["cluster"]), WORKER, spec["index"]), spec, _barrier(spec))


def train_python(cfg: Any, spec: dict[str, Any], barrier: Hook | None) -> dict[str, Any]:
    """Trains the task ``cfg`` (a :class:`jhooks.tf.tf_config.TfConfig`) in Python TensorFlow with
    Java hooks; the settings are ``spec``'s (``lastStep``, ``csv``, ``learningRate``,
    ``checkpointDir``, ``saveSteps``, ``recoveryWaitSecs``, ``maxWaitSecs``)."""
    from jhooks.demo.jars import start_jvm

    start_jvm()  # before TensorFlow: one runtime, shared with the JVM
    import tensorflow as tf

    from jhooks.bridge import java_class
    from jhooks.bridge.convert.arrays import to_numpy
    from jhooks.bridge.hooks.java_hooks import JavaHook
    from jhooks.demo import data as demo_data
    from jhooks.demo import model
    from jhooks.tf import to_tf_hooks

    chief = cfg.isChief()
    cfg.server()
    demo = model.build(demo_data.load(spec["csv"]), spec["learningRate"], cfg.replicaDeviceSetter().deviceFunction)
    hooks_pkg = "org.jhooks.hooks."
    Long = java_class("java.lang.Long")
    final = None
    java_hooks = [JavaHook(java_class(hooks_pkg + "StopAtStepHook")(None, Long(spec["lastStep"])))]
    if not chief:
        java_hooks.insert(0, JavaHook(java_class(hooks_pkg + "GlobalStepWaiterHook")(1, 0.2)))
    counter = SessionCounter()
    probe = ChiefOnlyProbe()
    steps = 0
    with demo.graph.as_default():
        hooks = to_tf_hooks([counter, *([barrier] if barrier else []), *java_hooks])
        if chief:
            m = java_class("java.util.LinkedHashMap")()
            m.put("accuracy", model.ACCURACY)
            final = java_class(hooks_pkg + "FinalOpsHook")(m)
            session = tf.compat.v1.train.MonitoredTrainingSession(
                **cfg.monitoredTrainingSessionArgs(),
                checkpoint_dir=spec["checkpointDir"],
                scaffold=tf.compat.v1.train.Scaffold(saver=demo.saver),
                hooks=hooks,
                chief_only_hooks=to_tf_hooks([probe, JavaHook(final)]),
                save_checkpoint_steps=spec["saveSteps"],
                save_checkpoint_secs=None,
                save_summaries_steps=None,
                save_summaries_secs=None,
                log_step_count_steps=None,
            )
        else:
            # MonitoredTrainingSession(is_chief=False) gives non-chiefs exactly these hooks (no
            # chief-only ones), but waits 30 s between checks; this creator polls faster.
            creator = cfg.workerSessionCreator(spec["recoveryWaitSecs"], spec["maxWaitSecs"])
            session = tf.compat.v1.train.MonitoredSession(session_creator=creator, hooks=hooks)
        start = end = time.perf_counter()
        with session:
            while not session.should_stop():
                session.run(demo.trainOp)
                steps += 1
                end = time.perf_counter()
                if steps == 1:  # timed from here: the first run waits for the chief or the barrier
                    start = end
    result: dict[str, Any] = {
        "steps": steps,
        "seconds": end - start,
        "recoveries": max(0, counter.sessions - 1),
        "chief_only_runs": probe.runs,
    }
    if final is not None:
        values = {str(k): to_numpy(v) for k, v in dict(final.finalOpsValues()).items()}
        result["accuracy"] = float(values["accuracy"])
    return result


def run_jvm_worker(spec: dict[str, Any]) -> dict[str, Any]:
    from pathlib import Path

    from jhooks.demo.jars import start_jvm

    start_jvm(natives=True)
    from jhooks.bridge import java_class
    from jhooks.bridge.hooks.python_hooks import as_java_hook
    from jhooks.hooks import GlobalStepWaiterHook, StopAtStepHook

    index = spec["index"]
    counter = SessionCounter()
    probe = ChiefOnlyProbe()
    hooks: list[Hook] = [counter, _barrier(spec), StopAtStepHook(lastStep=spec["lastStep"])]
    if index != 0:
        hooks.insert(0, GlobalStepWaiterHook(1, 0.2))
    JList = java_class("java.util.ArrayList")
    java_hooks, chief_only = JList(), JList()
    for h in hooks:
        java_hooks.add(as_java_hook(h))
    chief_only.add(as_java_hook(probe))
    Cluster = java_class("org.jhooks.tf.Cluster")
    TfConfig = java_class("org.jhooks.tf.TfConfig")
    jobs = java_class("java.util.LinkedHashMap")()
    for job, tasks in spec["cluster"].items():
        addresses = JList()
        for address in tasks:
            addresses.add(address)
        jobs.put(job, addresses)
    checkpoint_dir = spec.get("checkpointDir")
    File = java_class("java.io.File")
    r = java_class("org.jhooks.demo.ClusterDemoTask").train(
        File(str(Path(spec["csv"]).resolve())).toPath(),
        TfConfig.of(Cluster.of(jobs), "worker", index),
        float(spec["learningRate"]),
        java_hooks,
        chief_only,
        None if checkpoint_dir is None else File(checkpoint_dir).toPath(),
        int(spec["saveSteps"]),
        float(spec["recoveryWaitSecs"]),
        float(spec["maxWaitSecs"]),
    )
    result = {
        "steps": int(r.localSteps),
        "seconds": float(r.seconds),
        "recoveries": int(r.recoveries),
        "chief_only_runs": probe.runs,
    }
    if index == 0:
        result["accuracy"] = float(r.accuracy)
    return result


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    with open(argv[0]) as f:
        spec = json.load(f)
    if spec["job"] == "ps":
        run_ps(spec)
        return 0
    run = run_jvm_worker if spec["lang"] == "jvm" else run_python_worker
    result = run(spec)
    result.update(job=spec["job"], index=spec["index"], lang=spec["lang"])
    _write(spec["result"], result)
    log.info("task %s:%s done: %s", spec["job"], spec["index"], result)
    sys.stdout.flush()
    # The task's TensorFlow server cannot be stopped (ClusterServer): end the process here.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
