"""GlobalStepWaiterHook: delays training until the global step reaches a value (twin of the Java class)."""

from __future__ import annotations

import logging
import numbers
import time
from typing import Any

from jhooks.api.hook import Hook

logger = logging.getLogger(__name__)


class GlobalStepWaiterHook(Hook):
    """Blocks the first ``beforeSessionRun`` until the global step is at least ``waitUntilStep``.

    Mirrors ``tf.compat.v1.train.GlobalStepWaiterHook`` (used by non-chief workers so they start
    once the chief has trained a while): the global step is re-read with a raw run
    (``session.globalStep()``) every ``pollSecs`` seconds; INFO ``"Waiting for global step %d
    before starting training."`` once, then ``"... Current step is %d."`` when the step moved by
    more than 1000 since the last such line. ``waitUntilStep <= 0`` never waits. Once started it
    never waits again (also after a recovery), as TF's hook.

    Args:
        waitUntilStep: the global step (int) to wait for.
        pollSecs: seconds between two reads (float > 0; TF: fixed 0.5).

    Raises:
        ValueError: ``waitUntilStep`` not an int, ``pollSecs`` not a number > 0 (NaN included, as
            the Java twin), naming the hook and the value.
    """

    def __init__(self, waitUntilStep: int, pollSecs: float = 0.5) -> None:
        if not _is_a(waitUntilStep, numbers.Integral):
            raise ValueError(
                f"GlobalStepWaiterHook: waitUntilStep must be an int (a global step), got {waitUntilStep!r}"
            )
        if not _is_a(pollSecs, numbers.Real) or not pollSecs > 0:
            raise ValueError(f"GlobalStepWaiterHook: pollSecs must be positive, got {pollSecs!r}")
        self._waitUntilStep = int(waitUntilStep)
        self._pollSecs = float(pollSecs)
        self._started = False

    def waitUntilStep(self) -> int:
        """The global step this hook waits for."""
        return self._waitUntilStep

    def begin(self) -> None:
        self._started = False

    def beforeSessionRun(self, runContext: Any) -> None:
        if self._started:
            return None
        if self._waitUntilStep <= 0:
            self._started = True
            return None
        logger.info("Waiting for global step %d before starting training.", self._waitUntilStep)
        lastLogged = 0
        while True:
            step = runContext.session.globalStep()
            if step >= self._waitUntilStep:
                self._started = True
                return None
            if step - lastLogged > 1000:
                logger.info(
                    "Waiting for global step %d before starting training. Current step is %d.",
                    self._waitUntilStep,
                    step,
                )
                lastLogged = step
            time.sleep(self._pollSecs)


def _is_a(value: Any, kind: type) -> bool:
    """``value`` is a ``kind`` (``numbers.Integral`` / ``numbers.Real``, numpy's too), not a bool."""
    return isinstance(value, kind) and not isinstance(value, bool)
