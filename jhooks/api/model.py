"""ModelInstance and ModelDependentHook (twins of the Java classes)."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from jhooks.api.hook import Hook

LOSS = "loss"
TRAIN_OP = "trainOp"
GLOBAL_STEP = "globalStep"


class ModelInstance:
    """Names of a built model's endpoints: loss, train op, global step, and others. Immutable."""

    LOSS = LOSS
    TRAIN_OP = TRAIN_OP
    GLOBAL_STEP = GLOBAL_STEP

    def __init__(self, endpoints: Mapping[str, str]) -> None:
        for k, v in endpoints.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise ValueError(f"ModelInstance endpoint {k!r} -> {v!r}: keys and names must be str")
        self._endpoints = dict(endpoints)

    @classmethod
    def of(cls, loss: str, trainOp: str, globalStep: str) -> ModelInstance:
        return cls({LOSS: loss, TRAIN_OP: trainOp, GLOBAL_STEP: globalStep})

    @property
    def loss(self) -> str | None:
        return self._endpoints.get(LOSS)

    @property
    def trainOp(self) -> str | None:
        return self._endpoints.get(TRAIN_OP)

    @property
    def globalStep(self) -> str | None:
        return self._endpoints.get(GLOBAL_STEP)

    def endpoint(self, key: str) -> str:
        """KeyError naming the known keys when the model has no such endpoint."""
        try:
            return self._endpoints[key]
        except KeyError:
            raise KeyError(f"ModelInstance has no endpoint {key!r}; it has {sorted(self._endpoints)}") from None

    @property
    def endpoints(self) -> Mapping[str, str]:
        return dict(self._endpoints)

    def __repr__(self) -> str:
        return f"ModelInstance({self._endpoints!r})"


class ModelDependentHook(Hook):
    """A hook that needs the built model. The driver sets :attr:`modelInstance` once, before
    ``beginSession()``; it never changes afterwards, also not on session recovery."""

    _model_lock = threading.Lock()

    @property
    def modelInstance(self) -> ModelInstance | None:
        return getattr(self, "_model_instance", None)

    @modelInstance.setter
    def modelInstance(self, instance: ModelInstance) -> None:
        if not isinstance(instance, ModelInstance):
            raise TypeError(f"{self!r}.modelInstance: expected a ModelInstance, got {type(instance).__name__}")
        with self._model_lock:
            current = getattr(self, "_model_instance", None)
            if current is not None and current is not instance:
                raise RuntimeError(f"{self!r}.modelInstance: already set to {current!r}; refusing {instance!r}")
            self._model_instance = instance
