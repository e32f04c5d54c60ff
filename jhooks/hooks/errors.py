"""Errors raised by the standard hooks (twins of org.jhooks.hooks.*Exception)."""

from __future__ import annotations

from jhooks.api.errors import HookError


class NanLossDuringTrainingError(RuntimeError):
    """The loss was NaN (TF's ``NanLossDuringTrainingError``); raised by NanTensorHook."""


class CheckpointSaveError(HookError):
    """A checkpoint save failed (for AsyncCheckpointSaverHook: in the background write).

    Raised on the training thread; ``__cause__`` is the original error, ``globalStep`` and
    ``prefix`` name the failed save.
    """

    def __init__(self, hook: str, callback: str, globalStep: int, prefix: str, cause: BaseException) -> None:
        super().__init__(hook, callback,
                         f"background save of step {globalStep} to {prefix} failed: "
                         f"{type(cause).__name__}: {cause}")
        self.globalStep = globalStep
        self.prefix = prefix
