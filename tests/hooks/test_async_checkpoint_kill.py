"""SIGKILL while an asynchronous checkpoint saver writes, repeatedly, each next trainer resuming from
the latest checkpoint (tests/hooks/async_saver_trainer.py): Python's AsyncCheckpointSaverHook in
TensorFlow's MonitoredSession, Java's in the JVM driver, Python's in the JVM driver. After every
kill the latest checkpoint (TensorFlow's and jhooks' reader agree on it) and every checkpoint the
state file lists are whole and consistent (each variable holds the step in its name); after the
next start, nothing a kill left stays: no temporaries, and no checkpoint the rotation had dropped
(the ``checkpoint.rotation`` journal, docs/contract.md "Checkpoints").

CI kills 5 times (Python) or 3 times (JVM directions); the slow test (``-m slow``) 200 times per
direction."""

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
import tensorflow as tf
from hooks_support import read_checkpoint

from jhooks.checkpoint import all_checkpoints, latest_checkpoint

SIZE = 1_000_000  # 4 MB of floats per checkpoint, so writes are in flight when killed
HERE = os.path.dirname(os.path.abspath(__file__))
DIRECTIONS = ["python", "jvm-java", "jvm-python"]
CHECKPOINT_FILE = re.compile(r"model\.ckpt-(\d+)(?:\.index|\.meta|\.data-\d{5}-of-\d{5})")


def start(checkpointDir: str, direction: str) -> subprocess.Popen:
    root = os.path.dirname(os.path.dirname(HERE))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, HERE]), TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.Popen(
        [sys.executable, os.path.join(HERE, "async_saver_trainer.py"), checkpointDir, str(SIZE), direction],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )


def check_whole(prefix: str) -> int:
    """A whole, consistent checkpoint of either trainer's graph (its step in every variable)."""
    step = int(prefix.rsplit("-", 1)[1])
    values = read_checkpoint(prefix)
    counter, vector = ("count", "big") if "count" in values else ("v", "w")  # Model / KillableTraining
    assert int(values["global_step"]) == int(values[counter]) == step, prefix
    np.testing.assert_array_equal(values[vector], np.full([SIZE], float(step), np.float32))
    return step


def unlisted_below_the_oldest(ckpt: str) -> set[str]:
    """Checkpoint files of steps older than every listed checkpoint: what a kill during a rotation
    leaves (a kill during a save leaves a step after the latest, which the next trainer saves again)."""
    listed = [int(p.rsplit("-", 1)[1]) for p in all_checkpoints(ckpt)]
    names = os.listdir(ckpt)
    return {n for n in names if (m := CHECKPOINT_FILE.fullmatch(n)) and listed and int(m.group(1)) < min(listed)}


def kill_rounds(tmp_path, direction: str, rounds: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    ckpt = str(tmp_path)
    previous, labels, left, journals = -1, [], set(), 0
    for _ in range(rounds):
        proc = start(ckpt, direction)
        try:
            extra = rng.randint(2, 25)
            seen = []
            deadline = time.monotonic() + 600  # generous: a busy machine; not a bound under test
            while len(seen) < extra and time.monotonic() < deadline:
                line = proc.stdout.readline()
                assert line, f"trainer exited early with {proc.poll()}"
                seen.append(int(line))
            assert len(seen) == extra, "trainer too slow"
            time.sleep(rng.uniform(0.0, 0.05))
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        # the trainer keeps training between our last read and the kill: take every step it printed
        seen += [int(line) for line in proc.stdout.read().split()]
        proc.stdout.close()
        assert proc.returncode == -signal.SIGKILL
        # the previous kill's leftovers are gone: this trainer's begin() removed them
        names = set(os.listdir(ckpt))
        assert not left & names, sorted(left & names)
        latest = tf.train.latest_checkpoint(ckpt)
        assert latest is not None and latest == latest_checkpoint(ckpt)
        label = check_whole(latest)
        for prefix in all_checkpoints(ckpt):  # every listed checkpoint is whole too
            check_whole(prefix)
        # the saver writes a step's checkpoint before the trainer prints that step
        assert previous <= label <= seen[-1] + 1
        previous = label
        labels.append(label)
        temporaries = {n for n in names if ".tempstate" in n or n.startswith("checkpoint.tmp")}
        journals += "checkpoint.rotation" in names
        left = unlisted_below_the_oldest(ckpt) | temporaries
    assert labels[-1] > labels[0]  # training progressed across restarts
    return {"kills": rounds, "journals": journals, "last": labels[-1]}


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_sigkill_during_async_saves_leaves_a_consistent_latest_checkpoint(tmp_path, direction):
    kill_rounds(tmp_path, direction, rounds=5 if direction == "python" else 3, seed=20261130)


@pytest.mark.slow
@pytest.mark.timeout(8 * 3600)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_two_hundred_sigkills_during_async_saves(tmp_path, direction):
    print(kill_rounds(tmp_path, direction, rounds=200, seed=200))
