"""The checkpoint saver the session views use, prepared while the graph can still grow.

One per graph, shared by every adapter. ``prepare(graph)`` is called from each adapter's
``begin()`` (TF calls every hook's ``begin()`` before it finalizes the graph); it builds a
``tf.compat.v1.train.Saver`` over all global variables (which include the global step) and
rebuilds it if an earlier hook's ``begin()`` added variables. The saver is not added to the
SAVERS collection, so a Scaffold's own default saver is unaffected. With it comes the fused
finiteness check of the same variables (``jhooks.checkpoint.finite_ops``), which the savers run
before a save (``TfSessionView.nonFiniteVariables``; docs/standard-hooks.md, "No poisoned
checkpoints"), and the snapshot buffers the asynchronous saver writes from (:class:`SnapshotBuffers`).
"""

from __future__ import annotations

import threading
import weakref

import tensorflow as tf

from jhooks.checkpoint import finite_ops


class GraphSaver:
    """The ops of one V2, unsharded saver over a fixed list of variables, and the finiteness check
    of those variables: ``(sumsFinite, eachFinite, keys)`` tensor names (finite_ops.build)."""

    def __init__(
        self,
        saver: tf.compat.v1.train.Saver,
        variableNames: frozenset,
        finite: tuple[str, str, list[str]],
        buffers: SnapshotBuffers,
    ) -> None:
        self.saver = saver
        self.variableNames = variableNames
        self.finite = finite
        self.buffers = buffers

    def nonFinite(self, session) -> list[str]:
        """The checkpoint keys of the float variables holding a NaN or an infinity (empty: all
        finite): one run of the fused sums, and only when one is not finite the exact per-variable
        check (a second run)."""
        return _non_finite(session, self.finite)

    def save(self, session, prefix: str) -> None:
        """Writes ``prefix.index`` and ``prefix.data-00000-of-00001``; not the state file."""
        d = self.saver.saver_def
        session.run(d.save_tensor_name, {d.filename_tensor_name: prefix})

    def restore(self, session, prefix: str) -> None:
        d = self.saver.saver_def
        session.run(d.restore_op_name, {d.filename_tensor_name: prefix})


def _non_finite(session, finite: tuple[str, str, list[str]]) -> list[str]:
    sums, each, keys = finite
    if not keys or bool(session.run(sums)):
        return []
    return [k for k, ok in zip(keys, list(session.run(each))) if not bool(ok)]


class SnapshotBuffers:
    """One buffer per saved variable, in the training graph, for the asynchronous saver.

    ``take`` copies every variable into its buffer with ONE run of one grouped op (TensorFlow's
    ``Assign`` into a ref ``VariableV2`` of the variable's dtype: after the first run it copies
    into the buffer's existing memory, so a snapshot is one copy of the saved bytes, with no fetch
    into fresh numpy memory and no allocation); ``save`` writes the buffers as a V2 checkpoint
    keyed by the variables' checkpoint keys (``SaveV2``, exactly the files ``GraphSaver.save``
    writes for the same values) and ``nonFinite`` checks them (``finite_ops``); both run in the
    training session from another thread while training goes on, since the training runs never
    touch the buffers. The caller never takes a snapshot while a ``save`` of the previous one runs
    (AsyncCheckpointSaverHook's overlap policy WAIT). The buffers are in no collection, so no
    Saver, initializer or readiness check sees them; they take memory from the first ``take`` on
    (one copy of the saved variables, kept for reuse) until the session closes.
    """

    def __init__(self, assign: str, prefixIn: str, save: str, finite: tuple[str, str, list[str]]) -> None:
        self.assign = assign
        self.prefixIn = prefixIn
        self.saveOp = save
        self.finite = finite

    def save(self, session, prefix: str) -> None:
        """Writes the buffers at ``prefix`` (``.index``, ``.data-00000-of-00001``); not the state file."""
        session.run(self.saveOp, {self.prefixIn: prefix})

    def nonFinite(self, session) -> list[str]:
        """The checkpoint keys of the float buffers holding a NaN or an infinity (empty: all finite)."""
        return _non_finite(session, self.finite)


def _snapshot_buffers(reads: dict[str, tf.Tensor]) -> SnapshotBuffers:
    """Builds the buffers of ``reads`` (``{checkpoint key: read tensor}``) in the default graph."""
    with tf.name_scope("jhooks_snapshot") as scope:
        assigns, buffers = [], {}
        for i, (key, x) in enumerate(reads.items()):
            with tf.device(x.device):  # beside the variable: the copy never crosses devices
                buffer = tf.raw_ops.VariableV2(
                    shape=tf.TensorShape(None),
                    dtype=x.dtype.base_dtype,
                    shared_name=f"{scope}buffer{i}",
                    name=f"buffer{i}",
                )
                assigns.append(tf.raw_ops.Assign(ref=buffer, value=x, validate_shape=False, name=f"assign{i}").op)
            buffers[key] = buffer
        assign = tf.group(*assigns, name="take")
        prefixIn = tf.compat.v1.placeholder(tf.string, [], name="prefix")
        save = tf.raw_ops.SaveV2(
            prefix=prefixIn,
            tensor_names=list(buffers),
            shape_and_slices=[""] * len(buffers),
            tensors=list(buffers.values()),
            name="save",
        )
    sums, each, keys = finite_ops.build(tf, buffers, "jhooks_snapshot_finite")
    return SnapshotBuffers(assign.name, prefixIn.name, save.name, (sums.name, each.name, keys))


_savers: weakref.WeakKeyDictionary[tf.Graph, GraphSaver] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _variable_names(graph: tf.Graph) -> frozenset:
    return frozenset(v.name for v in graph.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES))


def read_tensors(graph: tf.Graph) -> dict[str, str]:
    """``{checkpoint key: name of a tensor reading the value}`` of every global variable, sorted by
    key: the variable op names tf.compat.v1.train.Saver uses as keys; resource variables give their
    ``.../Read/ReadVariableOp:0`` tensor (built with the variable, so a finalized graph works), ref
    variables ``name:0``."""
    out = {}
    for v in graph.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES):
        read = getattr(v, "_graph_element", None)
        out[v.op.name] = (v if read is None else read).name
    return dict(sorted(out.items()))


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
            reads = {key: graph.get_tensor_by_name(name) for key, name in read_tensors(graph).items()}
            sums, each, keys = finite_ops.build(tf, reads, "jhooks_variables_finite")
            buffers = _snapshot_buffers(reads)
        built = GraphSaver(saver, names, (sums.name, each.name, keys), buffers)
        _savers[graph] = built
        return built


def of(graph: tf.Graph) -> GraphSaver | None:
    """The saver prepared for ``graph``, or None."""
    with _lock:
        return _savers.get(graph)
