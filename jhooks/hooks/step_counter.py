"""StepCounterHook: logs (and optionally records) global steps per second (twin of the Java class)."""

from __future__ import annotations

import logging
from typing import Any

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.hooks.hook_event_writer import HookEventWriter
from jhooks.hooks.timer import SecondOrStepTimer

logger = logging.getLogger(__name__)

SUMMARY_TAG = "global_step/sec"


class StepCounterHook(Hook):
    """Every ``everyNSteps`` global steps or ``everyNSecs`` seconds logs ``"global_step/sec: %g"``
    (INFO) and, with ``outputDir`` or ``summaryWriter``, writes that scalar under the tag
    ``global_step/sec`` at the global step to a TensorBoard event file.

    Mirrors ``tf.compat.v1.train.StepCounterHook``: the global step fetched with each run is a hint;
    when the timer would fire for ``hint + 1`` the global step is re-read with a raw run, and the
    rate is (global steps since the last trigger) / (wall seconds since it). The first trigger only
    starts the clock.

    Args:
        everyNSteps: int > 0 (default 100); pass None when using everyNSecs.
        everyNSecs: seconds > 0.
        outputDir: directory of the event file (writer shared per directory, jhooks.hooks.event_writer).
        summaryWriter: object with ``addScalar(tag, value, globalStep)`` and ``flush()``; wins over outputDir.

    Raises:
        ValueError: both or neither of everyNSteps/everyNSecs (TF's text).
    """

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

    def lastRate(self) -> float | None:
        """The latest measured global steps per second; None before the first measurement."""
        return self._lastRate

    def begin(self) -> None:
        self._events.open()

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return SessionRunArgs.of(runContext.session.globalStepTensorName())

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        step = self._timer.dueStep(runContext.session, int(runValues.results))
        if step is None:
            return
        elapsedSecs, elapsedSteps = self._timer.updateLastTriggeredStep(step)
        if elapsedSecs is None or elapsedSteps is None or elapsedSecs <= 0:
            return
        self._lastRate = elapsedSteps / elapsedSecs
        if self._events.get() is not None:
            self._events.get().addScalar(SUMMARY_TAG, self._lastRate, step)
        logger.info("%s: %g", SUMMARY_TAG, self._lastRate)

    def end(self, session: Any) -> None:
        self._events.end()
