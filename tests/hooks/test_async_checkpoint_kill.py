"""SIGKILL while AsyncCheckpointSaverHook writes: the latest checkpoint is always whole and consistent."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import tensorflow as tf
from hooks_support import read_checkpoint, restore_with_v1_saver

from jhooks.checkpoint import all_checkpoints, latest_checkpoint

SIZE = 1_000_000  # 4 MB of floats per checkpoint, so writes are in flight when killed
ROUNDS = 5
HERE = os.path.dirname(os.path.abspath(__file__))


def start(checkpointDir: str) -> subprocess.Popen:
    root = os.path.dirname(os.path.dirname(HERE))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, HERE]), TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.Popen(
        [sys.executable, os.path.join(HERE, "async_saver_trainer.py"), checkpointDir, str(SIZE)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )


def test_sigkill_during_async_saves_leaves_a_consistent_latest_checkpoint(tmp_path):
    rng = random.Random(20261130)
    ckpt = str(tmp_path)
    previous = -1
    labels = []
    for _ in range(ROUNDS):
        proc = start(ckpt)
        try:
            extra = rng.randint(2, 25)
            seen = []
            deadline = time.monotonic() + 120
            while len(seen) < extra and time.monotonic() < deadline:
                line = proc.stdout.readline()
                assert line, f"trainer exited early with {proc.poll()}"
                seen.append(int(line))
            assert len(seen) == extra, "trainer too slow"
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        # the trainer keeps training between our last read and the kill: take every step it printed
        seen += [int(line) for line in proc.stdout.read().split()]
        proc.stdout.close()
        assert proc.returncode == -signal.SIGKILL
        latest = tf.train.latest_checkpoint(ckpt)
        assert latest is not None and latest == latest_checkpoint(ckpt)
        label = int(latest.rsplit("-", 1)[1])
        restored = restore_with_v1_saver(latest, size=SIZE)
        assert restored["global_step"] == restored["count"] == label
        np.testing.assert_array_equal(restored["big"], np.full([SIZE], float(label), np.float32))
        for prefix in all_checkpoints(ckpt):  # every listed checkpoint is whole too
            step = int(prefix.rsplit("-", 1)[1])
            values = read_checkpoint(prefix)
            assert int(values["global_step"]) == int(values["count"]) == step
        # the saver writes a step's checkpoint before the trainer prints that step
        assert label >= previous and label <= seen[-1] + 1
        previous = label
        labels.append(label)
    assert labels[-1] > labels[0]  # training progressed across restarts
