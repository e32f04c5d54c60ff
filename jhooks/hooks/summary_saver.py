"""SummarySaverHook: writes summary-op results to TensorBoard event files (twin of the Java class)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.hooks.hook_event_writer import HookEventWriter
from jhooks.hooks.timer import SecondOrStepTimer

_GLOBAL_STEP = "globalStep"
_SUMMARY = "summary"
_SCALARS = "scalars"
_SESSION_LOG_START = 1  # tensorboard's event_pb2.SessionLog.START (not imported: no TF needed here)


def _as_bytes(value: Any) -> bytes:
    """A serialized Summary from a string-tensor value: both drivers give a shape-() object array
    holding ``bytes`` (docs/contract.md, "Fetches, feeds and results")."""
    return bytes(value.item() if isinstance(value, np.ndarray) else value)


class SummarySaverHook(Hook):
    """Every ``saveSteps`` global steps or ``saveSecs`` seconds, fetches ``summaryOp`` with the run
    and appends each serialized ``Summary`` at the global step to an event file that TensorBoard
    reads, as ``tf.compat.v1.train.SummarySaverHook``: the first run always writes (and a
    SessionLog START event first), the global step is re-read with a raw run when writing, and
    ``end`` flushes.

    Args:
        saveSteps: global steps between writes (> 0); exactly one of it and ``saveSecs``.
        saveSecs: seconds between writes (> 0); exactly one of it and ``saveSteps``.
        outputDir: directory for the event file (one shared writer per directory, see
            jhooks.hooks.event_writer); used when no ``summaryWriter`` is given.
        summaryWriter: object with ``addSummary(bytes, globalStep)``, ``addScalar(tag, value,
            globalStep)`` and ``flush()`` (optionally ``addSessionLog(status, globalStep)``), e.g.
            jhooks.hooks.event_writer.EventWriter.
        scaffold: a jhooks.hooks.Scaffold whose ``summaryOp()`` names the summary tensor(s).
        summaryOp: name or list of names of string tensors holding serialized Summary protos
            (from ``tf.compat.v1.summary.scalar`` / ``merge_all``); or (extension shared with Java)
            ``{tag: name of a numeric scalar tensor}``, written as ``simple_value`` scalars, which
            needs no serialized protos (the language-neutral form).

    Raises:
        ValueError: both or neither of saveSteps/saveSecs, of scaffold/summaryOp, or neither
            outputDir nor summaryWriter (texts shared with Java, docs/standard-hooks.md).
    """

    def __init__(
        self,
        saveSteps: int | None = None,
        saveSecs: float | None = None,
        outputDir: str | None = None,
        summaryWriter: Any = None,
        scaffold: Any = None,
        summaryOp: str | Sequence[str] | None = None,
    ) -> None:
        if (scaffold is None) == (summaryOp is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._timer = SecondOrStepTimer(saveSecs, saveSteps)
        if outputDir is None and summaryWriter is None:
            raise ValueError("one of outputDir or summaryWriter must be given")
        self._summaryOp = summaryOp
        self._scaffold = scaffold
        self._events = HookEventWriter(summaryWriter, outputDir)
        self._nextStep: int | None = None
        self._requestSummary = False
        self._writtenSteps: list[int] = []

    def writtenSteps(self) -> list[int]:
        """Global steps at which summaries were written."""
        return list(self._writtenSteps)

    def _summaryFetches(self) -> dict[str, Any]:
        op = self._summaryOp if self._summaryOp is not None else self._scaffold.summaryOp()
        if op is None:
            return {}
        if isinstance(op, Mapping):
            return {_SCALARS: dict(op)}
        return {_SUMMARY: [op] if isinstance(op, str) else list(op)}

    def begin(self) -> None:
        self._events.open()
        self._nextStep = None

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        self._requestSummary = self._nextStep is None or self._timer.shouldTriggerForStep(self._nextStep)
        fetches = {_GLOBAL_STEP: runContext.session.globalStepTensorName()}
        if self._requestSummary:
            fetches.update(self._summaryFetches())
        return SessionRunArgs(fetches)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        step = int(runValues.results[_GLOBAL_STEP]) + 1
        # The fetched step may already include this run's increment (a variable read in the training
        # run, e.g. a JVM VariableV2), one too high, which would fire the timer a step early; so the
        # step is re-read raw whenever it decides something: writing now or the next request.
        if self._nextStep is None or self._requestSummary or self._timer.shouldTriggerForStep(step + 1):
            step = runContext.session.globalStep()
        writer = self._events.get()
        if self._nextStep is None and hasattr(writer, "addSessionLog"):
            writer.addSessionLog(_SESSION_LOG_START, step)
        if self._requestSummary:
            self._timer.updateLastTriggeredStep(step)
            for value in runValues.results.get(_SUMMARY, []):
                writer.addSummary(_as_bytes(value), step)
            for tag, value in runValues.results.get(_SCALARS, {}).items():
                writer.addScalar(tag, float(value), step)
            if _SUMMARY in runValues.results or _SCALARS in runValues.results:
                self._writtenSteps.append(step)
        self._nextStep = step + 1

    def end(self, session: Any) -> None:
        """Flushes; releases the shared writer if the hook acquired it (closed by its last user)."""
        self._events.end()
