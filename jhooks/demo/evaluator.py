"""The evaluator task of ``cluster-demo --launch tf-config``: evaluates each new checkpoint of the
chief on the held-out rows, with hooks of its own, and keeps the best by held-out loss.

As TensorFlow's ``evaluate_repeatedly``: one graph (the demo model, in-process: the evaluator is
not in the cluster), and for every checkpoint of the chief it has not seen,
oldest first (its files: the state file of a chief that recovered lists only
the newer ones), a ``MonitoredSession`` restoring exactly that checkpoint (``ChiefSessionCreator``)
with the evaluator's hooks: a ``FinalOpsHook`` reading ``held_out_loss`` and ``accuracy``, and
:class:`BestCheckpointHook`, which hands the restored session to a ``BestCheckpointsListener``
(``<checkpointDir>/best``, mode ``min`` on ``held_out_loss``) as the chief's saver would. It ends
after the poll that found a checkpoint at or past ``lastStep`` (all of that poll's checkpoints are
evaluated, so the chief's save at its end may be too); ``TimeoutError`` if no new checkpoint comes within
``maxWaitSecs``. A restarted evaluator evaluates every listed checkpoint again: the listener's
index keeps the ranking and a tie keeps the older copy, so nothing changes but the log.
"""

from __future__ import annotations

import logging
import os
import re
import time
from typing import Any

from jhooks.api.hook import Hook

log = logging.getLogger(__name__)

_STEP = re.compile(r"-(\d+)$")
_INDEX = re.compile(r"model\.ckpt-(\d+)\.index")


def _checkpoints(checkpointDir: str) -> list[str]:
    """The prefixes of the chief's checkpoints in ``checkpointDir``, oldest step first. The files,
    not the state file: a chief that recovered from a ps restart lists only what its new saver wrote."""
    try:
        names = os.listdir(checkpointDir)
    except FileNotFoundError:
        return []
    steps = sorted(int(m.group(1)) for m in map(_INDEX.fullmatch, names) if m)
    return [os.path.join(checkpointDir, f"model.ckpt-{s}") for s in steps]


class BestCheckpointHook(Hook):
    """At ``end``, ranks checkpoint ``step`` (restored in the session) with ``listener``."""

    def __init__(self, listener: Any, step: int) -> None:
        self.listener = listener
        self.step = step

    def end(self, session: Any) -> None:
        self.listener.beforeSave(session, self.step)
        self.listener.afterSave(session, self.step)


def evaluate_checkpoints(
    checkpointDir: str, csv: str, lastStep: int, pollSecs: float, maxWaitSecs: float, learningRate: float
) -> dict[str, Any]:
    import tensorflow as tf

    from jhooks.checkpoint.files import checkpoint_exists
    from jhooks.demo import data as demo_data
    from jhooks.demo import model
    from jhooks.hooks import BestCheckpointsListener, FinalOpsHook
    from jhooks.tf import to_tf_hooks

    demo = model.build(demo_data.load(csv), learningRate)
    listener = BestCheckpointsListener(checkpointDir, model.HELD_OUT_LOSS, mode="min", keep=1)
    evaluations: list[dict[str, Any]] = []
    seen: set[str] = set()
    last = -1
    waitingSince = time.monotonic()
    begun = False
    with demo.graph.as_default():
        scaffold = tf.compat.v1.train.Scaffold(saver=demo.saver)
        while last < lastStep:
            new = [p for p in _checkpoints(checkpointDir) if p not in seen and checkpoint_exists(p)]
            if not new:
                if time.monotonic() - waitingSince > maxWaitSecs:
                    raise TimeoutError(f"evaluator: no new checkpoint in {checkpointDir} for {maxWaitSecs} s")
                time.sleep(pollSecs)
                continue
            if not begun:  # the chief has made the directory by now
                listener.begin()
                begun = True
            for prefix in new:
                seen.add(prefix)
                m = _STEP.search(prefix)
                if m is None:
                    continue
                step = int(m.group(1))
                final = FinalOpsHook({"held_out_loss": model.HELD_OUT_LOSS, "accuracy": model.ACCURACY})
                creator = tf.compat.v1.train.ChiefSessionCreator(
                    scaffold=scaffold, checkpoint_filename_with_path=prefix
                )
                hooks = to_tf_hooks([final, BestCheckpointHook(listener, step)])
                with tf.compat.v1.train.MonitoredSession(session_creator=creator, hooks=hooks) as session:
                    restored = int(session.run(demo.variables["global_step"]))
                values = final.finalOpsValues()
                evaluations.append(
                    {
                        "step": step,
                        "global_step": restored,  # what the checkpoint holds: other workers step on while it is saved
                        "held_out_loss": float(values["held_out_loss"]),
                        "accuracy": float(values["accuracy"]),
                    }
                )
                log.info("evaluator: %s", evaluations[-1])
                last = max(last, step)
            waitingSince = time.monotonic()
    best = listener.best()
    return {
        "evaluations": evaluations,
        "best": [{"step": s, "held_out_loss": v} for s, v in best],
        "best_checkpoint": listener.bestCheckpoint(),
    }
