"""StepCounterHook: logs (and optionally records) global steps per second (twin of the Java class)."""

from __future__ import annotations

import logging
from typing import Any

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.hooks.hook_event_writer import HookEventWriter
from jhooks.hooks.timer import SecondOrStepTimer

logger = logging.getLogger(__name__)


def _summary_tag(globalStepTensorName: str) -> str:
    """TF's tag: the global step's op name and ``/sec`` (``global_step/sec``, ``foo/global_step/sec``)."""
    opName, colon, _ = globalStepTensorName.rpartition(":")
    return (opName if colon else globalStepTensorName) + "/sec"


class StepCounterHook(Hook):
    """Every ``everyNSteps`` global steps or ``everyNSecs`` seconds logs ``"<tag>: %g"`` (INFO) and,
    with ``outputDir`` or ``summaryWriter``, writes that scalar under the tag at the global step to a
    TensorBoard event file. The tag is TF's: the global step's op name and ``/sec``
    (``global_step/sec``; ``bar/foo/sec`` for a global step variable ``bar/foo``).

    Mirrors ``tf.compat.v1.train.StepCounterHook``: the global step fetched with each run is a hint;
    when the timer would fire for ``hint + 1`` the global step is re-read with a raw run, and the
    rate is (global steps since the last trigger) / (wall seconds since it). The first trigger only
    starts the clock.

    As TF's hook it warns (WARNING, :attr:`NOT_INCREASED`, TF's text) when the global step fetched
    with a run equals the one fetched with the previous run, the first 5 times; TF counts the 5 per
    process (``log_first_n``), jhooks per hook. No other standard hook warns about it, as in TF.

    Args:
        everyNSteps: int > 0 (default 100); pass None when using everyNSecs.
        everyNSecs: seconds > 0.
        outputDir: directory of the event file (writer shared per directory, jhooks.hooks.event_writer).
        summaryWriter: object with ``addScalar(tag, value, globalStep)`` and ``flush()``; wins over outputDir.

    Raises:
        ValueError: both or neither of everyNSteps/everyNSecs (TF's text).
    """

    NOT_INCREASED = (
        "It seems that global step (tf.train.get_global_step) has not been increased. Current value "
        "(could be stable): %s vs previous value: %s. You could increase the global step by passing "
        "tf.train.get_global_step() to Optimizer.apply_gradients or Optimizer.minimize."
    )
    """TF's warning text; the ``%s`` are the fetched value and the previous fetched value."""
    MAX_NOT_INCREASED_WARNINGS = 5
    """How many times one hook logs :attr:`NOT_INCREASED` (TF: 5 per process)."""

    def __init__(
        self,
        everyNSteps: int | None = 100,
        everyNSecs: float | None = None,
        outputDir: str | None = None,
        summaryWriter: Any = None,
    ) -> None:
        if (everyNSteps is None) == (everyNSecs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(everyNSecs, everyNSteps)
        self._events = HookEventWriter(summaryWriter, outputDir)
        self._lastRate: float | None = None
        self._lastFetched: int | None = None
        self._notIncreasedWarnings = 0

    def lastRate(self) -> float | None:
        """The latest measured global steps per second; None before the first measurement."""
        return self._lastRate

    def begin(self) -> None:
        self._events.open()

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return SessionRunArgs.of(runContext.session.globalStepTensorName())

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        fetched = int(runValues.results)
        step = self._timer.dueStep(runContext.session, fetched)
        if step is not None:
            elapsedSecs, elapsedSteps = self._timer.updateLastTriggeredStep(step)
            if elapsedSecs is not None and elapsedSteps is not None and elapsedSecs > 0:
                self._record(elapsedSteps / elapsedSecs, step, runContext.session)
        # TF's condition: the fetched value against the previous fetched value (it may be read
        # before the run's increment; some optimizers, e.g. SyncReplicas, do not increase it by design)
        if fetched == self._lastFetched and self._notIncreasedWarnings < self.MAX_NOT_INCREASED_WARNINGS:
            self._notIncreasedWarnings += 1
            logger.warning(self.NOT_INCREASED, fetched, self._lastFetched)
        self._lastFetched = fetched

    def _record(self, rate: float, step: int, session: Any) -> None:
        self._lastRate = rate
        tag = _summary_tag(session.globalStepTensorName())
        if self._events.get() is not None:
            self._events.get().addScalar(tag, rate, step)
        logger.info("%s: %g", tag, rate)

    def end(self, session: Any) -> None:
        self._events.end()
