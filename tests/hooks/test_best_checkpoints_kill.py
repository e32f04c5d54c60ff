"""SIGKILL while a BestCheckpointsListener copies (both languages' listeners, on a real saver in a
real trainer process: Python's and Java's in TensorFlow's MonitoredSession, Java's in the JVM
driver): after each kill every checkpoint the sub-directory's state file or index
lists is whole and consistent, and after the next start (``begin``) the sub-directory holds
exactly the checkpoints its index lists, its state file lists them, and no orphan or temporary is
left. Before, a kill between a copy and the index write left orphan files forever.

CI kills 3 times per direction; the slow test (``-m slow``) 50 times per direction."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hooks_support import read_checkpoint
from test_best_checkpoints_faults import listener_begin

from jhooks.checkpoint import all_checkpoints
from jhooks.checkpoint.state import read_state
from jhooks.hooks.best_checkpoints_index import BestCheckpointsIndex

SIZE = 1_000_000  # 4 MB of floats per checkpoint, so copies are in flight when killed
HERE = os.path.dirname(os.path.abspath(__file__))
# Python's listener on a Python saver, Java's on a Python saver, Java's on the JVM driver's saver
LANGUAGES = ["python", "java", "jvm"]
CHECKPOINT_FILE = re.compile(r"(model\.ckpt-\d+)(?:\.index|\.meta|\.data-\d{5}-of-\d{5})")


def start(checkpointDir: str, language: str) -> subprocess.Popen:
    root = os.path.dirname(os.path.dirname(HERE))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, HERE]), TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.Popen(
        [sys.executable, os.path.join(HERE, "best_listener_trainer.py"), checkpointDir, str(SIZE), language],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )


def kill_after(proc: subprocess.Popen, steps: int, pause: float) -> None:
    """SIGKILLs ``proc`` ``pause`` seconds after it printed ``steps`` more global steps."""
    try:
        seen = 0
        deadline = time.monotonic() + 600  # generous: a busy machine; not a bound under test
        while seen < steps and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, f"trainer exited early with {proc.poll()}"
            seen += 1
        assert seen == steps, "trainer too slow"
        time.sleep(pause)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL


def check_whole(prefix: str) -> None:
    """A whole, consistent checkpoint of either trainer's graph (its step in every variable)."""
    step = int(prefix.rsplit("-", 1)[1])
    values = read_checkpoint(prefix)
    counter, vector = ("count", "big") if "count" in values else ("v", "w")  # Model / KillableTraining
    assert int(values["global_step"]) == int(values[counter]) == step, prefix
    np.testing.assert_array_equal(values[vector], np.full([SIZE], float(step), np.float32))


def check_after_kill(bestDir: str, metric: str) -> None:
    """What a kill leaves: whatever the state file and the index list is whole."""
    for prefix in all_checkpoints(bestDir):
        check_whole(prefix)
    index = os.path.join(bestDir, BestCheckpointsIndex.FILE)
    if os.path.exists(index):
        for step, value in BestCheckpointsIndex.read(index, metric, "max", "model.ckpt"):
            assert value == step
            check_whole(os.path.join(bestDir, f"model.ckpt-{step}"))


def check_after_start(language: str, ckpt: str, bestDir: str, metric: str) -> list[int]:
    """The next start: begin() leaves exactly the listed checkpoints, and the state file lists them."""
    best = listener_begin("python" if language == "python" else "java", ckpt, metric=metric, mode="max")
    assert isinstance(best, list), best
    steps = [s for s, _ in best]
    names = set(os.listdir(bestDir))
    prefixes = {m.group(1) for m in map(CHECKPOINT_FILE.fullmatch, names) if m}
    assert prefixes == {f"model.ckpt-{s}" for s in steps}, sorted(names)
    assert not [n for n in names if ".tmp" in n or "tempstate" in n], sorted(names)
    strangers = {n for n in names if not CHECKPOINT_FILE.fullmatch(n)} - {"checkpoint", "best_checkpoints.json"}
    assert not strangers, sorted(names)
    if steps:
        assert all_checkpoints(bestDir) == [os.path.join(bestDir, f"model.ckpt-{s}") for s in reversed(steps)]
        assert read_state(bestDir).modelCheckpointPath == f"model.ckpt-{steps[0]}"
        for s in steps:
            check_whole(os.path.join(bestDir, f"model.ckpt-{s}"))
    else:
        assert read_state(bestDir) is None
    return steps


def kill_rounds(tmp_path, language: str, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    ckpt = str(tmp_path / "ckpt")
    bestDir = os.path.join(ckpt, "best")
    kept = []
    for _ in range(rounds):
        kill_after(start(ckpt, language), rng.randint(1, 6), rng.uniform(0.0, 0.5))
        metric = "v:0" if language == "jvm" else "metric:0"
        check_after_kill(bestDir, metric)
        kept.append(check_after_start(language, ckpt, bestDir, metric))
    assert any(kept), kept  # copies were made


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("language", LANGUAGES)
def test_sigkill_during_best_listener_copies_leaves_no_orphan_after_the_next_start(tmp_path, language):
    kill_rounds(tmp_path, language, rounds=3, seed=20261203)


@pytest.mark.slow
@pytest.mark.timeout(6 * 3600)
@pytest.mark.parametrize("language", LANGUAGES)
def test_fifty_sigkills_during_best_listener_copies(tmp_path, language):
    kill_rounds(tmp_path, language, rounds=50, seed=50)
