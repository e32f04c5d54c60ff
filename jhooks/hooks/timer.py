"""SecondOrStepTimer: fires at most once every N seconds or every N steps (TF's timer semantics)."""

from __future__ import annotations

import time
from typing import Any


class SecondOrStepTimer:
    """Mirrors ``tf.compat.v1.train.SecondOrStepTimer`` (twin of org.jhooks.hooks.SecondOrStepTimer).

    The first query always fires; a step equal to the last triggered step never fires; otherwise
    it fires when ``everySecs`` seconds (wall clock) or ``everySteps`` global steps have passed.
    Hooks check their own arguments first; the timer's ValueError is the shared fallback text.
    """

    def __init__(self, everySecs: float | None = None, everySteps: int | None = None) -> None:
        if everySecs is None and everySteps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if everySecs is not None and everySteps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")
        self._everySecs = everySecs
        self._everySteps = None if everySteps is None else int(everySteps)
        self.reset()

    def reset(self) -> None:
        self._lastStep: int | None = None
        self._lastTime: float | None = None

    def shouldTriggerForStep(self, step: int) -> bool:
        if self._lastStep is None:
            return True
        if step == self._lastStep:
            return False
        last_time = self._lastTime
        if self._everySecs is not None and last_time is not None and time.time() >= last_time + self._everySecs:
            return True
        return self._everySteps is not None and step >= self._lastStep + self._everySteps

    def dueStep(self, session: Any, fetchedStep: int) -> int | None:
        """The global step to act on after a run, or None.

        TF's pattern: the step fetched with the train op is only a hint (it may be read before the
        increment); when the hint says the timer may fire, the step is re-read with a raw run and
        returned if the timer fires for it.
        """
        if not self.shouldTriggerForStep(fetchedStep + 1):
            return None
        step = session.globalStep()
        return step if self.shouldTriggerForStep(step) else None

    def updateLastTriggeredStep(self, step: int) -> tuple[float | None, int | None]:
        """Records a trigger at ``step``; returns (seconds, steps) since the previous one, or Nones."""
        now = time.time()
        last_time, last_step = self._lastTime, self._lastStep
        elapsed: tuple[float | None, int | None] = (None, None)
        if last_time is not None and last_step is not None:
            elapsed = (now - last_time, step - last_step)
        self._lastTime, self._lastStep = now, step
        return elapsed

    def lastTriggeredStep(self) -> int | None:
        return self._lastStep
