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
    # "spec": each task gets a spec file naming its role; "tf-config": only TF_CONFIG names it, as an
    # operator hands it out (a chief job, the workers, the ps, an evaluator; jhooks.demo.tf_config_task)
    launch: str = "spec"
    evaluator: bool = True  # with launch="tf-config": an evaluator task too
    jvmWorkerHooks: str = "python"  # with launch="tf-config": the JVM workers' standard hooks, "python" (jep) or "java"


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
    argv: list[str] | None = None  # None: python -m jhooks.demo.cluster_task <spec>
    env: dict[str, str] = field(default_factory=dict)  # added to the environment (TF_CONFIG)

    @property
    def chief(self) -> bool:
        return self.job == "chief" or (self.job == "worker" and self.index == 0 and not self.argv)


@dataclass
class Processes:
    """The processes started for one cluster; :meth:`kill_all` ends each by its PID."""

    procs: list[subprocess.Popen] = field(default_factory=list)

    def start(self, task: Task) -> None:
        task.logFile = open(task.logPath, "ab")
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "1"))
        env.pop("TF_CONFIG", None)  # a task's role is only what the launcher gives it
        env.update(task.env)
        task.proc = subprocess.Popen(
            task.argv or [sys.executable, "-m", "jhooks.demo.cluster_task", task.spec],
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


def jvm_command(main: str) -> list[str]:
    """``java`` with the options, jhooks classpath and jep jar that let a plain-``java`` JVM load
    Python hooks from this environment (``python -m jhooks jvm-options``), then ``main``."""
    from jhooks.bridge.backend.jep_backend import jep_jar
    from jhooks.bridge.process import runtime
    from jhooks.bridge.process.classpath import classpath
    from jhooks.demo.jars import jars

    jar = jep_jar()
    if jar is None:
        raise ValueError("a JVM worker with Python hooks needs jep here: pip install 'jhooks[jep]'")
    tfdir = runtime.tensorflow_wheel_dir()
    options = runtime.jvm_args(tfdir) if tfdir is not None else []
    return ["java", *options, "-cp", os.pathsep.join([*classpath(), *jars(), jar]), main]


def tf_config_of(cluster: dict[str, list[str]], job: str, index: int) -> str:
    """The TF_CONFIG an operator gives task ``index`` of ``job`` (Kubeflow leaves the evaluator out
    of the cluster)."""
    return json.dumps({"cluster": cluster, "task": {"type": job, "index": index}})


def plan_tf_config(cfg: ClusterDemoConfig, out: str, checkpointDir: str) -> list[Task]:
    """The tasks of ``--launch tf-config``: ps 0, chief 0, workers 0..N-1 (the first K on the JVM,
    started by plain ``java`` with Python hooks through jep), and an evaluator; each with the same
    command line for its language and its role in TF_CONFIG only. Nothing is started."""
    ports = free_ports(2 + cfg.workers)
    cluster = {
        "chief": [f"127.0.0.1:{ports[0]}"],
        "worker": [f"127.0.0.1:{p}" for p in ports[2:]],
        "ps": [f"127.0.0.1:{ports[1]}"],
    }
    settings = [
        "--csv", cfg.csv, "--last-step", str(cfg.steps), "--result-dir", out,
        "--checkpoint-dir", checkpointDir, "--save-steps", str(cfg.saveSteps),
        "--learning-rate", str(cfg.learningRate), "--recovery-wait-secs", str(cfg.recoveryWaitSecs),
        "--max-wait-secs", str(cfg.maxWaitSecs),
    ]  # fmt: skip
    python = [sys.executable, "-m", "jhooks.demo.tf_config_task", *settings]
    tasks = [Task("ps", 0, "python", "", "", ""), Task("chief", 0, "python", "", "", "")]
    tasks += [Task("worker", i, "jvm" if i < cfg.javaWorkers else "python", "", "", "") for i in range(cfg.workers)]
    if cfg.evaluator:
        tasks.append(Task("evaluator", 0, "python", "", "", ""))
    java = jvm_command("org.jhooks.demo.TfConfigTask") + settings if cfg.javaWorkers else []
    if java:
        java += ["--hooks", cfg.jvmWorkerHooks]
    for t in tasks:
        name = f"{t.job}{t.index}"
        t.result = os.path.join(out, f"{name}.result.json")
        t.logPath = os.path.join(out, f"{name}.log")
        barrier = ["--start-barrier"] if t.job in ("chief", "worker") else []
        t.argv = (java if t.lang == "jvm" else python) + barrier
        t.env = {"TF_CONFIG": tf_config_of(cluster, t.job, t.index)}
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
    if cfg.launch not in ("spec", "tf-config"):
        raise ValueError(f"launch must be 'spec' or 'tf-config', got {cfg.launch!r}")
    if cfg.jvmWorkerHooks not in ("python", "java"):
        raise ValueError(f"jvmWorkerHooks must be 'python' or 'java', got {cfg.jvmWorkerHooks!r}")
    if cfg.launch == "tf-config" and cfg.javaChief:
        raise ValueError("--java-chief is for --launch spec; with tf-config the JVM tasks are workers")
    out = cfg.out or tempfile.mkdtemp(prefix="jhooks-cluster-")
    if os.path.isdir(out) and os.listdir(out):
        # Old checkpoints would be restored (and training end at once); nothing is deleted for the user.
        raise FileExistsError(f"{out} is not empty: give a new or empty --out directory")
    os.makedirs(out, exist_ok=True)
    checkpointDir = os.path.join(out, "checkpoints")
    tasks = (plan_tf_config if cfg.launch == "tf-config" else plan)(cfg, out, checkpointDir)
    ps, workers = tasks[0], tasks[1:]  # with tf-config, "workers" are the chief, the workers and the evaluator
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
            what = f"{t.job} {t.index}"
            _wait_for(lambda t=t: t.proc.poll() is not None, deadline, [t], f"{what} to finish")
            if t.proc.returncode != 0:
                raise ClusterDemoError(f"{what} ({t.lang}) exited with {t.proc.returncode}; log: {t.logPath}")
    finally:
        procs.kill_all()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        for t in tasks:
            if t.logFile is not None:
                t.logFile.close()
    wall = time.monotonic() - start
    results, evaluation = [], None
    for t in workers:
        with open(t.result) as f:
            r = json.load(f)
        r["chief"] = t.chief
        r["pid"] = t.proc.pid if t.proc is not None else None
        r["command"] = os.path.basename(t.argv[0]) if t.argv else "python"
        if t.job == "evaluator":
            evaluation = r
        else:
            results.append(r)
    report_tasks = [{"job": "ps", "index": 0, "lang": "python", "steps": 0, "steps_per_sec": 0.0}]
    for r in results:
        # "seconds" starts at the end of the first run, which waits for the chief or the start barrier
        sps = (r["steps"] - 1) / r["seconds"] if r["seconds"] > 0 else 0.0
        report_tasks.append(
            {
                "job": r["job"],
                "index": r["index"],
                "lang": r["lang"],
                "chief": r["chief"],
                "steps": r["steps"],
                "steps_per_sec": round(sps, 2),
                "recoveries": r["recoveries"],
                "pid": r["pid"],
                "command": r["command"],
            }
        )
    chief = next(r for r in results if r["chief"])
    chief_lang = chief["lang"]  # only the chief writes checkpoints
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
    extra: dict[str, Any] = {}
    if cfg.launch == "tf-config":
        extra["launch"] = "tf-config"
        extra["jvm_vs_python_worker_steps_per_sec"] = _jvm_vs_python(report_tasks)
        if evaluation is not None:
            extra["evaluator"] = {k: evaluation[k] for k in ("evaluations", "best", "best_checkpoint")}
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
        **extra,
    }


def _jvm_vs_python(tasks: list[dict[str, Any]]) -> float | None:
    """The mean steps/s of the JVM workers over that of the Python non-chief workers of the same
    run (the chief also checkpoints, so it is no baseline); None without both."""
    jvm = [t["steps_per_sec"] for t in tasks if t["lang"] == "jvm" and not t.get("chief") and t["steps"]]
    py = [t["steps_per_sec"] for t in tasks if t["lang"] == "python" and t["job"] == "worker" and not t.get("chief")]
    if not jvm or not py or not sum(py):
        return None
    return round((sum(jvm) / len(jvm)) / (sum(py) / len(py)), 3)
