"""``python -m jhooks cluster-demo``: the demo model trained between-graph on TensorFlow's gRPC
runtime by a mixed-language cluster on 127.0.0.1 (docs/distributed.md).

One ps (Python), a Python chief (worker 0; on the JVM with ``javaChief``) and ``workers`` more workers, the first
``javaWorkers`` of them JVM processes with Python hooks, the rest Python with Java hooks, each a
process of its own (``jhooks.demo.cluster_task``) on a free port. Once the chief has written a
checkpoint, the ps is killed (SIGKILL) and started again on the same port: every worker's session
fails, is re-created, and the chief restores the last checkpoint. Every process this starts is
ended by its PID before :func:`run` returns, on success, error or timeout.
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from jhooks.demo import data as demo_data
from jhooks.demo import model

log = logging.getLogger(__name__)


class ClusterDemoError(RuntimeError):
    """A task failed, or the cluster did not finish within ``timeoutSecs``."""


@dataclass
class ClusterDemoConfig:
    workers: int = 2  # besides the chief
    javaWorkers: int = 1
    javaChief: bool = False  # the chief (worker 0) on the JVM instead of Python
    steps: int = 300  # the last global step
    saveSteps: int = 50
    restartPs: bool = True
    out: str | None = None  # None: a temporary directory
    csv: str = demo_data.DEFAULT_CSV
    learningRate: float = model.DEFAULT_LEARNING_RATE
    timeoutSecs: float = 600
    recoveryWaitSecs: float = 0.5
    maxWaitSecs: float = 300


def free_ports(n: int) -> list[int]:
    """``n`` distinct ports free on 127.0.0.1 now (bound together, then released)."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


@dataclass
class Task:
    job: str
    index: int
    lang: str
    spec: str
    result: str
    logPath: str
    proc: subprocess.Popen | None = None
    logFile: Any = None


@dataclass
class Processes:
    """The processes started for one cluster; :meth:`kill_all` ends each by its PID."""

    procs: list[subprocess.Popen] = field(default_factory=list)

    def start(self, task: Task) -> None:
        task.logFile = open(task.logPath, "ab")
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "1"))
        task.proc = subprocess.Popen(
            [sys.executable, "-m", "jhooks.demo.cluster_task", task.spec],
            stdout=task.logFile,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
        )
        self.procs.append(task.proc)

    @staticmethod
    def kill(proc: subprocess.Popen, timeout: float = 30) -> None:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=timeout)

    def kill_all(self) -> None:
        for proc in self.procs:
            try:
                self.kill(proc)
            except (ProcessLookupError, subprocess.TimeoutExpired):  # pragma: no cover
                log.error("could not end process %d", proc.pid)


def _latest_checkpoint_step(checkpointDir: str) -> int | None:
    try:
        with open(os.path.join(checkpointDir, "checkpoint")) as f:
            text = f.read()
    except FileNotFoundError:
        return None
    m = re.search(r'^model_checkpoint_path: ".*-(\d+)"', text, re.M)
    return int(m.group(1)) if m else None


def _wait_for(path_or_check: Any, deadline: float, tasks: list[Task], what: str) -> None:
    while True:
        if callable(path_or_check) and path_or_check():
            return
        if isinstance(path_or_check, str) and os.path.exists(path_or_check):
            return
        for t in tasks:
            if t.proc is not None and t.proc.poll() not in (None, 0):
                raise ClusterDemoError(
                    f"task {t.job}:{t.index} ({t.lang}) exited with {t.proc.returncode} "
                    f"while waiting for {what}; log: {t.logPath}"
                )
        if time.monotonic() > deadline:
            raise ClusterDemoError(f"timed out waiting for {what}")
        time.sleep(0.1)


def plan(cfg: ClusterDemoConfig, out: str, checkpointDir: str) -> list[Task]:
    """The tasks of the cluster (ps first, then workers 0..N; worker 0 is the Python chief, workers
    1..K run on the JVM), their spec files written to ``out``; nothing is started."""
    ports = free_ports(2 + cfg.workers)
    cluster = {"ps": [f"127.0.0.1:{ports[0]}"], "worker": [f"127.0.0.1:{p}" for p in ports[1:]]}
    tasks = [Task("ps", 0, "python", "", "", "")]
    for i in range(1 + cfg.workers):
        lang = "jvm" if 1 <= i <= cfg.javaWorkers or (i == 0 and cfg.javaChief) else "python"
        tasks.append(Task("worker", i, lang, "", "", ""))
    for t in tasks:
        name = f"{t.job}{t.index}"
        t.spec = os.path.join(out, f"{name}.spec.json")
        t.result = os.path.join(out, f"{name}.result.json")
        t.logPath = os.path.join(out, f"{name}.log")
    for t in tasks:
        spec = {
            "cluster": cluster,
            "job": t.job,
            "index": t.index,
            "lang": t.lang,
            "lastStep": cfg.steps,
            "csv": cfg.csv,
            "learningRate": cfg.learningRate,
            "checkpointDir": checkpointDir if (t.job, t.index) == ("worker", 0) else None,
            "saveSteps": cfg.saveSteps,
            "recoveryWaitSecs": cfg.recoveryWaitSecs,
            "maxWaitSecs": cfg.maxWaitSecs,
            "result": t.result,
            "startedMarker": None if t.index == 0 or t.job == "ps" else t.result + ".started",
            "waitFor": [f"{w.result}.started" for w in tasks if w.job == "worker" and w.index > 0]
            if (t.job, t.index) == ("worker", 0)
            else [],
        }
        with open(t.spec, "w") as f:
            json.dump(spec, f)
    return tasks


