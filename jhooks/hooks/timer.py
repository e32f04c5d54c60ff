"""SecondOrStepTimer: fires at most once every N seconds or every N steps (TF's timer semantics)."""

from __future__ import annotations

import time
from typing import Any, Optional, Tuple

from jhooks.api.session import read_global_step


class SecondOrStepTimer:
    """Mirrors ``tf.compat.v1.train.SecondOrStepTimer`` (twin of org.jhooks.hooks.SecondOrStepTimer).

    The first query always fires; a step equal to the last triggered step never fires; otherwise
    it fires when ``everySecs`` seconds (wall clock) or ``everySteps`` global steps have passed.
    Hooks check their own arguments first; the timer's ValueError is the shared fallback text.
    """

    def __init__(self, everySecs: Optional[float] = None, everySteps: Optional[int] = None) -> None:
        if everySecs is None and everySteps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if everySecs is not None and everySteps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")
        self._everySecs = everySecs
        self._everySteps = None if everySteps is None else int(everySteps)
        self.reset()

    def reset(self) -> None:
        self._lastStep: Optional[int] = None
        self._lastTime: Optional[float] = None

    def shouldTriggerForStep(self, step: int) -> bool:
        if self._lastStep is None:
            return True
        if step == self._lastStep:
            return False
        if self._everySecs is not None and time.time() >= self._lastTime + self._everySecs:
            return True
        return self._everySteps is not None and step >= self._lastStep + self._everySteps

    def dueStep(self, session: Any, fetchedStep: int) -> Optional[int]:
        """The global step to act on after a run, or None.

        TF's pattern: the step fetched with the train op is only a hint (it may be read before the
        increment); when the hint says the timer may fire, the step is re-read with a raw run and
        returned if the timer fires for it.
        """
        if not self.shouldTriggerForStep(fetchedStep + 1):
            return None
        step = read_global_step(session)
        return step if self.shouldTriggerForStep(step) else None

    def updateLastTriggeredStep(self, step: int) -> Tuple[Optional[float], Optional[int]]:
        """Records a trigger at ``step``; returns (seconds, steps) since the previous one, or Nones."""
        now = time.time()
        elapsed = (None, None) if self._lastTime is None else (now - self._lastTime, step - self._lastStep)
        self._lastTime, self._lastStep = now, step
        return elapsed

    def lastTriggeredStep(self) -> Optional[int]:
        return self._lastStep
