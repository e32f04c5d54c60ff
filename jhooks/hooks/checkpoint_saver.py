"""CheckpointSaverHook: saves a checkpoint every N steps or seconds, synchronously.

Twin of org.jhooks.hooks.CheckpointSaverHook; mirrors ``tf.compat.v1.train.CheckpointSaverHook``
(docs/standard-hooks.md, docs/contract.md "Checkpoints"). As TF's, at each session creation it
writes ``graph.pbtxt`` into the checkpoint dir and the graph and meta graph into the dir's event
file, when the session view has a graph. Differences from TF: the hook writes the ``checkpoint`` state file
itself, atomically and only after the checkpoint files exist, and rotates old checkpoints
(``maxToKeep``); a listener's stop request from the save after session creation is honoured
through the coordinator (TF drops it).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any, ClassVar

from jhooks.api.checkpoint_guard import CheckpointGuard
from jhooks.api.errors import HookError
from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener, SaveDecision
from jhooks.api.run_args import SessionRunArgs
from jhooks.checkpoint.errors import CheckpointSaveError, CheckpointStateError
from jhooks.checkpoint.files import GRAPH_FILE, write_graph
from jhooks.checkpoint.keeper import CheckpointKeeper
from jhooks.checkpoint.snapshot_writer import SnapshotWriter
from jhooks.hooks.nan_tensor import has_nan
from jhooks.hooks.saver import Saver
from jhooks.hooks.timer import SecondOrStepTimer

logger = logging.getLogger(__name__)

_DEFAULT_MAX_TO_KEEP = 5
_VARIABLES = "variables"
_GLOBAL_STEP = "globalStep"
_LOSSES = "losses"


def validate_saver_args(
    checkpointDir: Any, saveSecs: Any, saveSteps: Any, saver: Any, scaffold: Any, maxToKeep: Any
) -> Saver:
    """Checks the saver hooks' arguments (texts agreed with the Java twin); returns the Saver."""
    if not checkpointDir:
        raise ValueError("checkpointDir must be given")
    if saver is not None and scaffold is not None:
        raise ValueError("You cannot provide both saver and scaffold.")
    if saveSecs is None and saveSteps is None:  # TensorFlow's texts (its hook's SecondOrStepTimer)
        raise ValueError("Either every_secs or every_steps should be provided.")
    if saveSecs is not None and saveSteps is not None:
        raise ValueError("Can not provide both every_secs and every_steps.")
    if saveSteps is not None and saveSteps <= 0:
        raise ValueError(f"saveSteps must be positive, got {saveSteps}")
    if saveSecs is not None and saveSecs <= 0:
        raise ValueError(f"saveSecs must be positive, got {saveSecs}")
    if saver is not None and maxToKeep != _DEFAULT_MAX_TO_KEEP:
        raise ValueError("You cannot provide both saver and maxToKeep.")
    if saver is None and scaffold is not None:
        saver = scaffold.saver()
    if saver is None:
        saver = Saver(maxToKeep=maxToKeep)
    if not isinstance(saver, Saver):
        raise ValueError(f"saver must be a jhooks.hooks.Saver, got {type(saver).__name__} {saver!r}")
    return saver


