"""The checkpoint saver the session views use, prepared while the graph can still grow.

One per graph, shared by every adapter. ``prepare(graph)`` is called from each adapter's
``begin()`` (TF calls every hook's ``begin()`` before it finalizes the graph); it builds a
``tf.compat.v1.train.Saver`` over all global variables (which include the global step) and
rebuilds it if an earlier hook's ``begin()`` added variables. The saver is not added to the
SAVERS collection, so a Scaffold's own default saver is unaffected.
"""

from __future__ import annotations

import threading
import weakref

import tensorflow as tf


class GraphSaver:
    """The ops of one V2, unsharded saver over a fixed list of variables."""

    def __init__(self, saver: tf.compat.v1.train.Saver, variableNames: frozenset) -> None:
        self.saver = saver
        self.variableNames = variableNames

    def save(self, session, prefix: str) -> None:
        """Writes ``prefix.index`` and ``prefix.data-00000-of-00001``; not the state file."""
        d = self.saver.saver_def
        session.run(d.save_tensor_name, {d.filename_tensor_name: prefix})

    def restore(self, session, prefix: str) -> None:
        d = self.saver.saver_def
        session.run(d.restore_op_name, {d.filename_tensor_name: prefix})


_savers: weakref.WeakKeyDictionary[tf.Graph, GraphSaver] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _variable_names(graph: tf.Graph) -> frozenset:
    return frozenset(v.name for v in graph.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES))


def prepare(graph: tf.Graph) -> GraphSaver | None:
    """Builds (or rebuilds) the graph's saver unless it is current; None when nothing to save."""
    with _lock:
        current = _savers.get(graph)
        names = _variable_names(graph)
        if (current is not None and current.variableNames == names) or graph.finalized or not names:
            return current
        with graph.as_default():
            variables = graph.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES)
            saver = tf.compat.v1.train.Saver(
                var_list=variables, sharded=False, name="jhooks_saver", write_version=tf.compat.v1.train.SaverDef.V2
            )
        built = GraphSaver(saver, names)
        _savers[graph] = built
        return built


def of(graph: tf.Graph) -> GraphSaver | None:
    """The saver prepared for ``graph``, or None."""
    with _lock:
        return _savers.get(graph)
