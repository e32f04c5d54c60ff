"""KerasCoordinator: the jhooks Coordinator of one ``model.fit``, stopping it through ``model.stop_training``."""

from __future__ import annotations

from typing import Any

from jhooks.api.session import Coordinator


class KerasCoordinator(Coordinator):
    """``requestStop(cause)`` sets ``model.stop_training``, so ``fit`` ends after the current batch
    (Keras checks the flag after ``on_train_batch_end``); the first ``cause`` given is kept and
    raised by :class:`~jhooks.keras.callback.HookCallback` once the hooks' ``end`` ran, as
    TensorFlow's coordinator re-raises it when the monitored session closes. ``shouldStop()`` is
    also true when anything else (an ``EarlyStopping`` callback) set ``model.stop_training``;
    ``clearStop()`` clears both.
    """

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.model = model

    def requestStop(self, cause: BaseException | None = None) -> None:
        super().requestStop(cause)
        self.model.stop_training = True

    def shouldStop(self) -> bool:
        return super().shouldStop() or bool(getattr(self.model, "stop_training", False))

    def clearStop(self) -> None:
        super().clearStop()
        self.model.stop_training = False
