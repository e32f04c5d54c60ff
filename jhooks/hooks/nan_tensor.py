"""NanTensorHook: fails or stops when the loss is NaN (twin of the Java class; TF semantics)."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.hooks.errors import NanLossDuringTrainingError

logger = logging.getLogger(__name__)


class NanTensorHook(Hook):
    """Fetches ``lossTensor`` with every run; if any element is NaN it logs
    ``"Model diverged with loss = NaN."`` and either raises NanLossDuringTrainingError
    (``failOnNanLoss=True``, log level ERROR) or requests stop (WARNING), as
    ``tf.compat.v1.train.NanTensorHook``.

    Args:
        lossTensor: name of a float tensor (usually the scalar loss, ``"loss:0"``).
        failOnNanLoss: raise instead of stopping.
    """

    def __init__(self, lossTensor: str, failOnNanLoss: bool = True) -> None:
        if not isinstance(lossTensor, str):
            raise ValueError(f"NanTensorHook: lossTensor must be a tensor name (str), got {lossTensor!r}")
        self._lossTensor = lossTensor
        self._failOnNanLoss = failOnNanLoss
        self._args = SessionRunArgs(lossTensor)  # immutable: the same args every run

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return self._args

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        results = runValues.results
        if isinstance(results, np.ndarray) and results.ndim == 0 and results.dtype.kind in "fc":
            value = results.item()  # a scalar loss: a Python comparison, not two numpy calls
            if value == value:
                return
        elif not np.any(np.isnan(results)):
            return
        if self._failOnNanLoss:
            logger.error("Model diverged with loss = NaN.")
            raise NanLossDuringTrainingError("NaN loss during training.")
        logger.warning("Model diverged with loss = NaN.")
        runContext.requestStop()
