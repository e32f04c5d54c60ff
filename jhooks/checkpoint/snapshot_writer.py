"""Writes a TF V2 checkpoint from values already in memory (used by AsyncCheckpointSaverHook).

Uses TensorFlow's own ``SaveV2`` kernel in a private graph and session, so the files are exactly
what ``tf.compat.v1.train.Saver`` writes for the same variables (keys = checkpoint keys, i.e.
variable names) and can be read by it, by ``tf.train.load_checkpoint`` and by tensorflow-java's
``Session.restore``. A private graph works whether eager execution is on or off and never touches
the training graph (which is finalized). TensorFlow is imported lazily, on the first write.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import numpy as np


class SnapshotWriter:
    """Writes ``{checkpoint key: numpy array}`` to ``prefix.index`` / ``prefix.data-00000-of-00001``.

    Keeps one small graph per set of keys and dtypes; thread-safe (one write at a time).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[tuple, tuple[Any, Any, Any, list]] = {}

    def writeSnapshot(self, prefix: str, values: Mapping[str, Any]) -> None:
        if not values:
            raise ValueError(f"SnapshotWriter: no values to write to {prefix}")
        keys = sorted(values)
        arrays = [np.asarray(values[k]) for k in keys]
        signature = tuple((k, a.dtype.str) for k, a in zip(keys, arrays))
        with self._lock:
            session, prefixIn, saveOp, inputs = self._graphFor(signature, arrays)
            feeds: dict[Any, Any] = {prefixIn: prefix}
            feeds.update(zip(inputs, arrays))
            session.run(saveOp, feed_dict=feeds)

    def _graphFor(self, signature: tuple, arrays: list) -> tuple[Any, Any, Any, list]:
        cached = self._cache.get(signature)
        if cached is not None:
            return cached
        import tensorflow as tf

        graph = tf.Graph()
        with graph.as_default():
            prefixIn = tf.compat.v1.placeholder(tf.string, shape=[], name="prefix")
            inputs = [
                tf.compat.v1.placeholder(tf.as_dtype(a.dtype), shape=None, name=f"value{i}")
                for i, a in enumerate(arrays)
            ]
            saveOp = tf.raw_ops.SaveV2(
                prefix=prefixIn,
                tensor_names=[k for k, _ in signature],
                shape_and_slices=[""] * len(inputs),
                tensors=inputs,
            )
        graph.finalize()
        cached = (tf.compat.v1.Session(graph=graph), prefixIn, saveOp, inputs)
        self._cache[signature] = cached
        return cached

    def close(self) -> None:
        with self._lock:
            for session, *_ in self._cache.values():
                session.close()
            self._cache.clear()
