"""KerasSessionView: the jhooks Session protocol over a Keras model in eager ``model.fit``.

There is no graph and no session: a name is read from the batch's ``logs``, the model's variables
or the optimizer's iteration count (the global step). A run through this view never trains and
fires no hooks, as a raw session's (docs/contract.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from jhooks.api import nest
from jhooks.api.checkpoint_guard import CheckpointGuard
from jhooks.api.errors import HookError
from jhooks.api.run_args import RunOptions, SessionRunArgs
from jhooks.api.session import Session
from jhooks.tf.errors import GraphNameError

GLOBAL_STEP = "global_step"


class KerasSessionView(Session):
    """Reads names against ``model`` (a compiled ``keras.Model``); values are numpy arrays.

    A name (``"loss"``, or TensorFlow's tensor spelling ``"loss:0"``) is, in this order:

    - ``"global_step"``: ``model.optimizer.iterations``, int64, shape ();
    - a key of the latest training batch's ``logs`` (``loss`` and the compiled metrics): Keras
      hands callbacks Python floats made from float32 values, so the value is a shape-() array of
      ``keras.config.floatx()`` (exact); empty before the first batch ends;
    - a variable's ``path`` in ``model.variables`` (``"sequential/dense/kernel"``): its value now,
      with its dtype and shape.

    ``where`` tells error messages who is calling: a ``() -> (hook, callback)`` function.
    """

    def __init__(self, model: Any, where: Callable[[], tuple[str, str]] | None = None) -> None:
        self.model = model
        self._where = where or (lambda: ("KerasSessionView", "run"))
        self._logs: Mapping[str, Any] = {}

    def setLogs(self, logs: Mapping[str, Any] | None) -> None:
        """Keeps the ``logs`` of the training batch that just ended (the driver calls it)."""
        self._logs = dict(logs or {})

    def _variables(self) -> dict[str, Any]:
        return {v.path: v for v in self.model.variables}

    def value(self, name: str) -> np.ndarray:
        """The value of one name (see the class docstring); GraphNameError naming the caller and
        the name, with the names known, when it is none of those."""
        key = name
        if nest.is_tensor_name(name):
            base, _, index = name.rpartition(":")
            if index == "0":
                key = base
        if key == GLOBAL_STEP:
            return np.asarray(keras.ops.convert_to_numpy(self.model.optimizer.iterations), dtype=np.int64)
        if key in self._logs:
            logged = self._logs[key]
            if isinstance(logged, float):
                return np.asarray(logged, dtype=keras.config.floatx())
            return np.asarray(keras.ops.convert_to_numpy(logged))
        variable = self._variables().get(key)
        if variable is not None:
            return np.asarray(keras.ops.convert_to_numpy(variable))
        hook, callback = self._where()
        known = [GLOBAL_STEP, *sorted(self._logs), *sorted(self._variables())]
        raise GraphNameError(
            hook,
            callback,
            name,
            f"is not the global step, a key of the batch's logs or a model variable's path in Keras model.fit; "
            f"known: {known}",
        )

    def run(self, fetches: Any, feeds: Mapping[str, Any] | None = None, options: RunOptions | None = None) -> Any:
        """The values of ``fetches`` (a name or a nest of names) in their structure; nothing runs.

        Raises SessionRunArgsError for fetches of the wrong kind, HookError naming the caller for
        any feed (``model.fit`` has no feeds) and GraphNameError for an unknown name. ``options``
        are accepted and have no effect (there is no run to trace).
        """
        SessionRunArgs(fetches, feeds or {}, options)  # SessionRunArgsError naming a bad value
        if feeds:
            hook, callback = self._where()
            raise HookError(hook, callback, f"fed {sorted(feeds)}: Keras model.fit has no feeds")
        return nest.map_structure(fetches, self.value)

    def _saver(self) -> Any:
        variables = {key: v.value for key, v in self._variables().items()}
        variables[GLOBAL_STEP] = self.model.optimizer.iterations.value
        return tf.compat.v1.train.Saver(var_list=variables)

    def save(self, prefix: str) -> None:
        """Writes a TF V2 name-based checkpoint at ``prefix`` (``prefix.index``,
        ``prefix.data-00000-of-00001``): every model variable under its ``path`` and the global
        step under ``global_step`` (the keys :meth:`saveableVariables` lists), readable by
        ``tf.train.load_checkpoint`` and tensorflow-java. The ``checkpoint`` state file is not
        touched; the parent directory is created."""
        os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
        self._saver().save(None, prefix, write_meta_graph=False, write_state=False)

    def restore(self, prefix: str) -> None:
        """Restores the model's variables and the global step from the checkpoint at ``prefix``."""
        self._saver().restore(None, prefix)

    def saveableVariables(self) -> dict[str, str]:
        """``{checkpoint key: name to read it by}`` for what :meth:`save` writes, sorted by key."""
        keys = [*self._variables(), GLOBAL_STEP]
        return {key: key for key in sorted(keys)}

    def checkpointGuard(self) -> CheckpointGuard:
        """The CheckpointGuard of this ``fit`` (one view per fit), shared by every hook of it."""
        return CheckpointGuard.attachedTo(self)

    def globalStepTensorName(self) -> str:
        """``"global_step:0"``: ``model.optimizer.iterations``, in TensorFlow's tensor spelling (a
        hook, Java's included, may take a name without ``:N`` for an op run as a target)."""
        return GLOBAL_STEP + ":0"

    def __repr__(self) -> str:
        return f"KerasSessionView({type(self.model).__name__} {getattr(self.model, 'name', '')!r})"
