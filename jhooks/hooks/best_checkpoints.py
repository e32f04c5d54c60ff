"""BestCheckpointsListener: keeps the best N checkpoints by a metric in a sub-directory.

Twin of org.jhooks.hooks.BestCheckpointsListener. Like Keras' ``ModelCheckpoint(save_best_only=True)``
(TensorFlow's savers keep the newest N only). See docs/standard-hooks.md.
"""

from __future__ import annotations

import logging
import math
import numbers
import os
import re
from typing import Any

import numpy as np

from jhooks.api.errors import HookError
from jhooks.api.listener import CheckpointSaverListener
from jhooks.checkpoint.errors import CheckpointStateError
from jhooks.checkpoint.files import (
    checkpoint_exists,
    checkpoint_prefix,
    clean_stale_temporaries,
    copy_checkpoint,
    delete_checkpoint,
    is_own_checkpoint,
    validate_basename,
)
from jhooks.checkpoint.state import STATE_FILE, CheckpointState, read_state, write_state
from jhooks.hooks.best_checkpoints_index import BestCheckpointsIndex

logger = logging.getLogger(__name__)

_NAME = "BestCheckpointsListener"
INDEX_FILE = BestCheckpointsIndex.FILE
_CHECKPOINT_FILE = re.compile(r"(.+)(?:\.index|\.meta|\.data-\d{5}-of-\d{5})", re.S)


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
    the ranking. A tie does not replace a kept checkpoint; a NaN or infinite metric never qualifies. Files are
    copied, never moved: the saver's own checkpoints and rotation are untouched. The listener writes
    and deletes only inside the sub-directory, and deletes only ``<basename>-<step>`` checkpoints
    there: those it drops from its own list, and in ``begin`` those its index does not list (what a
    kill between a copy and the index write leaves); ``begin`` also makes the state file list what
    the index lists.

    Raises:
        ValueError: a bad argument (naming the listener and the value); in ``beforeSave`` a metric
            that is not one number.
        HookError: in ``begin``, the sub-directory cannot be created, or its index file is not
            exactly an index of this listener (:class:`~jhooks.hooks.best_checkpoints_index.BestCheckpointsIndex`:
            the message names the file and the entry); nothing is deleted then.
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
        self._best = self._load()  # before anything is deleted: a refused index leaves the dir as it is
        self._pending = {}
        clean_stale_temporaries(self.bestDir, self.checkpointBasename)  # incl. half-copied files
        for entry in os.listdir(self.bestDir):  # an index file a killed write left
            path = os.path.join(self.bestDir, entry)
            if entry.startswith(INDEX_FILE + ".tmp") and os.path.isfile(path) and not os.path.islink(path):
                os.remove(path)
        self._removeOrphans()
        self._writeState(self._best)

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
        if value is None or not math.isfinite(value):  # the index holds finite numbers only
            if value is not None:
                logger.info("%s: metric %s is %s at step %d; not a best checkpoint", _NAME, self.metric, value, step)
            return False
        if not self._qualifies(value):
            return False
        source = checkpoint_prefix(self.checkpointDir, self.checkpointBasename, step)
        copy_checkpoint(source, self._prefix(step))
        ranked = [(s, v) for s, v in self._best if s != step] + [(step, value)]
        ranked.sort(key=lambda sv: sv[1], reverse=self.mode == "max")  # stable: a tie keeps the older first
        kept, dropped = ranked[: self.keep], ranked[self.keep :]
        # A kill from the copy on leaves files the index may not list: the next begin() removes them.
        self._writeState(kept)
        BestCheckpointsIndex.write(self.bestDir, self.metric, self.mode, kept, self.checkpointBasename)
        self._best = kept
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
        """The index's entries whose checkpoints exist, best first; HookError naming the file and
        the entry when the index is not exactly one of this listener's."""
        path = os.path.join(self.bestDir, INDEX_FILE)
        if not os.path.lexists(path):
            return []
        try:
            listed = BestCheckpointsIndex.read(path, self.metric, self.mode, self.checkpointBasename)
        except OSError as e:
            raise HookError(_NAME, "begin", f"{path}: cannot be read: {e}; remove or repair it") from e
        except ValueError as e:
            raise HookError(_NAME, "begin", f"{path}: {e}") from e
        entries = [(s, v) for s, v in listed if checkpoint_exists(self._prefix(s))]
        if len(entries) < len(listed):
            logger.warning(
                "%s: %s lists steps whose checkpoints are missing; not ranked: %s",
                _NAME,
                path,
                sorted({s for s, _ in listed} - {s for s, _ in entries}),
            )
        entries.sort(key=lambda sv: sv[1], reverse=self.mode == "max")
        return entries

    def _removeOrphans(self) -> None:
        """Deletes the checkpoint files (regular files ``<basename>-<digits>.index``, ``.meta``,
        ``.data-NNNNN-of-NNNNN``) in the sub-directory whose checkpoint the index does not list:
        what a kill between a copy and the index write, or before a drop, leaves."""
        listed = {os.path.basename(self._prefix(s)) for s, _ in self._best}
        removed = []
        for entry in sorted(os.listdir(self.bestDir)):
            prefix = _checkpoint_of(entry)
            path = os.path.join(self.bestDir, entry)
            if (
                prefix is not None
                and prefix not in listed
                and is_own_checkpoint(self.bestDir, self.checkpointBasename, os.path.join(self.bestDir, prefix))
                and os.path.isfile(path)
                and not os.path.islink(path)
            ):
                os.remove(path)
                removed.append(entry)
        if removed:
            logger.info(
                "%s: removed checkpoint files its index does not list from %s: %s", _NAME, self.bestDir, removed
            )

    def _writeState(self, kept: list[tuple[int, float]]) -> None:
        """Makes the sub-directory's state file list ``kept`` (best first) worst first, so the best
        is ``model_checkpoint_path``; with none kept, there is no state file."""
        path = os.path.join(self.bestDir, STATE_FILE)
        if not kept:
            if os.path.isfile(path) and not os.path.islink(path):
                os.remove(path)
            return
        worstFirst = [os.path.basename(self._prefix(s)) for s, _ in reversed(kept)]
        state = CheckpointState(worstFirst[-1], worstFirst)
        try:
            current = read_state(self.bestDir)
        except CheckpointStateError:
            current = None
        if current != state:
            write_state(self.bestDir, state)

    def __repr__(self) -> str:
        return f"{_NAME}({self.metric}, mode={self.mode}, keep={self.keep}, dir={self.bestDir})"


def _checkpoint_of(fileName: str) -> str | None:
    """The checkpoint prefix (a name) ``fileName`` belongs to: ``X`` for ``X.index``, ``X.meta``
    and ``X.data-NNNNN-of-NNNNN``; None for any other file."""
    m = _CHECKPOINT_FILE.fullmatch(fileName)
    return m.group(1) if m else None


def _is_int(value: Any) -> bool:
    """An integer, Python's or numpy's (``numbers.Integral``), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
