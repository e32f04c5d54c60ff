"""AsyncCheckpointSaverHook: checkpoints written by a background thread from a training-thread snapshot.

Twin of org.jhooks.hooks.AsyncCheckpointSaverHook. Same schedule as CheckpointSaverHook (and
TF's ``AsyncCheckpointSaverHook``) with TF's defects fixed (docs/standard-hooks.md):

- Consistent: all variables are read with ONE raw run on the training thread (the snapshot), so
  the checkpoint labelled step N holds exactly the values at global step N while training goes on
  during the write.
- At memory speed: when the view offers snapshot buffers (``takeSnapshot``, as jhooks' views of
  TensorFlow sessions do) and the Saver lists no variables, that run copies every variable into
  buffers in the training graph (one grouped op; after the first save into their existing memory)
  and the writer thread writes the buffers (``saveSnapshot``) from the training session, so the
  training thread is blocked for about one copy of the saved bytes and the process holds one
  snapshot, nothing more. The writer thread is registered with the session's coordinator
  (``registerThread``, TF's ``register_thread``), so when the monitored session closes, after an
  error too, it first waits for the write in flight (TF's stop grace period). Otherwise the run
  fetches the values and the writer thread writes them with SnapshotWriter.
- Overlap policy WAIT, no silent skip: at most one write in flight; a save due while the previous
  write runs first waits for it (then snapshots), counted in ``overlapCount()`` and logged.
- No lost failure: a failed background write is raised as CheckpointSaveError on the training
  thread at the next callback, in ``end``, ``waitForPendingSaves()`` or ``close()``.
- No poisoned checkpoint: the writer thread checks the snapshot's float values for NaN and
  infinity (one fused op in the snapshot writer's session) and writes nothing when one holds
  either (a WARNING names the step and the variables; no ``afterSave``).
- Listeners' ``afterSave`` run on the training thread at the first callback after the data, index
  and ``checkpoint`` state file are on disk; True requests stop through that callback's run
  context (the coordinator outside a run).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from jhooks.api.listener import CheckpointSaverListener
from jhooks.checkpoint.errors import CheckpointSaveError
from jhooks.hooks.checkpoint_saver import _DEFAULT_MAX_TO_KEEP, CheckpointSaverHook
from jhooks.hooks.saver import Saver

logger = logging.getLogger(__name__)

_Job = tuple[int, str, Any]  # (labelled step, prefix, snapshot: values, or _InBuffers)


class _InBuffers:
    """A snapshot held in the session view's snapshot buffers (its ``takeSnapshot``)."""

    def __init__(self, session: Any) -> None:
        self.session = session