def run(cfg: ClusterDemoConfig) -> dict[str, Any]:
    """Runs the cluster; returns the report (see ``python -m jhooks cluster-demo --help``).

    Raises ValueError for a bad configuration, ClusterDemoError when a task fails or times out."""
    if cfg.workers < 0 or not 0 <= cfg.javaWorkers <= cfg.workers:
        raise ValueError(f"need 0 <= javaWorkers <= workers, got workers={cfg.workers}, javaWorkers={cfg.javaWorkers}")
    if cfg.steps <= 0 or cfg.saveSteps <= 0:
        raise ValueError(f"steps and saveSteps must be positive, got {cfg.steps}, {cfg.saveSteps}")
    if cfg.restartPs and cfg.steps <= cfg.saveSteps:
        # The ps is restarted after the chief's first checkpoint past step 0; with no save before the
        # last step that is the final one, written when training has already ended.
        raise ValueError(
            f"steps ({cfg.steps}) must be above saveSteps ({cfg.saveSteps}) to restart the ps mid-run "
            "after the first checkpoint; raise --steps or pass --no-ps-restart"
        )
    out = cfg.out or tempfile.mkdtemp(prefix="jhooks-cluster-")
    if os.path.isdir(out) and os.listdir(out):
        # Old checkpoints would be restored (and training end at once); nothing is deleted for the user.
        raise FileExistsError(f"{out} is not empty: give a new or empty --out directory")
    os.makedirs(out, exist_ok=True)
    checkpointDir = os.path.join(out, "checkpoints")
    tasks = plan(cfg, out, checkpointDir)
    ps, workers = tasks[0], tasks[1:]
    procs = Processes()
    previous = None
    if threading.current_thread() is threading.main_thread():
        # SIGTERM (a test's or CI's timeout) ends the tasks too: the finally block below runs.
        def terminated(_signum: int, _frame: Any) -> None:
            raise ClusterDemoError("terminated (SIGTERM); every task was ended")

        previous = signal.signal(signal.SIGTERM, terminated)
    deadline = time.monotonic() + cfg.timeoutSecs
    psRestarted = False
    start = time.monotonic()
    try:
        procs.start(ps)
        _wait_for(ps.result, deadline, [ps], "the ps to start")
        for t in workers:
            procs.start(t)
        if cfg.restartPs:

            def checkpointed() -> bool:
                step = _latest_checkpoint_step(checkpointDir)
                return step is not None and step > 0

            _wait_for(checkpointed, deadline, workers, "the chief's first checkpoint")
            assert ps.proc is not None
            log.info(
                "killing the ps (pid %d) at checkpoint step %s", ps.proc.pid, _latest_checkpoint_step(checkpointDir)
            )
            Processes.kill(ps.proc)
            os.remove(ps.result)
            time.sleep(1.0)
            procs.start(ps)
            _wait_for(ps.result, deadline, [ps], "the restarted ps")
            psRestarted = True
        for t in workers:
            assert t.proc is not None
            _wait_for(lambda t=t: t.proc.poll() is not None, deadline, [t], f"worker {t.index} to finish")
            if t.proc.returncode != 0:
                raise ClusterDemoError(f"worker {t.index} ({t.lang}) exited with {t.proc.returncode}; log: {t.logPath}")
    finally:
        procs.kill_all()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        for t in tasks:
            if t.logFile is not None:
                t.logFile.close()
    wall = time.monotonic() - start
    results = []
    for t in workers:
        with open(t.result) as f:
            results.append(json.load(f))
    report_tasks = [{"job": "ps", "index": 0, "lang": "python", "steps": 0, "steps_per_sec": 0.0}]
    for r in results:
        sps = r["steps"] / r["seconds"] if r["seconds"] > 0 else 0.0
        report_tasks.append(
            {
                "job": r["job"],
                "index": r["index"],
                "lang": r["lang"],
                "chief": r["index"] == 0,
                "steps": r["steps"],
                "steps_per_sec": round(sps, 2),
                "recoveries": r["recoveries"],
            }
        )
    chief_lang = workers[0].lang  # only the chief writes checkpoints
    checkpoints: list[dict[str, Any]] = []
    if os.path.isdir(checkpointDir):
        for name in sorted(os.listdir(checkpointDir)):
            m = re.fullmatch(r"(model\.ckpt-(\d+))\.index", name)
            if m:
                checkpoints.append(
                    {"prefix": os.path.join(checkpointDir, m.group(1)), "step": int(m.group(2)), "writer": chief_lang}
                )
        checkpoints.sort(key=lambda c: c["step"])
    chief_only_on = [f"/job:{r['job']}/task:{r['index']}" for r in results if r["chief_only_runs"] > 0]
    chief = next(r for r in results if r["index"] == 0)
    return {
        "tasks": report_tasks,
        "chief_only_hooks_on": chief_only_on,
        "ps_restarted": psRestarted,
        "recovered_after_ps_restart": psRestarted and all(r["recoveries"] >= 1 for r in results),
        "checkpoints": checkpoints,
        "accuracy": chief.get("accuracy"),
        "last_step": cfg.steps,
        "wall_secs": round(wall, 1),
        "pids": [p.pid for p in procs.procs],
        "out": out,
    }
