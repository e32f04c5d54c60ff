"""CheckpointSaverHook: saves a checkpoint every N steps or seconds (synchronous).

Twin of org.jhooks.hooks.CheckpointSaverHook; mirrors ``tf.compat.v1.train.CheckpointSaverHook``
(see docs/standard-hooks.md and docs/contract.md, "Checkpoints") with three fixes: a listener's
stop request from the save after session creation or in ``end`` is honoured (through the
coordinator), old checkpoints are rotated (``maxToKeep``) by the hook itself, and the
``checkpoint`` state file is replaced atomically only after the checkpoint files exist.
"""

from __future__ import annotations

import logging
import os
from typing import Any, List, Optional, Sequence

from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener
from jhooks.api.run_args import SessionRunArgs
from jhooks.api.session import read_global_step
from jhooks.hooks.checkpoint_files import CheckpointRotation, checkpoint_exists, checkpoint_prefix
from jhooks.hooks.errors import CheckpointSaveError
from jhooks.hooks.timer import SecondOrStepTimer

logger = logging.getLogger("jhooks.hooks")

# TF's CheckpointSaverHook adds a huge steps_per_run to the stale global step so that the timer
# check on it always passes and the real global step is re-read before deciding.
_ALWAYS_RECHECK = 1_000_000


def _saver_of(scaffold: Any) -> Any:
    saver = getattr(scaffold, "saver", None)
    return saver() if callable(saver) and not hasattr(saver, "save") else saver


class CheckpointSaverHook(Hook):
    """Saves a TF V2 checkpoint after session creation, every ``saveSteps`` global steps or
    ``saveSecs`` seconds, and once more in ``end`` unless that global step was already saved.

    Args:
        checkpointDir: directory of the checkpoints and of the ``checkpoint`` state file (created).
        saveSecs: save every N seconds (float > 0); exactly one of saveSecs/saveSteps.
        saveSteps: save every N global steps (int > 0).
        saver: object with ``save(session, prefix)`` writing ``prefix.index`` and
            ``prefix.data-*``; default ``session.save(prefix)``. Not together with ``scaffold``.
        checkpointBasename: file name stem; prefixes are ``checkpointDir/<basename>-<globalStep>``.
        scaffold: object whose ``saver`` is used as ``saver`` (may be None -> default).
        listeners: CheckpointSaverListener instances; ``afterSave`` returning True stops training.
        maxToKeep: newest checkpoints kept (older files deleted); 0 or None keeps all.

    Raises:
        ValueError: both or neither of saveSecs/saveSteps, both saver and scaffold, a non-positive
            interval or a negative maxToKeep.
        CheckpointSaveError: a save produced no checkpoint files (at the callback that saved).
    """

    def __init__(self, checkpointDir: str, saveSecs: Optional[float] = None, saveSteps: Optional[int] = None,
                 saver: Any = None, checkpointBasename: str = "model.ckpt", scaffold: Any = None,
                 listeners: Optional[Sequence[CheckpointSaverListener]] = None,
                 maxToKeep: Optional[int] = 5) -> None:
        name = type(self).__name__
        if saver is not None and scaffold is not None:
            raise ValueError(f"{name}: you cannot provide both saver and scaffold")
        if maxToKeep is not None and maxToKeep < 0:
            raise ValueError(f"{name}: maxToKeep must be >= 0 (0 keeps all), got {maxToKeep!r}")
        self._timer = SecondOrStepTimer(everySecs=saveSecs, everySteps=saveSteps, owner=name,
                                        secsName="saveSecs", stepsName="saveSteps")
        self.checkpointDir = checkpointDir
        self.checkpointBasename = checkpointBasename
        self._saver = saver if saver is not None else (_saver_of(scaffold) if scaffold is not None else None)
        self._listeners: List[CheckpointSaverListener] = list(listeners or [])
        self._rotation = CheckpointRotation(checkpointDir, maxToKeep)
        self._savedSteps: List[int] = []
        self._coord: Any = None

    # --- read-only state -------------------------------------------------------------------
    @property
    def savedSteps(self) -> List[int]:
        """Global steps saved so far, in the order the saves completed."""
        return list(self._savedSteps)

    @property
    def lastSavedStep(self) -> Optional[int]:
        return self._savedSteps[-1] if self._savedSteps else None

    # --- callbacks -------------------------------------------------------------------------
    def begin(self) -> None:
        os.makedirs(self.checkpointDir, exist_ok=True)
        for listener in self._listeners:
            listener.begin()

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        self._coord = coord
        step = read_global_step(session)
        if self._save(session, step, "afterCreateSession"):
            self._requestStop(None)
        self._timer.updateLastTriggeredStep(step)

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return SessionRunArgs(runContext.session.globalStepTensorName())

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        if not self._timer.shouldTriggerForStep(int(runValues.results) + _ALWAYS_RECHECK):
            return
        step = read_global_step(runContext.session)
        if self._timer.shouldTriggerForStep(step):
            self._timer.updateLastTriggeredStep(step)
            if self._save(runContext.session, step, "afterSessionRun"):
                self._requestStop(runContext)

    def end(self, session: Any) -> None:
        lastStep = read_global_step(session)
        if lastStep != self._timer.lastTriggeredStep():
            if self._save(session, lastStep, "end"):
                self._requestStop(None)
        for listener in self._listeners:
            listener.end(session, lastStep)

    # --- saving ----------------------------------------------------------------------------
    def _requestStop(self, runContext: Any) -> None:
        if runContext is not None:
            runContext.requestStop()
        if self._coord is not None:
            self._coord.requestStop()

    def _save(self, session: Any, step: int, callback: str) -> bool:
        """Saves the checkpoint labelled ``step``; returns whether a listener asked to stop."""
        prefix = checkpoint_prefix(self.checkpointDir, self.checkpointBasename, step)
        for listener in self._listeners:
            listener.beforeSave(session, step)
        logger.info("Saving checkpoints for %d into %s.", step, prefix)
        if self._saver is not None:
            self._saver.save(session, prefix)
        else:
            session.save(prefix)
        return self._finishSave(session, step, prefix, callback)

    def _finishSave(self, session: Any, step: int, prefix: str, callback: str) -> bool:
        """After the files are written: check them, update the state file and rotation, then
        call every listener's afterSave (all of them, even after one asked to stop)."""
        if not checkpoint_exists(prefix):
            raise CheckpointSaveError(type(self).__name__, callback, step, prefix,
                                      FileNotFoundError(f"no {prefix}.index / {prefix}.data-* after the save"))
        self._rotation.record(prefix)
        self._savedSteps.append(step)
        logger.info("Saved checkpoint for step %d: %s", step, prefix)
        stop = False
        for listener in self._listeners:
            if listener.afterSave(session, step):
                logger.info("%s: a listener asked to stop after saving step %d (listener: %r)",
                            type(self).__name__, step, listener)
                stop = True
        return stop
