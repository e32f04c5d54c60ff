"""Training-thread cost of the Python checkpoint saver hooks: no hook, CheckpointSaverHook,
AsyncCheckpointSaverHook.

    python benchmarks/saver_overhead.py [floats=2000000] [saveSteps=10] [--quick]

Three tf.compat.v1 sessions, one per kind, whose step fills a variable of ``floats`` float32 values;
the hooks save every ``saveSteps`` steps (keeping 2). A block is a whole number of save cycles
(``saveSteps`` steps each), so every block of a saving session holds the same share of saves; the
three sessions' blocks are interleaved as benchmarks/timing.py does it (warm-up, blocks of at
least 0.5 s, 9 rounds). Prints ms/step on the training thread (median, IQR, min-max of the
rounds), each saver's ratio to no hook (median of the per-round ratios), the saves and (async) the
overlaps. Absolute times: indicative only on a shared machine.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from benchmarks import timing  # noqa: E402
from jhooks.hooks import AsyncCheckpointSaverHook, CheckpointSaverHook  # noqa: E402
from jhooks.tf import to_tf_hooks  # noqa: E402


def session(stack: contextlib.ExitStack, kind: str, floats: int, saveSteps: int) -> tuple[timing.Block, Any]:
    """A started session of ``kind`` ("none", "sync", "async"), closed with ``stack``: a block of
    n save cycles, and the hook (None for "none")."""
    graph = tf.Graph()
    with graph.as_default():
        gs = tf.compat.v1.train.get_or_create_global_step()
        big = tf.compat.v1.get_variable("big", initializer=np.zeros([floats], np.float32))
        train = big.assign(tf.fill([floats], tf.cast(gs.assign_add(1), tf.float32)))
        directory = stack.enter_context(tempfile.TemporaryDirectory(prefix=f"saver-{kind}-"))
        hook = {
            "none": None,
            "sync": lambda: CheckpointSaverHook(directory, saveSteps=saveSteps, maxToKeep=2),
            "async": lambda: AsyncCheckpointSaverHook(directory, saveSteps=saveSteps, maxToKeep=2),
        }[kind]
        made = hook() if hook else None
        sess = stack.enter_context(tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([made] if made else [])))
    sess.run(train)  # the save after session creation
    return timing.repeated(lambda: [sess.run(train) for _ in range(saveSteps)]), made


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("floats", nargs="?", type=int, default=2_000_000)
    parser.add_argument("saveSteps", nargs="?", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="3 rounds of short blocks, no warm-up")
    args = parser.parse_args(argv)
    settings = timing.Settings(3, 0.02, 0.0) if args.quick else timing.Settings(9, 0.5, 1.0)
    print(
        f"{args.floats * 4 / 1e6:.0f} MB of variables, a save every {args.saveSteps} steps, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    kinds = ("none", "sync", "async")
    with contextlib.ExitStack() as stack:
        made = {kind: session(stack, kind, args.floats, args.saveSteps) for kind in kinds}
        t = timing.interleave({kind: block for kind, (block, _) in made.items()}, settings)
        for kind in kinds:
            per_step = [x / args.saveSteps * 1e3 for x in t[kind]]
            med, q1, q3, lo, hi = timing.spread(per_step)
            line = f"{kind:5s}: {med:6.2f} ms/step (IQR {q1:.2f}..{q3:.2f}, min-max {lo:.2f}..{hi:.2f})"
            hook = made[kind][1]
            if hook is not None:
                r = timing.ratio(t[kind], t["none"])
                line += f", {r.ratio:.2f} x no hook (IQR {r.q1:.2f}..{r.q3:.2f}), saves {len(hook.savedSteps())}"
            if kind == "async":
                line += f", overlaps {hook.overlapCount()}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
