"""BestCheckpointsListener: keeps the best N checkpoints by a metric in a sub-directory.

Twin of org.jhooks.hooks.BestCheckpointsListener. Like Keras' ``ModelCheckpoint(save_best_only=True)``
(TensorFlow's savers keep the newest N only). See docs/standard-hooks.md.
"""

from __future__ import annotations

import json
import logging
import math
import numbers
import os
import tempfile
from typing import Any

import numpy as np

from jhooks.api.errors import HookError
from jhooks.api.listener import CheckpointSaverListener
from jhooks.checkpoint.files import (
    checkpoint_exists,
    checkpoint_prefix,
    clean_stale_temporaries,
    copy_checkpoint,
    delete_checkpoint,
    validate_basename,
)
from jhooks.checkpoint.state import STATE_FILE, CheckpointState, write_state

logger = logging.getLogger(__name__)

_NAME = "BestCheckpointsListener"
INDEX_FILE = "best_checkpoints.json"


class BestCheckpointsListener(CheckpointSaverListener):
    """A CheckpointSaverListener that copies each saved checkpoint whose metric is among the best
    ``keep`` seen into ``<checkpointDir>/<subdir>``, with its own ``checkpoint`` state file.

    Args:
        checkpointDir: the saver's checkpoint dir (the listener reads its checkpoints there).
        metric: name of a scalar numeric tensor (any float or int dtype, shape () or one element),
            read with a raw run (no feeds) in ``beforeSave``, so it holds the value of the step
            being saved, e.g. a validation-loss variable.
        mode: ``"min"`` (lower is better) or ``"max"``.
        keep: how many best checkpoints to keep (int >= 1).
        subdir: a plain directory name inside ``checkpointDir`` (no separator, not ``..``, not
            ``checkpoint``, the saver's state file).
        checkpointBasename: the saver's basename (checkpoints are ``<basename>-<step>``).

    The sub-directory's state file lists the kept checkpoints worst first, so its
    ``model_checkpoint_path`` (what ``tf.train.latest_checkpoint(subdir)`` restores) is the best;
    ``best_checkpoints.json`` there records each one's metric value, so a restarted run continues
    the ranking. A tie does not replace a kept checkpoint; a NaN metric never qualifies. Files are
    copied, never moved: the saver's own checkpoints and rotation are untouched. The listener writes
    and deletes only inside the sub-directory, and deletes only the ``<basename>-<step>`` checkpoints
    it dropped from its own list.

    Raises:
        ValueError: a bad argument (naming the listener and the value); in ``beforeSave`` a metric
            that is not one number.
        HookError: in ``begin``, the sub-directory cannot be created or its index file is not
            readable JSON of this listener.
    """

    INDEX_FILE = INDEX_FILE

    def __init__(
        self,
        checkpointDir: str,
        metric: str,
        mode: str = "min",
        keep: int = 1,
        subdir: str = "best",
        checkpointBasename: str = "model.ckpt",
    ) -> None:
        if not checkpointDir or not isinstance(checkpointDir, str):
            raise ValueError(f"{_NAME}: checkpointDir must be given, got {checkpointDir!r}")
        if not isinstance(metric, str) or not metric:
            raise ValueError(f"{_NAME}: metric must be a tensor name (str), got {metric!r}")
        if mode not in ("min", "max"):
            raise ValueError(f"{_NAME}: mode must be 'min' or 'max', got {mode!r}")
        if not _is_int(keep) or keep < 1:
            raise ValueError(f"{_NAME}: keep must be an int >= 1, got {keep!r}")
        validate_basename(_NAME, checkpointBasename)
        if not isinstance(subdir, str) or not subdir or subdir in (".", "..") or any(c in subdir for c in "/\\\0"):
            raise ValueError(f"{_NAME}: subdir must be a directory name without a path separator, got {subdir!r}")
        if subdir == STATE_FILE:  # a directory there would make the saver's dir unreadable
            raise ValueError(f"{_NAME}: subdir must not be {STATE_FILE!r}, the name of the saver's state file")
        self.checkpointDir = checkpointDir
        self.metric = metric
        self.mode = mode
        self.keep = int(keep)
        self.checkpointBasename = checkpointBasename
        self.bestDir = os.path.join(checkpointDir, subdir)
        self._best: list[tuple[int, float]] = []  # best first
        self._pending: dict[int, float] = {}

    # --- results -----------------------------------------------------------------------------
    def best(self) -> list[tuple[int, float]]:
        """``(global step, metric value)`` of the kept checkpoints, best first."""
        return list(self._best)

    def bestCheckpoint(self) -> str | None:
        """The prefix of the best kept checkpoint (in the sub-directory), or None."""
        return self._prefix(self._best[0][0]) if self._best else None

    # --- callbacks ---------------------------------------------------------------------------
    def begin(self) -> None:
        try:
            os.makedirs(self.bestDir, exist_ok=True)
        except OSError as e:
            raise HookError(_NAME, "begin", f"cannot create the sub-directory {self.bestDir!r}: {e}") from e
        clean_stale_temporaries(self.bestDir, self.checkpointBasename)  # incl. half-copied files
        for entry in os.listdir(self.bestDir):  # an index file a killed write left
            path = os.path.join(self.bestDir, entry)
            if entry.startswith(INDEX_FILE + ".tmp") and os.path.isfile(path) and not os.path.islink(path):
                os.remove(path)
        self._best = self._load()
        self._pending = {}

    def beforeSave(self, session: Any, globalStep: int) -> None:
        value = np.asarray(session.run(self.metric))
        if value.size != 1 or value.dtype.kind not in "fiu":
            raise ValueError(
                f"{_NAME}.beforeSave: metric {self.metric} must be one number, "
                f"got dtype {value.dtype} shape {value.shape}"
            )
        step = int(globalStep)
        self._pending = {step: float(value.reshape(()))}
        return None

    def afterSave(self, session: Any, globalStep: int) -> bool:
        step = int(globalStep)
        value = self._pending.pop(step, None)
        if value is None or math.isnan(value):
            if value is not None:
                logger.info("%s: metric %s is NaN at step %d; not a best checkpoint", _NAME, self.metric, step)
            return False
        if not self._qualifies(value):
            return False
        source = checkpoint_prefix(self.checkpointDir, self.checkpointBasename, step)
        copy_checkpoint(source, self._prefix(step))
        ranked = [(s, v) for s, v in self._best if s != step] + [(step, value)]
        ranked.sort(key=lambda sv: sv[1], reverse=self.mode == "max")  # stable: a tie keeps the older first
        kept, dropped = ranked[: self.keep], ranked[self.keep :]
        worstFirst = [os.path.basename(self._prefix(s)) for s, _ in reversed(kept)]
        write_state(self.bestDir, CheckpointState(worstFirst[-1], worstFirst))
        self._best = kept
        self._writeIndex()
        for s, _ in dropped:
            delete_checkpoint(self.bestDir, self.checkpointBasename, self._prefix(s))
        logger.info(
            "%s: step %d (%s = %g) is among the best %d; kept: %s",
            _NAME,
            step,
            self.metric,
            value,
            self.keep,
            [s for s, _ in kept],
        )
        return False

    # --- internals ---------------------------------------------------------------------------
    def _prefix(self, step: int) -> str:
        return checkpoint_prefix(self.bestDir, self.checkpointBasename, step)

    def _qualifies(self, value: float) -> bool:
        if len(self._best) < self.keep:
            return True
        worst = self._best[-1][1]
        return value < worst if self.mode == "min" else value > worst

    def _load(self) -> list[tuple[int, float]]:
        path = os.path.join(self.bestDir, INDEX_FILE)
        if not os.path.exists(path):
            return []
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            entries = [(int(_number(e, "step")), float(_number(e, "value"))) for e in data["best"]]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise HookError(_NAME, "begin", f"cannot read {path}: {type(e).__name__}: {e}; remove or repair it") from e
        if data.get("metric") != self.metric or data.get("mode") != self.mode:
            raise HookError(
                _NAME,
                "begin",
                f"{path} ranks {data.get('metric')!r} ({data.get('mode')}), not {self.metric!r} ({self.mode}); "
                "use another subdir",
            )
        entries = [(s, v) for s, v in entries if checkpoint_exists(self._prefix(s))]
        entries.sort(key=lambda sv: sv[1], reverse=self.mode == "max")
        return entries

    def _writeIndex(self) -> None:
        data = {
            "metric": self.metric,
            "mode": self.mode,
            "best": [{"step": s, "value": v, "checkpoint": os.path.basename(self._prefix(s))} for s, v in self._best],
        }
        fd, tmp = tempfile.mkstemp(prefix=INDEX_FILE + ".tmp", dir=self.bestDir)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1)
                f.write("\n")
            os.replace(tmp, os.path.join(self.bestDir, INDEX_FILE))
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    def __repr__(self) -> str:
        return f"{_NAME}({self.metric}, mode={self.mode}, keep={self.keep}, dir={self.bestDir})"


def _number(entry: Any, name: str) -> int | float:
    """``entry[name]`` if it is a JSON number (not a boolean or a string, as the Java twin)."""
    value = entry[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} is not a number: {value!r}")
    return value


def _is_int(value: Any) -> bool:
    """An integer, Python's or numpy's (``numbers.Integral``), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
