"""StepCounterHook: logs (and optionally records) global steps per second (twin of the Java class)."""

from __future__ import annotations

import logging
from typing import Any, Optional

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.api.session import read_global_step
from jhooks.hooks.timer import SecondOrStepTimer

logger = logging.getLogger("jhooks.hooks")

SUMMARY_TAG = "global_step/sec"


class StepCounterHook(Hook):
    """Every ``everyNSteps`` global steps or ``everyNSecs`` seconds logs ``"global_step/sec: %g"``
    (INFO, ``jhooks.hooks`` logger) and, with ``outputDir``, writes that scalar under the tag
    ``global_step/sec`` at the global step into a TensorBoard event file there.

    Mirrors ``tf.compat.v1.train.StepCounterHook``: the global step fetched with each run is a hint;
    when the timer would fire for ``hint + 1`` the global step is re-read with a raw run, and the
    rate is (steps since the last trigger) / (wall seconds since it). The first trigger only starts
    the clock.

    Args:
        everyNSteps: int > 0 (default 100); pass None when using everyNSecs.
        everyNSecs: seconds > 0.
        outputDir: directory for the event file, or None to only log.

    Raises:
        ValueError: both or neither of everyNSteps/everyNSecs.
    """

    def __init__(self, everyNSteps: Optional[int] = 100, everyNSecs: Optional[float] = None,
                 outputDir: Optional[str] = None) -> None:
        self._timer = SecondOrStepTimer(everyNSecs, everyNSteps, owner="StepCounterHook",
                                        secsName="everyNSecs", stepsName="everyNSteps")
        self._outputDir = outputDir
        self._writer = None
        self._lastStepsPerSec: Optional[float] = None

    @property
    def lastStepsPerSec(self) -> Optional[float]:
        """The latest measured global steps per second; None before the second trigger."""
        return self._lastStepsPerSec

    def begin(self) -> None:
        if self._outputDir:
            from jhooks.hooks.event_writer import writer_for
            self._writer = writer_for(self._outputDir)

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return SessionRunArgs(runContext.session.globalStepTensorName())

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        if not self._timer.shouldTriggerForStep(int(runValues.results) + 1):
            return
        step = read_global_step(runContext.session)
        if not self._timer.shouldTriggerForStep(step):
            return
        elapsedSecs, elapsedSteps = self._timer.updateLastTriggeredStep(step)
        if elapsedSecs is None or elapsedSecs <= 0:
            return
        self._lastStepsPerSec = elapsedSteps / elapsedSecs
        if self._writer is not None:
            self._writer.addScalar(SUMMARY_TAG, self._lastStepsPerSec, step)
        logger.info("%s: %g", SUMMARY_TAG, self._lastStepsPerSec)

    def end(self, session: Any) -> None:
        if self._writer is not None:
            self._writer.flush()
