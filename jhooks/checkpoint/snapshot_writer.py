"""Writes a TF V2 checkpoint from values already in memory, and checks them for NaN and infinity.

Used by the checkpoint saver hooks when the session view offers no ``checkpointOps()`` (the
bridge's views of the other language's sessions) or the Saver names its own variables.

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

from jhooks.checkpoint import finite_ops


class _Graph:
    """The private graph and session of one set of keys and dtypes."""

    def __init__(self, session: Any, prefixIn: Any, saveOp: Any, inputs: list, finite: tuple[Any, Any, list[str]]):
        self.session = session
        self.prefixIn = prefixIn
        self.saveOp = saveOp
        self.inputs = inputs
        self.sumsFinite, self.eachFinite, self.floatKeys = finite


class SnapshotWriter:
    """Writes ``{checkpoint key: numpy array}`` to ``prefix.index`` / ``prefix.data-00000-of-00001``.

    Keeps one small graph per set of keys and dtypes; thread-safe (one write at a time).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[tuple, _Graph] = {}

    def writeSnapshot(self, prefix: str, values: Mapping[str, Any]) -> None:
        """Writes ``values`` (``{checkpoint key: array}``) under ``prefix``.

        Raises ValueError for no values, and TensorFlow's OpError when SaveV2 fails (for example
        the directory is not writable, or a file size limit: OutOfRangeError)."""
        if not values:
            raise ValueError(f"SnapshotWriter: no values to write to {prefix}")
        keys, arrays = self._arrays(values)
        with self._lock:
            graph = self._graphFor(keys, arrays)
            feeds: dict[Any, Any] = {graph.prefixIn: prefix}
            feeds.update(zip(graph.inputs, arrays))
            graph.session.run(graph.saveOp, feed_dict=feeds)

    def nonFinite(self, values: Mapping[str, Any]) -> list[str]:
        """The keys of the float values (half, bfloat16, float32, float64) holding a NaN or an
        infinity, sorted; empty when all are finite. One fused TensorFlow check over the values
        (``jhooks.checkpoint.finite_ops``), run in the writer's private session."""
        if not values:
            return []
        keys, arrays = self._arrays(values)
        with self._lock:
            graph = self._graphFor(keys, arrays)
            if not graph.floatKeys:
                return []
            floats = {i: a for i, a in zip(graph.inputs, arrays) if finite_ops.is_float(a.dtype)}
            if bool(graph.session.run(graph.sumsFinite, feed_dict=floats)):
                return []
            each = graph.session.run(graph.eachFinite, feed_dict=floats)
        return [k for k, ok in zip(graph.floatKeys, list(each)) if not bool(ok)]

    @staticmethod
    def _arrays(values: Mapping[str, Any]) -> tuple[list[str], list[np.ndarray]]:
        keys = sorted(values)
        return keys, [np.asarray(values[k]) for k in keys]

    def _graphFor(self, keys: list[str], arrays: list) -> _Graph:
        signature = tuple((k, a.dtype.str) for k, a in zip(keys, arrays))
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
                tensor_names=keys,
                shape_and_slices=[""] * len(inputs),
                tensors=inputs,
            )
            finite = finite_ops.build(tf, dict(zip(keys, inputs)), "finite")
        graph.finalize()
        cached = _Graph(tf.compat.v1.Session(graph=graph), prefixIn, saveOp, inputs, finite)
        self._cache[signature] = cached
        return cached

    def close(self) -> None:
        with self._lock:
            for graph in self._cache.values():
                graph.session.close()
            self._cache.clear()
