"""SIGTERM and SIGINT to a process running Python hooks busy on Java threads: the process exits
within 10 s with the conventional status (143 / 130), the JVM never crashes (no hs_err file), and a
checkpoint save in flight either completes or leaves no state-file entry (docs/bridge.md, "Threads").

Two kinds of process, each with the Python AsyncCheckpointSaverHook saving every step and Java
threads calling a Python hook without pause (tests/bridge/signal_hooks.py):

- ``launcher``: ``python -m jhooks java`` runs org.jhooks.bridgetest.SignalTraining, whose training
  loop (and so every hook callback) runs on a Java thread;
- ``program``: a Python program drives the JVM MonitoredSession from a Python loop;
- ``tf``: a Python program drives TensorFlow's MonitoredSession with the Java async saver (JavaHook)
  saving every step.

In the two Python programs every hook's ``end()`` runs before the exit (a hook prints END): the
signal asks the open sessions to stop, and is raised once they have closed (docs/bridge.md).

Real processes, real signals, at a random moment of training. The default run repeats each case a
few times; ``-m slow`` or ``JHOOKS_SLOW=1`` runs the 20 repeats of the slow variant.
"""

from __future__ import annotations

import glob
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CLASSES = os.path.join(REPO, "build", "bridge-test-classes")  # compiled by conftest
EXIT_BOUND_SECS = 10.0
W_SIZE = 200_000  # 0.8 MB per checkpoint, so a save is often in flight when the signal comes
CASES = [(mode, sig) for mode in ("launcher", "program", "tf") for sig in ("SIGTERM", "SIGINT")]
# tf-SIGINT died by SIGINT (status -2, a KeyboardInterrupt raised in TensorFlow's close) in 1 of 20
# slow runs: known, open (issue 30); CI runs the other cases
SHORT_CASES = [case for case in CASES if case != ("tf", "SIGINT")]


def start(mode: str, workdir: str) -> subprocess.Popen:
    ckpt = os.path.join(workdir, "ckpt")
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([REPO, HERE]),
        TF_CPP_MIN_LOG_LEVEL="3",
        SIGNAL_CKPT=ckpt,
        SIGNAL_CLASSES=CLASSES,
    )
    if mode == "launcher":
        cmd = [sys.executable, "-m", "jhooks", "java", "--classpath", CLASSES, "org.jhooks.bridgetest.SignalTraining"]
        cmd += ["--hook", "signal_hooks:saver", "--hook", "signal_hooks:Busy", "--", ckpt, str(W_SIZE)]
    else:
        cmd = [sys.executable, os.path.join(HERE, "signal_hooks.py"), ckpt, str(W_SIZE)]
        cmd += ["tf"] if mode == "tf" else []
    # the JVM writes hs_err_pid<pid>.log into the working directory when it crashes
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=workdir)


def check_checkpoints(ckpt: str) -> list[int]:
    """Every checkpoint the state file lists is whole and consistent (v == global_step == w[i]);
    returns their steps."""
    state = tf.train.get_checkpoint_state(ckpt)
    if state is None:
        return []
    steps = []
    for path in state.all_model_checkpoint_paths:
        prefix = path if os.path.isabs(path) else os.path.join(ckpt, path)
        reader = tf.train.load_checkpoint(prefix)
        step = int(reader.get_tensor("global_step"))
        assert float(reader.get_tensor("v")) == step, prefix
        np.testing.assert_array_equal(reader.get_tensor("w"), np.full([W_SIZE], float(step), np.float32))
        assert prefix.endswith(f"-{step}"), prefix
        steps.append(step)
    return steps


def signal_once(mode: str, sig: str, workdir: str, rng: random.Random) -> float:
    """Starts the process, signals it during training, checks how it ended; returns the seconds it
    took to exit after the signal."""
    proc = start(mode, workdir)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, f"{mode} exited before training: {proc.poll()}\n{proc.stderr.read()[-3000:]}"
            if "READY" in line:
                break
        time.sleep(rng.uniform(0.2, 1.5))
        sent = time.monotonic()
        proc.send_signal(getattr(signal, sig))
        try:
            out, err = proc.communicate(timeout=EXIT_BOUND_SECS)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            pytest.fail(f"{mode} did not exit within {EXIT_BOUND_SECS} s of {sig}:\n{err[-3000:]}")
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    report = f"{mode} {sig}: status {proc.returncode} after {took:.2f} s\n{err[-3000:]}"
    assert proc.returncode == 128 + getattr(signal, sig), report
    crashes = glob.glob(os.path.join(workdir, "hs_err_pid*")) + glob.glob(f"/tmp/hs_err_pid{proc.pid}.log")
    assert not crashes, report + f"\nJVM crash reports: {crashes}"
    # the JVM's crash banner (JPype's own "Fatal error in exception handling" about the interrupted
    # call is a message, not a crash: the status and the checkpoints say how the process ended)
    assert "A fatal error has been detected" not in err and "SIGSEGV" not in err, report
    assert check_checkpoints(os.path.join(workdir, "ckpt")), report + "\nno checkpoint was listed"
    if mode != "launcher":
        assert "END" in out.split(), report + f"\nthe hooks' end() did not run; stdout after READY:\n{out[-2000:]}"
    return took


def run_repeats(mode: str, sig: str, repeats: int, tmp_path) -> list[float]:
    rng = random.Random(f"{mode}-{sig}-{repeats}")
    times = []
    for i in range(repeats):
        workdir = tmp_path / f"run{i}"
        workdir.mkdir()
        times.append(signal_once(mode, sig, str(workdir), rng))
    print(f"{mode} {sig}: {repeats} runs, exit after the signal: max {max(times):.2f} s, mean {np.mean(times):.2f} s")
    return times


@pytest.mark.timeout(900)
@pytest.mark.parametrize("mode,sig", SHORT_CASES)
def test_a_signal_ends_the_process_quickly_with_its_status_and_no_crash(mode, sig, tmp_path):
    run_repeats(mode, sig, 2, tmp_path)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("mode,sig", CASES)
def test_a_signal_ends_the_process_quickly_with_its_status_and_no_crash_20_times(mode, sig, tmp_path):
    run_repeats(mode, sig, 20, tmp_path)


def test_sys_exit_in_a_hook_under_the_launcher_exits_with_its_status(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, HERE]), TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run(
        [sys.executable, "-m", "jhooks", "java", "org.jhooks.examples.TrainLinearModel"]
        + ["--hook", "launcher_hooks:ExitAtStep3", "--", str(tmp_path / "ckpt"), "50"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=str(tmp_path),
    )
    assert done.returncode == 7, done.stderr[-3000:]
    assert "exiting at step 3" in done.stdout
    assert not glob.glob(str(tmp_path / "hs_err_pid*"))