class CheckpointSaverHook(Hook):
    """Saves a TF V2 checkpoint after session creation, every ``saveSteps`` global steps or
    ``saveSecs`` seconds, and in ``end`` unless that global step was already saved.

    Args:
        checkpointDir: directory of the checkpoints and the ``checkpoint`` state file (created).
        saveSecs: save every N seconds (> 0); exactly one of saveSecs/saveSteps (else ValueError, TF's texts).
        saveSteps: save every N global steps (int > 0).
        saver: a jhooks.hooks.Saver (which variables, maxToKeep); default ``Saver(maxToKeep=maxToKeep)``.
            Without explicit variables the files come from ``session.save(prefix)``, else from a
            one-run snapshot of those variables.
        checkpointBasename: prefixes are ``checkpointDir/<checkpointBasename>-<globalStep>``; a plain
            file name, taken literally (``m?``, ``run[1]``, ``*`` are names, not patterns).
        scaffold: a jhooks.hooks.Scaffold whose ``saver()`` is used (not together with saver).
        listeners: CheckpointSaverListener list; ``afterSave`` returning True requests stop;
            ``beforeSave`` returning ``SaveDecision.SKIP`` skips that save: no files, the state file
            untouched, no ``afterSave`` (TF's listeners cannot, TF #20992).
        maxToKeep: shorthand for ``saver=Saver(maxToKeep=...)``; 0 or None keeps all.

    No poisoned checkpoints (docs/standard-hooks.md): the hook fetches the losses a NanTensorHook
    watches in the session's CheckpointGuard with every run and writes no checkpoint of the step a
    NaN loss produced or of any later one (timer, ``afterCreateSession`` or ``end``), whatever the
    order of the hooks; and it writes no checkpoint whose float variables hold a NaN or an infinity
    (weights can turn NaN one run before the loss): one fused check before each save, through the
    view's ``nonFiniteVariables()`` or of the snapshot's values. Each refused save logs a WARNING
    naming the step. TensorFlow's hook writes the NaN weights.

    The graph (TF's ``after_create_session``): after each session creation, before that creation's
    save, the hook writes the view's ``graphDef()`` as text to ``checkpointDir/graph.pbtxt`` (to a
    temporary ``graph.pbtxt.tmp*``, then renamed over it) and appends a ``graph_def`` event and a
    ``meta_graph_def`` event (the view's ``metaGraphDef()``) to the event file of ``checkpointDir``
    (shared per directory, jhooks.hooks.event_writer; flushed before the callback returns), as
    TensorFlow's hook does. A view without a graph (no ``graphDef``, or NotImplementedError) gets
    neither, with a DEBUG record.

    Checkpoint files (docs/contract.md, "Checkpoints"): the hook writes, overwrites and deletes only
    inside ``checkpointDir``; rotation deletes only ``<checkpointBasename>-<step>`` checkpoints of that
    dir, whatever the state file lists (entries of another dir, such as the absolute paths TF's Saver
    writes in a copied run dir, are left alone and dropped from the list it writes). ``begin`` deletes
    the temporaries a killed save left (``checkpoint.tmp*``, ``<checkpointBasename>-*.tempstate*``)
    and the checkpoints a save killed during its rotation had dropped but not deleted (listed in
    ``checkpoint.rotation``; TensorFlow's Saver leaves them forever).

    Raises:
        ValueError: see docs/standard-hooks.md (texts shared with Java; neither or both of
            saveSecs/saveSteps: TensorFlow's texts, "Either every_secs or every_steps should be
            provided." / "Can not provide both every_secs and every_steps."); a
            ``checkpointBasename`` with a path separator or ``..`` (naming the hook and the value).
        HookError: in ``begin``, the dir cannot be created or its ``checkpoint`` state file cannot be
            read or parsed (cause: CheckpointStateError); nothing is written then. In
            ``afterCreateSession``, ``graph.pbtxt`` or the graph events cannot be written (e.g. a
            file size limit, the name taken by a directory): names the hook, the callback and the
            file, the OSError as cause; no checkpoint is saved then.
        CheckpointSaveError: a save failed (files, state file or rotation not written, e.g. disk
            full or a file size limit, which TF reports as OutOfRange) or left no checkpoint files;
            names the hook, callback, global step and prefix. Never taken as end of input.
    """

    # Every record of a save goes to the logger of the hook's own class (a subclass sets its own).
    _log: ClassVar[logging.Logger] = logger

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
        self._saver = validate_saver_args(checkpointDir, saveSecs, saveSteps, saver, scaffold, maxToKeep)
        self._timer = SecondOrStepTimer(everySecs=saveSecs, everySteps=saveSteps)
        self.checkpointDir = checkpointDir
        self._keeper = CheckpointKeeper(type(self).__name__, checkpointDir, checkpointBasename, self._saver.maxToKeep())
        self.checkpointBasename = checkpointBasename
        self._listeners: list[CheckpointSaverListener] = list(listeners or [])
        self._savedSteps: list[int] = []
        self._snapshotWriter: SnapshotWriter | None = None
        self._coord: Any = None
        self._watched: list[str] | None = None  # the guard's watched losses, read at the first run

    def savedSteps(self) -> list[int]:
        """Labelled global steps whose checkpoints are on disk, in save order."""
        return list(self._savedSteps)

    def keptCheckpoints(self) -> list[str]:
        """The checkpoints kept on disk, as the state file lists them (names relative to the
        checkpoint dir), oldest first."""
        return self._keeper.kept()

    def lastSavedStep(self) -> int | None:
        steps = self.savedSteps()
        return steps[-1] if steps else None

    # --- callbacks -------------------------------------------------------------------------
    def begin(self) -> None:
        try:
            self._keeper.open()
        except CheckpointStateError as e:
            raise HookError(type(self).__name__, "begin", f"{e}; remove or repair it (nothing was written)") from e
        except OSError as e:
            if os.path.isdir(self.checkpointDir):
                left = f"cannot remove what a killed save left in {self.checkpointDir!r}: {e}"
                raise HookError(type(self).__name__, "begin", left) from e
            what = "it exists and is not a directory" if os.path.exists(self.checkpointDir) else str(e)
            raise HookError(
                type(self).__name__, "begin", f"cannot create checkpointDir {self.checkpointDir!r}: {what}"
            ) from e
        for listener in self._listeners:
            listener.begin()

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        self._coord = coord
        self._watched = None
        step = session.globalStep()
        self._writeGraph(session, "afterCreateSession")
        if self._restoredFrom(step):
            self._log.debug(
                "Not saving step %d after session creation: the session was restored from %s.", step, self._prefix(step)
            )
        elif self._save(session, step, "afterCreateSession") and coord is not None:
            coord.requestStop()
        self._timer.updateLastTriggeredStep(step)

    def _writeGraph(self, session: Any, callback: str) -> None:
        """``graph.pbtxt`` and the ``graph_def`` and ``meta_graph_def`` events of the view's graph,
        as TF's hook writes them at session creation; nothing when the view has no graph. Raises
        HookError naming the hook, ``callback`` and the file when a write fails."""
        graphDef = _optional(session, "graphDef")
        if graphDef is None:
            self._log.debug(
                "%s: %r has no graph: no %s or graph events written.", type(self).__name__, session, GRAPH_FILE
            )
            return
        metaGraphDef = _optional(session, "metaGraphDef")
        from jhooks.hooks import event_writer

        target = os.path.join(self.checkpointDir, GRAPH_FILE)
        try:
            write_graph(self.checkpointDir, graphDef)
            target = f"the event file in {self.checkpointDir}"
            writer = event_writer.acquire(self.checkpointDir)
            target = writer.path()
            try:
                writer.addGraph(graphDef)
                if metaGraphDef is not None:
                    writer.addMetaGraph(metaGraphDef)
            finally:
                event_writer.release(writer)  # flushes: a failed write is raised here
        except OSError as e:
            raise HookError(type(self).__name__, callback, f"cannot write the graph to {target}: {e}") from e

    def _restoredFrom(self, step: int) -> bool:
        """Whether the dir's latest checkpoint is this hook's checkpoint of ``step`` (the session
        was restored from it), so saving it again would only rewrite the same values."""
        return self._keeper.latestIs(step)

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        session = runContext.session
        if self._watched is None:  # every hook's afterCreateSession (where losses are watched) ran
            self._watched = CheckpointGuard.of(session).watchedLosses()
        if self._watched:
            return SessionRunArgs({_GLOBAL_STEP: session.globalStepTensorName(), _LOSSES: list(self._watched)})
        return SessionRunArgs.of(session.globalStepTensorName())

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        results = runValues.results
        if isinstance(results, dict):
            self._checkLosses(runContext.session, results[_LOSSES])
            results = results[_GLOBAL_STEP]
        step = self._timer.dueStep(runContext.session, int(results))
        if step is not None:
            self._timer.updateLastTriggeredStep(step)
            if self._save(runContext.session, step, "afterSessionRun"):
                runContext.requestStop()

    def end(self, session: Any) -> None:
        lastStep = session.globalStep()
        if lastStep != self._timer.lastTriggeredStep():
            self._save(session, lastStep, "end")
        for listener in self._listeners:
            listener.end(session, lastStep)
        self.close()

    def close(self) -> None:
        """Releases the snapshot writer's private TF session (if any)."""
        if self._snapshotWriter is not None:
            self._snapshotWriter.close()
            self._snapshotWriter = None

    # --- saving ----------------------------------------------------------------------------
    def _prefix(self, step: int) -> str:
        return self._keeper.prefixFor(step)

    def _checkLosses(self, session: Any, losses: list[Any]) -> None:
        """Reports a NaN among the watched losses of this run to the session's CheckpointGuard (the
        NanTensorHook may come later in the hook list, or not see this run at all)."""
        for name, value in zip(self._watched or [], losses):
            if has_nan(value):
                CheckpointGuard.of(session).reportNanLoss(session.globalStep(), name)
                return

    def _guardAllows(self, session: Any, step: int, callback: str) -> bool:
        """Whether the session's CheckpointGuard lets the checkpoint of ``step`` be written; logs a
        WARNING naming the step when not (docs/standard-hooks.md, "No poisoned checkpoints")."""
        guard = CheckpointGuard.of(session)
        if guard.allowsSave(step):
            return True
        last = self.lastSavedStep()
        self._log.warning(
            "%s: not saving the checkpoint of step %d (%s): loss %s was NaN in the run that made global step %d; "
            "the latest checkpoint stays %s (TensorFlow's CheckpointSaverHook would write the NaN weights).",
            type(self).__name__,
            step,
            callback,
            guard.nanLoss(),
            guard.nanStep(),
            "none" if last is None else self._prefix(last),
        )
        return False

    @staticmethod
    def _ownCheck(session: Any) -> list[str] | None:
        """The view's ``nonFiniteVariables()`` (its check of what ``save`` writes), or None when it
        has none (a view without the method, or one raising NotImplementedError)."""
        check = getattr(session, "nonFiniteVariables", None)
        if check is None:
            return None
        try:
            return list(check())
        except NotImplementedError:
            return None

    @staticmethod
    def _listsVariables(session: Any) -> bool:
        listing = getattr(session, "saveableVariables", None)
        if listing is None:
            return False
        try:
            listing()
        except NotImplementedError:
            return False
        return True

    def _refuseNonFinite(self, step: int, callback: str, variables: list[str]) -> bool:
        """Logs the WARNING for a checkpoint not written because ``variables`` (checkpoint keys)
        hold a NaN or an infinity; returns False (no listener asked to stop)."""
        last = self.lastSavedStep()
        self._log.warning(
            "%s: not saving the checkpoint of step %d (%s): variables %s hold NaN or infinity; the latest "
            "checkpoint stays %s (TensorFlow's CheckpointSaverHook would write them).",
            type(self).__name__,
            step,
            callback,
            ", ".join(variables),
            "none" if last is None else self._prefix(last),
        )
        return False

    def _save(self, session: Any, step: int, callback: str) -> bool:
        """Saves the checkpoint labelled ``step``; returns whether a listener asked to stop."""
        if not self._guardAllows(session, step, callback):
            return False
        if not self._decideSave(session, step, callback):
            return False
        prefix = self._prefix(step)
        try:
            explicit = self._saver.variables() is not None
            nonFinite = None if explicit else self._ownCheck(session)
            if nonFinite is None and (explicit or self._listsVariables(session)):
                step, values = self._snapshot(session, step)
                prefix = self._prefix(step)
                nonFinite = self._writer().nonFinite(values)
                if nonFinite:
                    return self._refuseNonFinite(step, callback, nonFinite)
                self._log.info("Saving checkpoints for %d into %s.", step, prefix)
                self._writer().writeSnapshot(prefix, values)
            elif nonFinite:
                return self._refuseNonFinite(step, callback, nonFinite)
            else:  # checked by the view, or a view that can neither check nor list its variables
                self._log.info("Saving checkpoints for %d into %s.", step, prefix)
                session.save(prefix)
            self._recordOnDisk(step, prefix, callback)
        except (CheckpointSaveError, NotImplementedError):  # NotImplementedError: a view that cannot list variables
            raise
        except Exception as e:  # a failed write (TF may say OutOfRange) is an error, never end of input
            self._discardTemporaries()
            raise CheckpointSaveError(type(self).__name__, callback, step, prefix, e) from e
        return self._afterSave(session, step)

    def _decideSave(self, session: Any, step: int, callback: str) -> bool:
        """Every listener's ``decideSave`` (all of them, in order); whether the save goes ahead.
        Raises HookError naming this hook, ``callback``, the listener and the value when a
        listener decides anything but a SaveDecision."""
        skippedBy = []
        for listener in self._listeners:
            decision = listener.decideSave(session, step)
            if not isinstance(decision, SaveDecision):
                raise HookError(
                    type(self).__name__,
                    callback,
                    f"CheckpointSaverListener {listener!r}.beforeSave returned {type(decision).__name__} "
                    f"{decision!r} for step {step}; expected None or jhooks.SaveDecision",
                )
            if decision is SaveDecision.SKIP:
                skippedBy.append(repr(listener))
        if skippedBy:
            self._log.info(
                "%s: skipping the checkpoint of step %d (%s): CheckpointSaverListener %s returned SaveDecision.SKIP.",
                type(self).__name__,
                step,
                self._prefix(step),
                ", ".join(skippedBy),
            )
            return False
        return True

    def _discardTemporaries(self) -> None:
        """After a failed save: removes the temporaries it left (TF's bundle writer keeps them)."""
        self._keeper.discardTemporaries()

    def _writer(self) -> SnapshotWriter:
        if self._snapshotWriter is None:
            self._snapshotWriter = SnapshotWriter()
        return self._snapshotWriter

    def _snapshot(self, session: Any, step: int) -> tuple[int, dict[str, Any]]:
        """Every variable of the saver read with ONE raw run, with the global step of that same
        run, which labels the checkpoint (it differs from ``step`` only if something else trains
        concurrently: logged as a WARNING)."""
        values = session.run(
            {_VARIABLES: self._saver.variablesIn(session), _GLOBAL_STEP: session.globalStepTensorName()}
        )
        return self._labelled(step, int(values[_GLOBAL_STEP])), values[_VARIABLES]

    def _labelled(self, step: int, label: int) -> int:
        """The snapshot's own global step ``label``, with a WARNING when it is not ``step``."""
        if label != step:
            self._log.warning(
                "%s: the snapshot for step %d read global step %d; the checkpoint is labelled %d",
                type(self).__name__,
                step,
                label,
                label,
            )
        return label

    def _recordOnDisk(self, step: int, prefix: str, callback: str) -> None:
        """Checks the files, then replaces the state file and deletes rotated-out checkpoints."""
        self._keeper.commit(prefix)
        self._savedSteps.append(step)
        self._log.info("Saved checkpoint %s.", prefix)

    def _afterSave(self, session: Any, step: int) -> bool:
        """Every listener's afterSave (all are called); whether any asked to stop."""
        stop = False
        for listener in self._listeners:
            if listener.afterSave(session, step):
                self._log.info("A CheckpointSaverListener requested that training be stopped. listener: %r", listener)
                stop = True
        return stop


def _optional(session: Any, method: str) -> bytes | None:
    """The bytes of the view's optional ``method`` (``graphDef`` / ``metaGraphDef``), or None when
    the view lacks it or raises NotImplementedError."""
    get = getattr(session, method, None)
    if get is None:
        return None
    try:
        return bytes(get())
    except NotImplementedError:
        return None
