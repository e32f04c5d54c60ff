"""Training-thread cost of the Python checkpoint saver hooks (no hook / sync / async).

Usage: PYTHONPATH=. python benchmarks/saver_overhead.py [floats=2000000] [steps=200] [saveSteps=10]

Trains a tf.compat.v1 graph whose step fills a variable of ``floats`` float32 values, with a
save every ``saveSteps`` steps, and prints ms/step on the training thread, the saves and (async)
the overlap count. Indicative only on a shared machine.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

import numpy as np
import tensorflow as tf

from jhooks.hooks import AsyncCheckpointSaverHook, CheckpointSaverHook
from jhooks.tf import to_tf_hooks


def run(kind: str, floats: int, steps: int, saveSteps: int) -> str:
    with tf.Graph().as_default():
        gs = tf.compat.v1.train.get_or_create_global_step()
        big = tf.compat.v1.get_variable("big", initializer=np.zeros([floats], np.float32))
        inc = gs.assign_add(1)
        train = big.assign(tf.fill([floats], tf.cast(inc, tf.float32)))
        d = tempfile.mkdtemp(prefix=f"saver-{kind}-")
        hook = {
            "none": None,
            "sync": CheckpointSaverHook(d, saveSteps=saveSteps, maxToKeep=2),
            "async": AsyncCheckpointSaverHook(d, saveSteps=saveSteps, maxToKeep=2),
        }[kind]
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook] if hook else [])) as sess:
            sess.run(train)  # warm-up (and the save after session creation)
            start = time.perf_counter()
            for _ in range(steps):
                sess.run(train)
            elapsed = time.perf_counter() - start
        extra = ""
        if hook is not None:
            extra = f", saves {len(hook.savedSteps())}"
        if kind == "async":
            extra += f", overlaps {hook.overlapCount()}"
        return f"{kind:5s}: {1000 * elapsed / steps:6.2f} ms/step{extra}"


def main() -> None:
    floats, steps, saveSteps = (int(a) for a in (sys.argv[1:] + ["2000000", "200", "10"][len(sys.argv) - 1 :])[:3])
    print(
        f"{floats * 4 / 1e6:.0f} MB of variables, {steps} steps, a save every {saveSteps} steps, {os.cpu_count()} cores"
    )
    for kind in ("none", "sync", "async", "none", "sync", "async"):
        print(run(kind, floats, steps, saveSteps), flush=True)


if __name__ == "__main__":
    main()
