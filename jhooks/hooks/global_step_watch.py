"""GlobalStepWatch: TF's warning when the global step does not advance (twin of the Java class)."""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)

MESSAGE = (
    "It seems that global step (tf.train.get_global_step) has not been increased. Current value "
    "(could be stable): %s vs previous value: %s. You could increase the global step by passing "
    "tf.train.get_global_step() to Optimizer.apply_gradients or Optimizer.minimize."
)
MAX_WARNINGS = 5


class GlobalStepWatch:
    """Warns (WARNING, logger ``jhooks.hooks.global_step_watch``, TF's ``StepCounterHook`` text, the
    first 5 times per hook) when a hook whose schedule depends on the global step sees it not
    advance between two runs.

    Every hook with a global-step schedule (step counter, summary saver, checkpoint savers, stop at
    step, profiler, early stopping) calls :meth:`observe` after each run with the step it fetched.
    The fetched value may be read before or after the run's increment (docs/standard-hooks.md,
    "Global step"), so a value not above the last fetched one is confirmed with a raw read before
    warning; a step that went back (a restore or a re-initialization after recovery) restarts the
    watch. Fetched values are compared with fetched values: once one fetch saw the increment and the
    next did not, a raw read confirms the advance once, not on every later run.
    TF warns only from ``StepCounterHook`` (``log_first_n`` per process); jhooks from each hook.
    """

    def __init__(self) -> None:
        self._last: int | None = None  # the latest step known at the previous observe (fetched or read)
        self._lastFetched: int | None = None
        self._warnings = 0

    def warnings(self) -> int:
        """How many warnings this watch logged."""
        return self._warnings

    def observe(self, session: Any, fetchedStep: int) -> None:
        last, lastFetched = self._last, self._lastFetched
        self._lastFetched = fetchedStep
        if last is None or lastFetched is None or fetchedStep > lastFetched:
            self._last = fetchedStep
            return
        step = session.globalStep()
        if step != last:
            self._last = step
            return
        if self._warnings < MAX_WARNINGS:
            self._warnings += 1
            logger.warning(MESSAGE, step, last)
