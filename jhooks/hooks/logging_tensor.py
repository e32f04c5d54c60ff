"""LoggingTensorHook: logs tensor values every N runs or seconds, and/or at the end (twin of the Java class)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.hooks.timer import SecondOrStepTimer

logger = logging.getLogger(__name__)


class LoggingTensorHook(Hook):
    """Logs ``tensors`` at INFO on this module's logger, as ``tf.compat.v1.train.LoggingTensorHook``.

    The line is ``formatter(values)`` when a formatter is given, else ``"tag1 = v1, tag2 = v2"``
    (numpy printing with ``suppress=True``) followed by ``" (%.3f sec)"`` since the previous line
    (not on the first line nor on the line logged in ``end``).
    Runs are counted by the hook (not the global step); lines come at runs 0, N, 2N, ... or when
    ``everyNSecs`` have passed; with ``atEnd`` one more line from a raw run in ``end``.

    Args:
        tensors: ``{tag: tensor name}`` (logged in sorted tag order, as TF) or a list of tensor
            names (tag = name, list order).
        everyNIter: log every N runs (int > 0).
        everyNSecs: log at most every N seconds.
        atEnd: also log in ``end(session)``.
        formatter: callable ``{tag: numpy value} -> str``.

    Raises:
        ValueError: unless only atEnd, not exactly one of everyNIter/everyNSecs; everyNIter <= 0
            (TF's texts).
    """

    def __init__(
        self,
        tensors: Mapping[str, str] | Sequence[str],
        everyNIter: int | None = None,
        everyNSecs: float | None = None,
        atEnd: bool = False,
        formatter: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        onlyAtEnd = atEnd and everyNIter is None and everyNSecs is None
        if not onlyAtEnd and (everyNIter is None) == (everyNSecs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if everyNIter is not None and everyNIter <= 0:
            raise ValueError(f"invalid every_n_iter={everyNIter}.")
        if isinstance(tensors, Mapping):
            self._tagOrder = sorted(tensors)
            self._tensors = {tag: tensors[tag] for tag in self._tagOrder}
        else:
            self._tagOrder = list(tensors)
            self._tensors = {name: name for name in self._tagOrder}
        for tag, name in self._tensors.items():
            if not isinstance(name, str):
                raise ValueError(f"LoggingTensorHook: tensor for tag {tag!r} must be a name (str), got {name!r}")
        self._formatter = formatter
        self._timer = None if onlyAtEnd else SecondOrStepTimer(everyNSecs, everyNIter)
        self._atEnd = atEnd
        self._iterCount = 0
        self._shouldTrigger = False

    def begin(self) -> None:
        if self._timer is not None:
            self._timer.reset()
        self._iterCount = 0

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs | None:
        self._shouldTrigger = self._timer is not None and self._timer.shouldTriggerForStep(self._iterCount)
        return SessionRunArgs(dict(self._tensors)) if self._shouldTrigger else None

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        if self._shouldTrigger:
            self._log(runValues.results)
        self._iterCount += 1

    def end(self, session: Any) -> None:
        if self._atEnd:
            self._log(session.run(dict(self._tensors)))

    def formatLine(self, values: Mapping[str, Any], elapsedSecs: float | None) -> str:
        """The log line for ``values`` (``{tag: value}``)."""
        if self._formatter is not None:
            return self._formatter(dict(values))
        with np.printoptions(suppress=True):
            # str(), as TF's "%s": a format() of a rank-0 float32 array would print float64 digits
            stats = ", ".join(f"{tag} = {str(values[tag])}" for tag in self._tagOrder)
        return stats if elapsedSecs is None else f"{stats} ({elapsedSecs:.3f} sec)"

    def _log(self, values: Mapping[str, Any]) -> None:
        elapsed = None
        if self._timer is not None:
            elapsed, _ = self._timer.updateLastTriggeredStep(self._iterCount)
        logger.info("%s", self.formatLine(values, elapsed))
