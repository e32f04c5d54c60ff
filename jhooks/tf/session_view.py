"""TfSessionView: the jhooks Session protocol over a raw tf.compat.v1 session.

TensorFlow hands hooks the raw session (``after_create_session``, ``run_context.session`` and
``end``); this view keeps it raw, so a run through it never fires hooks (docs/contract.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import tensorflow as tf

from jhooks.api.checkpoint_guard import CheckpointGuard
from jhooks.api.run_args import RunOptions, SessionRunArgs
from jhooks.api.session import Session
from jhooks.tf import names
from jhooks.tf import saver as graph_saver

DEFAULT_GLOBAL_STEP = "global_step:0"


class TfSessionView(Session):
    """Runs names against ``rawSession.graph``; values are numpy arrays (shape () for scalars).

    ``where`` tells error messages who is calling: a ``() -> (hook, callback)`` function; the
    adapter passes its hook and current callback.
    """

    def __init__(self, rawSession: Any, where: Callable[[], tuple[str, str]] | None = None) -> None:
        self.rawSession = rawSession
        self._where = where or (lambda: ("TfSessionView", "run"))
        self._globalStepName: tuple[tf.Graph, str] | None = None

    @property
    def graph(self) -> tf.Graph:
        return self.rawSession.graph

    def run(self, fetches: Any, feeds: Mapping[str, Any] | None = None, options: RunOptions | None = None) -> Any:
        """Runs once on the raw session; the result has the structure of ``fetches``.

        Tensor names give ``np.ndarray`` (rank 0 for scalars), op names None. Raises
        SessionRunArgsError for fetches or feeds of the wrong kind and GraphNameError for a name
        not in the graph, before anything runs, and TF's OpError subclasses (e.g. OutOfRangeError)
        unchanged.
        """
        SessionRunArgs(fetches, feeds or {}, options)  # SessionRunArgsError naming a bad value
        graph = self.graph
        tfFetches = names.resolve_fetches(graph, fetches, self._where)
        tfFeeds = names.resolve_feeds(graph, feeds, self._where)
        results = self.rawSession.run(tfFetches, feed_dict=tfFeeds, options=names.options_to_proto(options))
        return names.normalize_results(fetches, results)

    def _saver(self) -> graph_saver.GraphSaver:
        s = graph_saver.of(self.graph)
        if s is None:
            hook, callback = self._where()
            raise RuntimeError(
                f"{hook}.{callback}: no checkpoint saver for this graph: it has no global variables, or no "
                "jhooks adapter's begin() ran before the graph was finalized"
            )
        return s

    def save(self, prefix: str) -> None:
        """Writes a TF V2 checkpoint of every global variable (incl. the global step) at ``prefix``.

        Files: ``prefix.index`` and ``prefix.data-00000-of-00001``; the parent directory is
        created. The ``checkpoint`` state file is not touched (see jhooks.checkpoint.state).
        """
        parent = os.path.dirname(os.path.abspath(prefix))
        os.makedirs(parent, exist_ok=True)
        self._saver().save(self.rawSession, prefix)

    def restore(self, prefix: str) -> None:
        """Restores every global variable from the V2 checkpoint at ``prefix`` (keys: variable names)."""
        self._saver().restore(self.rawSession, prefix)

    def saveableVariables(self) -> dict[str, str]:
        """``{checkpoint key: name of a tensor reading the value}`` for what :meth:`save` writes
        (every global variable; keys are the variable op names tf.compat.v1.train.Saver uses),
        sorted by key. Resource variables give their ``.../Read/ReadVariableOp:0`` tensor (built
        with the variable, so a finalized graph works), ref variables ``name:0``.
        AsyncCheckpointSaverHook snapshots these with one raw run (docs/standard-hooks.md).
        """
        return graph_saver.read_tensors(self.graph)

    def nonFiniteVariables(self) -> list[str]:
        """The checkpoint keys of the float variables :meth:`save` writes that hold a NaN or an
        infinity, sorted; empty when all are finite. One fused check built with the graph's saver
        (``jhooks.checkpoint.finite_ops``: one ``reduce_sum`` per variable, one bool fetched), a
        second run naming the variables only when it fails. The checkpoint saver hooks run it
        before ``save`` (docs/standard-hooks.md, "No poisoned checkpoints").

        Raises RuntimeError naming the hook and callback when no adapter prepared the graph (as
        :meth:`save`)."""
        return self._saver().nonFinite(self.rawSession)

    def takeSnapshot(self) -> int:
        """Copies every variable :meth:`save` writes into the graph's snapshot buffers, in ONE run
        of one grouped op (``jhooks.tf.saver.SnapshotBuffers``: after the first snapshot a copy
        into the buffers' existing memory, nothing fetched), and returns the int64 global step
        read in that same run: the step the snapshot holds. The buffers keep one copy of the
        saved variables from the first snapshot until the session closes. AsyncCheckpointSaverHook
        takes its snapshot with it on the training thread (docs/standard-hooks.md).

        Raises RuntimeError naming the hook and callback when no adapter prepared the graph (as
        :meth:`save`)."""
        buffers = self._saver().buffers
        _, step = self.run([buffers.assign, self.globalStepTensorName()])
        return int(step)

    def saveSnapshot(self, prefix: str) -> None:
        """Writes the last :meth:`takeSnapshot` as a TF V2 checkpoint at ``prefix`` (the files
        and keys :meth:`save` writes, holding the snapshot's values); the parent directory is
        created, the ``checkpoint`` state file not touched. Safe on another thread while training
        runs; not while :meth:`takeSnapshot` runs (the caller waits). Raises TF's OpError when the
        write fails (e.g. OutOfRangeError for a file size limit)."""
        os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
        self._saver().buffers.save(self.rawSession, prefix)

    def nonFiniteSnapshot(self) -> list[str]:
        """The checkpoint keys of the float variables of the last :meth:`takeSnapshot` that hold a
        NaN or an infinity, sorted; empty when all are finite (the fused check of
        :meth:`nonFiniteVariables`, over the buffers). Safe on another thread as
        :meth:`saveSnapshot`."""
        return self._saver().buffers.nonFinite(self.rawSession)

    def graphDef(self) -> bytes:
        """The raw session's graph as a serialized ``GraphDef`` proto, with every node's
        ``_output_shapes`` (``graph.as_graph_def(add_shapes=True)``: what TensorFlow's
        CheckpointSaverHook writes to ``graph.pbtxt`` and the event file)."""
        return self.graph.as_graph_def(add_shapes=True).SerializeToString()

    def metaGraphDef(self) -> bytes:
        """A serialized ``MetaGraphDef`` of the raw session's graph, as TensorFlow's
        CheckpointSaverHook builds for the event file: the graph of :meth:`graphDef`, the graph's
        collections, TF's ``meta_info_def`` (op list, versions) and the ``SaverDef`` of the saver
        :meth:`save` uses, when an adapter prepared one (``tf.compat.v1.train.export_meta_graph``;
        ``tf.compat.v1.train.import_meta_graph`` restores this view's checkpoints with it)."""
        graph = self.graph
        saver = graph_saver.of(graph)
        with graph.as_default():  # export_meta_graph refuses to run eagerly (a thread outside any graph)
            meta = tf.compat.v1.train.export_meta_graph(
                graph=graph,
                graph_def=graph.as_graph_def(add_shapes=True),
                saver_def=None if saver is None else saver.saver.saver_def,
            )
        return meta.SerializeToString()

    def checkpointGuard(self) -> CheckpointGuard:
        """The CheckpointGuard of the raw TF session (stored on it): every hook's view of this
        session, in either language, shares it; a session re-created by recovery has a new one."""
        return CheckpointGuard.attachedTo(self.rawSession)

    def globalStepTensorName(self) -> str:
        """The global step variable's name (``get_global_step``), else ``"global_step:0"``.

        Fetching it yields the int64 value even for a resource variable (see jhooks.tf.names).
        """
        graph = self.graph
        cached = self._globalStepName
        if cached is not None and cached[0] is graph:
            return cached[1]
        gs = tf.compat.v1.train.get_global_step(graph)
        name = gs.name if gs is not None else DEFAULT_GLOBAL_STEP
        if graph.finalized:  # no global step can be added any more: hooks ask every run
            self._globalStepName = (graph, name)
        return name

    def __repr__(self) -> str:
        return f"TfSessionView({self.rawSession!r})"