class _Writes:
    """What the writer thread writes a snapshot with: the view's buffers for a snapshot in them,
    else the SnapshotWriter (values in memory)."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    def nonFinite(self, snapshot: Any) -> list[str]:
        if isinstance(snapshot, _InBuffers):
            return list(snapshot.session.nonFiniteSnapshot())
        return list(self.writer.nonFinite(snapshot))

    def writeSnapshot(self, prefix: str, snapshot: Any) -> None:
        if isinstance(snapshot, _InBuffers):
            snapshot.session.saveSnapshot(prefix)
        else:
            self.writer.writeSnapshot(prefix, snapshot)

    def close(self) -> None:
        self.writer.close()


class AsyncCheckpointSaverHook(CheckpointSaverHook):
    """Saves like CheckpointSaverHook; the files are written by one daemon writer thread.

    Arguments and errors as CheckpointSaverHook (the Saver's variables default to
    ``session.saveableVariables()``; a view without it raises NotImplementedError). Extra methods:
    ``waitForPendingSaves()``, ``overlapCount()``, ``close()``. ``savedSteps()`` lists the steps
    whose files and state file are on disk.

    Raises CheckpointSaveError (a HookError; ``__cause__`` is the writer's error) on the training
    thread when a background write failed.
    """

    _log = logger

    def __init__(
        self,
        checkpointDir: str,
        saveSecs: float | None = None,
        saveSteps: int | None = None,
        saver: Saver | None = None,
        checkpointBasename: str = "model.ckpt",
        scaffold: Any = None,
        listeners: Sequence[CheckpointSaverListener] | None = None,
        maxToKeep: int | None = _DEFAULT_MAX_TO_KEEP,
    ) -> None:
        super().__init__(
            checkpointDir,
            saveSecs=saveSecs,
            saveSteps=saveSteps,
            saver=saver,
            checkpointBasename=checkpointBasename,
            scaffold=scaffold,
            listeners=listeners,
            maxToKeep=maxToKeep,
        )
        self._cond = threading.Condition()
        self._job: _Job | None = None  # handed over, being written
        self._written: deque[int] = deque()  # on disk, afterSave not yet called
        self._failure: tuple[int, str, BaseException] | None = None
        self._thread: threading.Thread | None = None
        self._shutdown = False
        self._overlaps = 0
        self._session: Any = None
        self._runContext: Any = None

    # --- public ----------------------------------------------------------------------------
    def overlapCount(self) -> int:
        """Saves that had to wait for the previous background write (overlap policy WAIT)."""
        with self._cond:
            return self._overlaps

    def savedSteps(self) -> list[int]:
        with self._cond:
            return list(self._savedSteps)

    def waitForPendingSaves(self) -> None:
        """Blocks until no write is in flight, calls pending afterSave listeners (a stop request
        goes to the coordinator) and raises a pending CheckpointSaveError."""
        self._awaitIdle()
        self._deliver(self._session, None, "waitForPendingSaves")

    def close(self) -> None:
        """Waits for the write in flight, stops the writer thread; raises a pending failure."""
        self._awaitIdle()
        with self._cond:
            self._shutdown = True
            thread, self._thread = self._thread, None
            self._cond.notify_all()
        if thread is not None:
            thread.join()
        super().close()
        self._raiseFailure("close")

    # --- callbacks -------------------------------------------------------------------------
    def afterCreateSession(self, session: Any, coord: Any) -> None:
        self._session = session
        self._coord = coord
        self._deliver(session, None, "afterCreateSession")
        super().afterCreateSession(session, coord)

    def beforeSessionRun(self, runContext: Any):
        self._deliver(runContext.session, runContext, "beforeSessionRun")
        return super().beforeSessionRun(runContext)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        self._deliver(runContext.session, runContext, "afterSessionRun")
        self._runContext = runContext
        try:
            super().afterSessionRun(runContext, runValues)
        finally:
            self._runContext = None

    def end(self, session: Any) -> None:
        try:
            self._awaitIdle()
            self._deliver(session, None, "end")
            lastStep = session.globalStep()
            if lastStep != self._timer.lastTriggeredStep():
                self._save(session, lastStep, "end")
                self._awaitIdle()
                self._deliver(session, None, "end")
            for listener in self._listeners:
                listener.end(session, lastStep)
        finally:
            self.close()

    # --- saving (training thread) ------------------------------------------------------------
    def _save(self, session: Any, step: int, callback: str) -> bool:
        if not self._guardAllows(session, step, callback):
            return False
        with self._cond:
            busy = self._job
        if busy is not None:
            started = time.monotonic()
            self._awaitIdle()
            with self._cond:
                self._overlaps += 1
                n = self._overlaps
            self._log.debug(
                "AsyncCheckpointSaverHook: save for step %d waited %.3f s for the save of step %d (overlap #%d)",
                step,
                time.monotonic() - started,
                busy[0],
                n,
            )
        # the previous save is complete: its afterSave runs before this save's beforeSave
        self._deliver(session, self._runContext, callback)
        if not self._decideSave(session, step, callback):
            return False
        try:
            step, snapshot = self._snapshot(session, step)
        except NotImplementedError:  # a view that cannot list its variables: no save failure
            raise
        except Exception as e:  # the snapshot's raw run: an error, never end of input
            raise CheckpointSaveError(type(self).__name__, callback, step, self._prefix(step), e) from e
        prefix = self._prefix(step)
        self._log.info("Saving checkpoints for %d into %s.", step, prefix)
        with self._cond:
            self._job = (step, prefix, snapshot)
            if self._thread is None:
                self._shutdown = False
                self._thread = threading.Thread(
                    target=self._writeLoop, daemon=True, name="AsyncCheckpointSaverHook-writer"
                )
                self._thread.start()
                register = getattr(self._coord, "registerThread", None)
                if register is not None:  # the session's close waits for the write from the buffers
                    register(self._thread)
            self._cond.notify_all()
        return False  # listeners' afterSave run later, in _deliver

    def _snapshot(self, session: Any, step: int) -> tuple[int, Any]:
        """The view's snapshot buffers when it has them and the Saver lists no variables (one run
        copying every variable, the global step of that run the label), else the fetched values."""
        take = getattr(session, "takeSnapshot", None)
        if take is not None and self._saver.variables() is None:
            try:
                label = int(take())
            except NotImplementedError:
                pass
            else:
                return self._labelled(step, label), _InBuffers(session)
        return super()._snapshot(session, step)

    def _writer(self) -> Any:
        return _Writes(super()._writer())

    def _deliver(self, session: Any, runContext: Any, callback: str) -> None:
        """Calls afterSave for every checkpoint written since the last callback, then raises a
        pending write failure. A stop request goes to ``runContext`` (else the coordinator)."""
        while True:
            with self._cond:
                if not self._written:
                    break
                step = self._written.popleft()
            if self._afterSave(session, step):
                if runContext is not None:
                    runContext.requestStop()
                elif self._coord is not None:
                    self._coord.requestStop()
        self._raiseFailure(callback)

    def _raiseFailure(self, callback: str) -> None:
        with self._cond:
            failure, self._failure = self._failure, None
        if failure is not None:
            step, prefix, cause = failure
            raise CheckpointSaveError("AsyncCheckpointSaverHook", callback, step, prefix, cause) from cause

    def _stopping(self) -> bool:
        """Whether the session's coordinator asks threads to stop (its close then joins them)."""
        coord = self._coord
        return coord is not None and hasattr(coord, "registerThread") and bool(coord.shouldStop())

    def _awaitIdle(self) -> None:
        with self._cond:
            while self._job is not None:
                self._cond.wait()

    # --- writer thread -----------------------------------------------------------------------
    def _writeLoop(self) -> None:
        while True:
            with self._cond:
                while self._job is None and not self._shutdown and not self._stopping():
                    self._cond.wait(0.05)
                if self._job is None:  # shut down, or the coordinator stops: the next save starts a writer
                    if self._thread is threading.current_thread():
                        self._thread = None
                    return
                step, prefix, snapshot = self._job
            failure: BaseException | None = None
            written = False
            try:
                nonFinite = self._writer().nonFinite(snapshot)
                if nonFinite:
                    self._refuseNonFinite(step, "writer thread", nonFinite)
                else:
                    self._writer().writeSnapshot(prefix, snapshot)
                    with self._cond:
                        self._recordOnDisk(step, prefix, "writer thread")
                    written = True
            except BaseException as e:  # handed to the training thread, never dropped
                self._log.error(
                    "AsyncCheckpointSaverHook: background save of step %d to %s failed: %s: %s",
                    step,
                    prefix,
                    type(e).__name__,
                    e,
                )
                failure = e
                self._discardTemporaries()
            with self._cond:
                if failure is not None:
                    if self._failure is None:
                        self._failure = (step, prefix, failure)
                elif written:
                    self._written.append(step)
                self._job = None
                self._cond.notify_all()
