"""FinalOpsHook: evaluates tensors once when the monitored session ends (twin of the Java class).

Mirrors ``tf.compat.v1.train.FinalOpsHook``; see docs/standard-hooks.md.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from jhooks.api import nest
from jhooks.api.hook import Hook

logger = logging.getLogger(__name__)

# Matched by class name so the hook needs no TensorFlow import (TF's errors.OutOfRangeError, the
# JVM's TFOutOfRangeException as seen through the bridge, and Python's StopIteration).
_END_OF_INPUT = {"OutOfRangeError", "TFOutOfRangeException", "StopIteration"}


def is_end_of_input(error: BaseException) -> bool:
    return any(cls.__name__ in _END_OF_INPUT for cls in type(error).__mro__)


class FinalOpsHook(Hook):
    """Runs ``finalOps`` in ``end(session)`` and keeps the results in :meth:`finalOpsValues`.

    Args:
        finalOps: a tensor name (``"acc:0"``), an op name, or a list/tuple/dict nest of them.
        finalOpsFeedDict: tensor name -> numpy array fed to that run, or None.

    ``end`` is only called on a normal close or at end of input (docs/contract.md), so nothing is
    evaluated after any other error. If the final run itself raises end of input (OutOfRangeError),
    a warning is logged and the error re-raised, as TensorFlow does.

    Raises:
        ValueError: ``finalOps`` is not a name or a nest of names.
    """

    def __init__(self, finalOps: Any, finalOpsFeedDict: Mapping[str, Any] | None = None) -> None:
        if finalOps is not None:
            nest.validate(finalOps)
        self._finalOps = finalOps
        self._finalOpsFeedDict = dict(finalOpsFeedDict) if finalOpsFeedDict else None
        self._finalOpsValues: Any = None

    def finalOpsValues(self) -> Any:
        """The results in the structure of ``finalOps``; None before ``end``."""
        return self._finalOpsValues

    def end(self, session: Any) -> None:
        if self._finalOps is None:
            return
        try:
            self._finalOpsValues = session.run(self._finalOps, self._finalOpsFeedDict)
        except BaseException as e:
            if is_end_of_input(e):
                logger.warning(
                    "FinalOpsHook: end of input (OutOfRange) raised by the final ops run; "
                    "final ops should depend only on variables, not on the input pipeline"
                )
            raise
