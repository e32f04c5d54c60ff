"""AsyncCheckpointSaverHook: checkpoints written by a background thread from a training-thread snapshot.

Twin of org.jhooks.hooks.AsyncCheckpointSaverHook. Same schedule as CheckpointSaverHook (and TF's
``AsyncCheckpointSaverHook``), with TF's defects fixed (docs/standard-hooks.md):

- Consistent: every variable is read with ONE raw run on the training thread (the snapshot); the
  checkpoint labelled step N holds exactly the values of global step N, whatever training does
  while the background thread writes.
- No silent skip (overlap policy WAIT): at most one write is in flight; a save that falls due
  while the previous write runs waits for it, counted in ``overlapWaits`` and logged.
- No lost failure: a failed background write (or a listener's afterSave raising on the writer
  thread) is raised as CheckpointSaveError on the training thread at the next callback, in
  ``end`` or by ``waitForPendingSaves``.
- Listener stop honoured: afterSave returning True requests stop through the coordinator and the
  next run context.
- ``afterSave`` is called on the writer thread only after the data, index and ``checkpoint`` state
  file are on disk.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

from jhooks.api.errors import HookError
from jhooks.api.listener import CheckpointSaverListener
from jhooks.hooks.checkpoint_files import checkpoint_prefix
from jhooks.hooks.checkpoint_saver import CheckpointSaverHook
from jhooks.hooks.errors import CheckpointSaveError
from jhooks.hooks.snapshot_writer import SnapshotWriter

logger = logging.getLogger("jhooks.hooks")

_GLOBAL_STEP = "globalStep"
_VARIABLES = "variables"


class AsyncCheckpointSaverHook(CheckpointSaverHook):
    """Saves like CheckpointSaverHook, writing in a background thread (see the module docstring).

    Args: as CheckpointSaverHook, and
        saver: object with ``writeSnapshot(prefix, values)`` (values: checkpoint key -> numpy
            array), called on the writer thread; default SnapshotWriter (TF ``SaveV2``).
        variables: ``{checkpoint key: tensor name reading the value}`` to checkpoint; default
            ``session.saveableVariables()`` of the session view.

    Raises:
        ValueError: as CheckpointSaverHook; a saver without ``writeSnapshot``.
        HookError: the session view has no ``saveableVariables()`` and no ``variables`` were given.
        CheckpointSaveError: a background write failed (raised on the training thread later).
    """

    def __init__(self, checkpointDir: str, saveSecs: Optional[float] = None, saveSteps: Optional[int] = None,
                 saver: Any = None, checkpointBasename: str = "model.ckpt", scaffold: Any = None,
                 listeners: Optional[Sequence[CheckpointSaverListener]] = None, maxToKeep: Optional[int] = 5,
                 variables: Optional[Mapping[str, str]] = None) -> None:
        super().__init__(checkpointDir, saveSecs=saveSecs, saveSteps=saveSteps, saver=saver,
                         checkpointBasename=checkpointBasename, scaffold=scaffold, listeners=listeners,
                         maxToKeep=maxToKeep)
        if self._saver is not None and not callable(getattr(self._saver, "writeSnapshot", None)):
            raise ValueError(f"AsyncCheckpointSaverHook: saver must implement writeSnapshot(prefix, values), "
                             f"got {self._saver!r}")
        self._ownsWriter = self._saver is None
        self._writer = self._saver if self._saver is not None else SnapshotWriter()
        self._variables: Optional[Dict[str, str]] = dict(variables) if variables is not None else None
        self._cond = threading.Condition()
        self._job: Optional[Tuple[int, str, Any, Dict[str, Any]]] = None   # queued or being written
        self._failure: Optional[Tuple[int, str, BaseException]] = None
        self._listenerStop = False
        self._shutdown = False
        self._thread: Optional[threading.Thread] = None
        self._overlapWaits = 0

    # --- read-only state -------------------------------------------------------------------
    @property
    def overlapWaits(self) -> int:
        """How many saves had to wait for the previous background write (overlap policy WAIT)."""
        return self._overlapWaits

    @property
    def savedSteps(self):
        with self._cond:
            return list(self._savedSteps)

    @property
    def lastSavedStep(self) -> Optional[int]:
        with self._cond:
            return self._savedSteps[-1] if self._savedSteps else None

    def waitForPendingSaves(self) -> None:
        """Blocks until no write is queued or running; raises CheckpointSaveError if one failed."""
        self._awaitIdle()
        self._raisePending("waitForPendingSaves")

    # --- callbacks -------------------------------------------------------------------------
    def afterCreateSession(self, session: Any, coord: Any) -> None:
        self._raisePending("afterCreateSession")
        if self._variables is None:
            saveable = getattr(session, "saveableVariables", None)
            if saveable is None:
                raise HookError("AsyncCheckpointSaverHook", "afterCreateSession",
                                f"the session view {type(session).__name__} has no saveableVariables() "
                                f"and no variables were given")
            self._variables = dict(saveable())
        super().afterCreateSession(session, coord)

    def beforeSessionRun(self, runContext: Any):
        self._raisePending("beforeSessionRun")
        return super().beforeSessionRun(runContext)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        self._raisePending("afterSessionRun")
        if self._takeListenerStop():
            runContext.requestStop()
        super().afterSessionRun(runContext, runValues)

    def end(self, session: Any) -> None:
        try:
            self._awaitIdle()
            self._raisePending("end")
            super().end(session)   # final save (if due) and listeners' end, after it is written
        finally:
            self._stopThread()

    # --- saving ----------------------------------------------------------------------------
    def _save(self, session: Any, step: int, callback: str) -> bool:
        for listener in self._listeners:
            listener.beforeSave(session, step)
        snapshot = session.run({_VARIABLES: self._variables, _GLOBAL_STEP: session.globalStepTensorName()})
        label = int(snapshot[_GLOBAL_STEP])
        prefix = checkpoint_prefix(self.checkpointDir, self.checkpointBasename, label)
        logger.info("Saving checkpoints for %d into %s.", label, prefix)
        self._submit((label, prefix, session, snapshot[_VARIABLES]), callback)
        if callback == "end":
            self._awaitIdle()
            self._raisePending("end")
        return self._takeListenerStop()

    def _submit(self, job: Tuple[int, str, Any, Dict[str, Any]], callback: str) -> None:
        with self._cond:
            if self._job is not None:
                self._overlapWaits += 1
                logger.info("AsyncCheckpointSaverHook: save for step %d waits for the write of step %d "
                            "still in flight (overlap #%d)", job[0], self._job[0], self._overlapWaits)
                while self._job is not None:
                    self._cond.wait()
            self._raisePendingLocked(callback)
            self._job = job
            if self._thread is None:
                self._shutdown = False
                self._thread = threading.Thread(target=self._writeLoop, daemon=True,
                                                name=f"AsyncCheckpointSaverHook-writer-{id(self):x}")
                self._thread.start()
            self._cond.notify_all()

    def _writeLoop(self) -> None:
        while True:
            with self._cond:
                while self._job is None and not self._shutdown:
                    self._cond.wait()
                if self._job is None:
                    return
                step, prefix, session, values = self._job
            try:
                self._writer.writeSnapshot(prefix, values)
                stop = self._finishSave(session, step, prefix, "writer thread")
            except BaseException as e:  # kept and raised on the training thread
                logger.error("AsyncCheckpointSaverHook: background save of step %d to %s failed: %s",
                             step, prefix, e)
                with self._cond:
                    if self._failure is None:
                        self._failure = (step, prefix, e)
                    self._job = None
                    self._cond.notify_all()
                continue
            if stop and self._coord is not None:
                self._coord.requestStop()
            with self._cond:
                self._listenerStop = self._listenerStop or stop
                self._job = None
                self._cond.notify_all()

    # --- helpers ---------------------------------------------------------------------------
    def _awaitIdle(self) -> None:
        with self._cond:
            while self._job is not None:
                self._cond.wait()

    def _takeListenerStop(self) -> bool:
        with self._cond:
            stop, self._listenerStop = self._listenerStop, False
            return stop

    def _raisePending(self, callback: str) -> None:
        with self._cond:
            self._raisePendingLocked(callback)

    def _raisePendingLocked(self, callback: str) -> None:
        if self._failure is not None:
            step, prefix, cause = self._failure
            self._failure = None
            raise CheckpointSaveError("AsyncCheckpointSaverHook", callback, step, prefix, cause) from cause

    def _stopThread(self) -> None:
        with self._cond:
            self._shutdown = True
            thread, self._thread = self._thread, None
            self._cond.notify_all()
        if thread is not None:
            thread.join()
        if self._ownsWriter:
            self._writer.close()
