"""Real TensorFlow clusters on 127.0.0.1: every task a process of its own (a Python ps, a Python
chief, JVM and Python workers; ``jhooks.demo.cluster_task``), on free ports, each ended by its PID
in a ``finally`` (the ``processes`` fixture, or the demo's own), within bounds.

Shown here: a JVM worker trains in a cluster whose chief is Python; the chief-only hooks run on the
chief only; training recovers after the ps is killed and restarted; a non-chief that starts after
the chief has exited does not hang (device filters); a non-chief's wait for the chief is bounded,
with a clear error. CI runs the short versions; ``-m slow`` adds the demo with more workers and the
Python non-chief's variants (TensorFlow's own session creator with jhooks' poll and device filters).
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from jhooks.demo.cluster import ClusterDemoConfig, Processes, plan

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    return env


@pytest.fixture
def processes():
    procs = Processes()
    try:
        yield procs
    finally:
        procs.kill_all()
        for p in procs.procs:
            assert p.poll() is not None, f"process {p.pid} is still running"


def _wait(proc, bound, log):
    """Waits at most ``bound`` seconds for ``proc`` to exit; a hang fails the test (the fixture ends
    the process)."""
    try:
        return proc.wait(timeout=bound)
    except subprocess.TimeoutExpired:
        with open(log, errors="replace") as f:
            tail = f.read()[-3000:]
        pytest.fail(f"process {proc.pid} still running after {bound} s (hung); log tail:\n{tail}")


def _wait_file(path, bound):
    deadline = time.monotonic() + bound
    while not os.path.exists(path):
        assert time.monotonic() < deadline, f"{path} not written within {bound} s"
        time.sleep(0.1)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _run_demo(tmp_path, *args, bound=420):
    out, summary = tmp_path / "out", tmp_path / "cluster.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "jhooks", "cluster-demo", "--out", str(out), "--json", str(summary), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=_env(),
        text=True,
    )
    try:
        output, _ = proc.communicate(timeout=bound)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)  # the demo ends its tasks by PID, then exits
        output, _ = proc.communicate(timeout=60)
        pytest.fail(f"cluster-demo did not finish within {bound} s:\n{output[-4000:]}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == 0, output[-4000:]
    report = json.loads(summary.read_text())
    assert not [pid for pid in report["pids"] if _alive(pid)], "a task process outlived the demo"
    return report, output


def _check_report(report, workers, javaWorkers, steps, javaChief=False):
    tasks = report["tasks"]
    assert [(t["job"], t["index"], t["lang"]) for t in tasks] == [("ps", 0, "python")] + [
        ("worker", i, "jvm" if 1 <= i <= javaWorkers or (i == 0 and javaChief) else "python")
        for i in range(workers + 1)
    ]
    for t in tasks[1:]:
        assert t["steps"] > 0, t
        # The rate is timed from the end of the first step: a worker the chief outran (a busy machine,
        # a slow recovery after the ps restart) may have one step only, and no rate.
        assert t["steps_per_sec"] > 0 or t["steps"] == 1, t
        assert set(t) >= {"job", "index", "lang", "steps", "steps_per_sec"}
    # Every worker was given the same chief-only hook; only the chief ran it.
    assert report["chief_only_hooks_on"] == ["/job:worker/task:0"]
    assert report["ps_restarted"] is True
    assert report["recovered_after_ps_restart"] is True
    assert all(t["recoveries"] >= 1 for t in tasks[1:])
    checkpoints = report["checkpoints"]
    writer = "jvm" if javaChief else "python"
    assert checkpoints and all(c["writer"] == writer for c in checkpoints)
    assert checkpoints[-1]["step"] >= steps
    assert report["accuracy"] > 0.9


@pytest.mark.timeout(480)
def test_cluster_demo_jvm_worker_with_python_chief_recovers_from_ps_restart(tmp_path):
    report, output = _run_demo(
        tmp_path, "--workers", "1", "--java-workers", "1", "--steps", "300", "--save-steps", "50"
    )
    _check_report(report, workers=1, javaWorkers=1, steps=300)
    assert "chief-only hooks ran on: /job:worker/task:0" in output
    # The global step the JVM worker advanced is the cluster's: the chief alone did fewer steps.
    chief, jvm_worker = report["tasks"][1], report["tasks"][2]
    assert chief["steps"] < 300 and jvm_worker["steps"] > 0


@pytest.mark.timeout(480)
def test_cluster_demo_jvm_chief_restores_after_ps_restart_with_a_python_worker(tmp_path):
    # The JVM chief's session creator restores the last checkpoint onto the restarted ps.
    report, output = _run_demo(
        tmp_path, "--workers", "1", "--java-workers", "0", "--java-chief", "--steps", "300", "--save-steps", "50"
    )
    _check_report(report, workers=1, javaWorkers=0, steps=300, javaChief=True)
    assert "written by the jvm chief" in output


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_cluster_demo_two_workers_one_on_the_jvm(tmp_path):
    report, _ = _run_demo(
        tmp_path, "--workers", "2", "--java-workers", "1", "--steps", "900", "--save-steps", "100", bound=840
    )
    _check_report(report, workers=2, javaWorkers=1, steps=900)


def _plan(tmp_path, lang="jvm", **kw):
    out = tmp_path / "cluster"
    out.mkdir()
    cfg = ClusterDemoConfig(workers=1, javaWorkers=1 if lang == "jvm" else 0, restartPs=False, **kw)
    tasks = plan(cfg, str(out), str(out / "checkpoints"))
    return tasks


def _rewrite(task, **changes):
    with open(task.spec) as f:
        spec = json.load(f)
    spec.update(changes)
    with open(task.spec, "w") as f:
        json.dump(spec, f)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["jvm", pytest.param("python", marks=pytest.mark.slow)])
def test_late_non_chief_does_not_hang_after_the_chief_exited(tmp_path, processes, lang):
    ps, chief, late = _plan(tmp_path, lang, steps=40, saveSteps=20)
    _rewrite(chief, waitFor=[])  # the chief trains alone and exits
    processes.start(ps)
    _wait_file(ps.result, 120)
    processes.start(chief)
    assert _wait(chief.proc, 180, chief.logPath) == 0
    # The chief's task is gone. Without device filters the late worker's master would wait for it
    # forever (tensorflow/tensorflow#21629); with them the session is created and training ends.
    processes.start(late)
    assert _wait(late.proc, 180, late.logPath) == 0
    with open(late.result) as f:
        result = json.load(f)
    assert result["steps"] <= 1  # the step is already past lastStep: at most one run (TF's too)
    assert result["chief_only_runs"] == 0


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["jvm", pytest.param("python", marks=pytest.mark.slow)])
def test_non_chief_wait_for_the_chief_is_bounded_with_a_clear_error(tmp_path, processes, lang):
    ps, _chief, worker = _plan(tmp_path, lang, steps=40, saveSteps=20, recoveryWaitSecs=0.5, maxWaitSecs=3)
    processes.start(ps)
    _wait_file(ps.result, 120)
    processes.start(worker)  # no chief ever initializes the model
    assert _wait(worker.proc, 180, worker.logPath) != 0
    with open(worker.logPath, errors="replace") as f:
        log = f.read()
    assert "Waiting for model to be ready" in log
    if lang == "jvm":
        assert "ModelNotReadyException" in log
        assert "variables not initialized: [w, b, global_step]" in log
    else:  # TensorFlow's own SessionManager, polled every recoveryWaitSecs
        assert "DeadlineExceededError" in log
        assert "Variables not initialized: w, b, global_step" in log


@pytest.mark.timeout(400)
def test_jvm_worker_killed_mid_run_and_started_again_rejoins_the_training(tmp_path, processes):
    ps, chief, worker = _plan(tmp_path, steps=10**9, saveSteps=50)  # the chief trains until killed
    processes.start(ps)
    _wait_file(ps.result, 120)
    processes.start(chief)
    processes.start(worker)
    first = worker.proc
    _wait_file(worker.result + ".started", 180)
    out = os.path.dirname(worker.spec)
    deadline = time.monotonic() + 180
    while _checkpoint_step(out) < 100:  # both are training
        assert time.monotonic() < deadline and chief.proc.poll() is None, "the chief stopped training"
        time.sleep(0.1)
    Processes.kill(first)  # SIGKILL mid-run, by PID
    assert first.returncode == -signal.SIGKILL
    # Started again (same task, same port): it rejoins, trains until the global step passes its last step, and exits.
    _rewrite(worker, startedMarker=worker.result + ".restarted", lastStep=_checkpoint_step(out) + 400)
    processes.start(worker)
    assert _wait(worker.proc, 240, worker.logPath) == 0
    with open(worker.result) as f:
        result = json.load(f)
    assert result["steps"] > 0
    assert chief.proc.poll() is None, "the chief noticed the worker's restart"


def _checkpoint_step(out):
    from jhooks.demo.cluster import _latest_checkpoint_step

    return _latest_checkpoint_step(os.path.join(out, "checkpoints")) or 0
