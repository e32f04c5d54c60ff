"""StopIfNoImprovementHook: early stopping on a fetched metric (twin of the Java class)."""

from __future__ import annotations

import logging
import math
import numbers
from typing import Any

import numpy as np

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.hooks.timer import SecondOrStepTimer

logger = logging.getLogger(__name__)


class StopIfNoImprovementHook(Hook):
    """Requests a stop when ``metric`` has not improved for ``patience`` evaluations.

    Like Keras' ``EarlyStopping(monitor, min_delta, patience, mode)`` and TF Estimator's
    ``stop_if_no_decrease_hook`` / ``stop_if_no_increase_hook``, on a tensor fetched with the
    training runs instead of an evaluation directory. Each run fetches the global step and
    ``metric``; when the step timer fires (first run, then every ``everyNSteps`` global steps;
    the global step re-read with a raw run as the other step hooks) the metric value of that run
    is one *evaluation*: it improves when it is below ``best - minDelta`` (``mode="min"``) or above
    ``best + minDelta`` (``mode="max"``); the first evaluation always improves. After ``patience``
    evaluations in a row without improvement the hook calls ``runContext.requestStop()`` and logs
    INFO ``"Requesting early stopping at global step %d: <metric> did not improve for <patience>
    evaluations (best <best> at global step <step>)."``. A NaN value never improves.

    Args:
        metric: tensor name ``"op:N"`` of a numeric scalar (any float or int dtype; a
            one-element array is accepted).
        mode: ``"min"`` (lower is better, default) or ``"max"``.
        patience: evaluations without improvement before stopping (int >= 1; Keras' default 0
            would stop on the second evaluation).
        minDelta: the smallest change that counts as an improvement (float >= 0).
        everyNSteps: global steps between evaluations (int >= 1).

    ``None`` for ``mode``, ``patience``, ``minDelta`` or ``everyNSteps`` means the default (the Java
    twin's ``null``).

    Raises:
        ValueError: a ``metric`` that is not a str, a bad ``mode``, a ``patience`` or ``everyNSteps``
            that is not an int >= 1, a ``minDelta`` that is not a number >= 0 (naming the hook and
            the value).
        TypeError (as HookError from a driver): the metric is not a single number.
    """

    def __init__(
        self,
        metric: str,
        mode: str | None = "min",
        patience: int | None = 1,
        minDelta: float | None = 0.0,
        everyNSteps: int | None = 1,
    ) -> None:
        # None means "not given", as the Java twin's null
        mode = "min" if mode is None else mode
        patience = 1 if patience is None else patience
        minDelta = 0.0 if minDelta is None else minDelta
        everyNSteps = 1 if everyNSteps is None else everyNSteps
        if not isinstance(metric, str) or not metric:
            raise ValueError(f"StopIfNoImprovementHook: metric must be a tensor name (str), got {metric!r}")
        if mode not in ("min", "max"):
            raise ValueError(f"StopIfNoImprovementHook: mode must be 'min' or 'max', got {mode!r}")
        if not _is_int(patience) or patience < 1:
            raise ValueError(f"StopIfNoImprovementHook: patience must be >= 1, got {patience!r}")
        if not _is_number(minDelta) or not minDelta >= 0:
            raise ValueError(f"StopIfNoImprovementHook: minDelta must be >= 0, got {minDelta!r}")
        if not _is_int(everyNSteps) or everyNSteps < 1:
            raise ValueError(f"StopIfNoImprovementHook: everyNSteps must be >= 1, got {everyNSteps!r}")
        self._metric = metric
        self._mode = mode
        self._patience = int(patience)
        self._minDelta = float(minDelta)
        self._timer = SecondOrStepTimer(everySteps=int(everyNSteps))
        self._best: float | None = None
        self._bestStep: int | None = None
        self._wait = 0

    def best(self) -> float | None:
        """The best metric value so far (None before the first evaluation)."""
        return self._best

    def bestStep(self) -> int | None:
        """The global step of the best value (None before the first evaluation)."""
        return self._bestStep

    def evaluationsWithoutImprovement(self) -> int:
        """Evaluations in a row that did not improve on the best value."""
        return self._wait

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return SessionRunArgs({"step": runContext.session.globalStepTensorName(), "metric": self._metric})

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        results = runValues.results
        step = self._timer.dueStep(runContext.session, int(np.asarray(results["step"])))
        if step is None:
            return
        self._timer.updateLastTriggeredStep(step)
        value = _scalar(self._metric, results["metric"])
        if self._improves(value):
            self._best, self._bestStep, self._wait = value, step, 0
            return
        self._wait += 1
        if self._wait >= self._patience:
            logger.info(
                "Requesting early stopping at global step %d: %s did not improve for %d evaluations "
                "(best %s at global step %s).",
                step,
                self._metric,
                self._wait,
                self._best,
                self._bestStep,
            )
            runContext.requestStop()

    def _improves(self, value: float) -> bool:
        if math.isnan(value):
            return False
        if self._best is None:
            return True
        if self._mode == "min":
            return value < self._best - self._minDelta
        return value > self._best + self._minDelta


def _scalar(name: str, value: Any) -> float:
    array = np.asarray(value)
    if array.size != 1 or not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
        raise TypeError(
            f"StopIfNoImprovementHook: metric {name!r} must be a numeric scalar, "
            f"got {array.dtype} of shape {array.shape}"
        )
    return float(array.reshape(()))


def _is_int(value: Any) -> bool:
    """An integer (Python or numpy), not a bool: what the Java twin's Integer parameters take."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    """A real number (Python or numpy), not a bool: what the Java twin's Double parameter takes."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)
