"""NanTensorHook: fails or stops when the loss is NaN (twin of the Java class; TF semantics)."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from jhooks.api.checkpoint_guard import CheckpointGuard
from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.hooks.errors import NanLossDuringTrainingError

logger = logging.getLogger(__name__)


def has_nan(value: Any) -> bool:
    """Whether any element of ``value`` (a number or an array of any shape) is NaN: the test of
    TensorFlow's NanTensorHook (an infinite loss is not NaN)."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "fc":
        item = value.item()  # a scalar loss: a Python comparison, not two numpy calls
        return item != item
    array = np.asarray(value)
    return array.dtype.kind in "fc" and bool(np.any(np.isnan(array)))


class NanTensorHook(Hook):
    """Fetches ``lossTensor`` with every run; if any element is NaN it logs
    ``"Model diverged with loss = NaN."`` and either raises NanLossDuringTrainingError
    (``failOnNanLoss=True``, log level ERROR) or requests stop (WARNING), as
    ``tf.compat.v1.train.NanTensorHook``.

    Unlike TensorFlow, no checkpoint holds the NaN weights: in ``afterCreateSession`` the hook
    watches ``lossTensor`` in the session's :class:`~jhooks.api.checkpoint_guard.CheckpointGuard`
    and on a NaN reports the global step after the run there (before raising or stopping), so no
    saver of the session writes that step or a later one, whatever the order of the hooks
    (docs/standard-hooks.md, "No poisoned checkpoints").

    Args:
        lossTensor: name of a float tensor (usually the scalar loss, ``"loss:0"``).
        failOnNanLoss: raise instead of stopping.
    """

    def __init__(self, lossTensor: str, failOnNanLoss: bool = True) -> None:
        if not isinstance(lossTensor, str):
            raise ValueError(f"NanTensorHook: lossTensor must be a tensor name (str), got {lossTensor!r}")
        self._lossTensor = lossTensor
        self._failOnNanLoss = failOnNanLoss

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        CheckpointGuard.of(session).watchLoss(self._lossTensor)

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return SessionRunArgs.of(self._lossTensor)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        if not has_nan(runValues.results):
            return
        session = runContext.session
        CheckpointGuard.of(session).reportNanLoss(session.globalStep(), self._lossTensor)
        if self._failOnNanLoss:
            logger.error("Model diverged with loss = NaN.")
            raise NanLossDuringTrainingError("NaN loss during training.")
        logger.warning("Model diverged with loss = NaN.")
        runContext.requestStop()
