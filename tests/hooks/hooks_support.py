"""Shared pieces of the standard-hook tests: a small real training graph and session runners."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.training import training_util

from jhooks.api.listener import CheckpointSaverListener
from jhooks.tf import to_tf_hooks


class Model:
    """A real tf.compat.v1 graph: linear regression on a fed batch plus a step counter.

    Each ``train`` run adds 1 to ``count`` and to the global step in one run, does one gradient
    step on ``w``/``b`` (after taking one element of ``range(inputs)`` when given), and fills ``big``
    (``size`` floats) with the new step value, so a
    checkpoint is consistent iff count == global_step == every element of big. ``big`` starts from
    a constant of ``size`` zeros in the graph, or with ``bigFromFill`` from a Fill op.
    """

    def __init__(
        self,
        size: int = 16,
        nanAt: int | None = None,
        inputs: int | None = None,
        nanWeights: bool = False,
        bigFromFill: bool = False,
    ) -> None:
        self.gs = tf.compat.v1.train.get_or_create_global_step()
        self.x = tf.compat.v1.placeholder_with_default(np.ones([4], np.float32), shape=[4], name="x")
        self.y = tf.constant([2.0, 4.0, 6.0, 8.0], name="y")
        self.xsum = tf.reduce_sum(self.x, name="xsum")
        self.w = tf.compat.v1.get_variable("w", initializer=0.5)
        self.b = tf.compat.v1.get_variable("b", initializer=0.0)
        self.count = tf.compat.v1.get_variable("count", initializer=np.int64(0))
        if bigFromFill:  # initialized by a Fill op: a GraphDef of a few KB whatever the size
            zeros = tf.compat.v1.zeros_initializer()
            self.big = tf.compat.v1.get_variable("big", shape=[size], dtype=tf.float32, initializer=zeros)
        else:  # initialized from a constant of ``size`` floats in the GraphDef
            self.big = tf.compat.v1.get_variable("big", initializer=np.zeros([size], np.float32))
        deps = []
        if inputs is not None:  # every step first takes an element of range(inputs): end of input after that
            it = tf.compat.v1.data.make_one_shot_iterator(tf.data.Dataset.range(inputs))
            deps.append(tf.identity(it.get_next(), name="next_input"))
        with tf.control_dependencies(deps):
            loss = tf.reduce_mean(tf.square(self.w * self.x + self.b - self.y))
        if nanAt is not None:  # loss becomes NaN from global step nanAt on (with nanWeights, w and b too)
            nan = tf.constant(np.nan, tf.float32)
            if nanWeights:  # a factor without a gradient: NaN gradients only from global step nanAt on
                loss = loss * tf.where(self.gs >= nanAt, nan, tf.constant(1.0, tf.float32))
            else:
                loss = tf.where(self.gs >= nanAt, nan, loss)
        self.loss = tf.identity(loss, name="loss")
        opt = tf.compat.v1.train.GradientDescentOptimizer(0.01)
        step = opt.minimize(self.loss)
        # The increment waits for the global-step reads hooks fetch (ours: the variable's read op;
        # TF's hooks: the global_step_read tensor), as TF's own _increment_global_step does, so the
        # value a hook fetches with the training run is always the step before it.
        reads = [self.gs._graph_element, training_util._get_or_create_global_step_read()]
        with tf.control_dependencies([step] + reads):
            inc = self.gs.assign_add(1)
        with tf.control_dependencies([inc]):
            counted = self.count.assign_add(1)
            filled = self.big.assign(tf.fill([size], tf.cast(inc, tf.float32)))
        self.train = tf.group(counted, filled, name="train")


def monitored(hooks: list[Any], checkpointDir: str | None = None) -> Any:
    """A TF MonitoredSession running ``hooks`` (jhooks hooks adapted, TF hooks as they are);
    restores the latest checkpoint of ``checkpointDir`` when given."""
    creator = tf.compat.v1.train.ChiefSessionCreator(checkpoint_dir=checkpointDir)
    return tf.compat.v1.train.MonitoredSession(session_creator=creator, hooks=to_tf_hooks(hooks))


def train(
    hooks: list[Any],
    model: Model,
    steps: int,
    checkpointDir: str | None = None,
    feed: Callable[[int], dict[Any, Any]] | None = None,
) -> dict[str, Any]:
    """Runs ``model.train`` until ``steps`` runs or a stop request; returns runs, final step, stop flag."""
    runs = 0
    with monitored(hooks, checkpointDir) as sess:
        while runs < steps and not sess.should_stop():
            sess.run(model.train, feed_dict=feed(runs) if feed else None)
            runs += 1
        stopped = sess.should_stop()
        # a raw run (no hooks fire), as a callback's runContext.session would do
        last = None if stopped else int(sess.run_step_fn(lambda step_context: step_context.session.run(model.gs)))
    return {"runs": runs, "stopped": stopped, "lastStep": last}


def scoped_step_graph():
    """TF's test_global_step_name graph: the global step is the variable ``bar/foo``, one step per run."""
    with tf.compat.v1.variable_scope("bar"):
        gs = tf.compat.v1.get_variable(
            "foo",
            initializer=np.int64(0),
            trainable=False,
            collections=[tf.compat.v1.GraphKeys.GLOBAL_STEP, tf.compat.v1.GraphKeys.GLOBAL_VARIABLES],
        )
    return gs, gs.assign_add(1)


def in_graph(build: Callable[[], Any]) -> Any:
    """``build()`` inside a fresh default graph; returns (graph, its result)."""
    g = tf.Graph()
    with g.as_default():
        return g, build()


def read_checkpoint(prefix: str) -> dict[str, np.ndarray]:
    reader = tf.train.load_checkpoint(prefix)
    return {k: reader.get_tensor(k) for k in reader.get_variable_to_shape_map()}


def restore_with_v1_saver(prefix: str, size: int = 16) -> dict[str, Any]:
    """Restores ``prefix`` into a fresh copy of the Model graph with tf.compat.v1.train.Saver."""
    g = tf.Graph()
    with g.as_default():
        m = Model(size=size)
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session(graph=g) as s:
            saver.restore(s, prefix)
            gs, count, big, w = s.run([m.gs, m.count, m.big, m.w])
    return {"global_step": int(gs), "count": int(count), "big": big, "w": float(w)}


class RecordingListener(CheckpointSaverListener):
    """A CheckpointSaverListener appending ``callback(step)`` and the thread to ``log``."""

    def __init__(
        self, log: list[str], stopAfter: int | None = None, onAfterSave: Callable[[Any, int], None] | None = None
    ) -> None:
        self.log = log
        self.stopAfter = stopAfter
        self.onAfterSave = onAfterSave
        self.threads: list[str] = []

    def begin(self) -> None:
        self.log.append("begin")

    def beforeSave(self, session: Any, globalStep: int) -> None:
        self.log.append(f"beforeSave({globalStep})")

    def afterSave(self, session: Any, globalStep: int) -> bool:
        self.log.append(f"afterSave({globalStep})")
        self.threads.append(threading.current_thread().name)
        if self.onAfterSave is not None:
            self.onAfterSave(session, globalStep)
        return self.stopAfter is not None and globalStep >= self.stopAfter

    def end(self, session: Any, globalStep: int) -> None:
        self.log.append(f"end({globalStep})")


def graph_files(checkpointDir: Any) -> tuple[Any, list[tuple[str, Any]]]:
    """What a checkpoint saver wrote of the graph into ``checkpointDir``, as TF's hook writes it: the
    GraphDef parsed from ``graph.pbtxt`` (text format), and the graph events of the dir's event
    files in order, read with ``tf.compat.v1.train.summary_iterator``: ``("graph_def", GraphDef)``
    and ``("meta_graph_def", MetaGraphDef)`` pairs (other events, such as TF's SessionLog, left out)."""
    from google.protobuf import text_format
    from tensorflow.core.protobuf import meta_graph_pb2

    with open(os.path.join(str(checkpointDir), "graph.pbtxt"), encoding="utf-8") as f:
        graph = text_format.Parse(f.read(), tf.compat.v1.GraphDef())
    events: list[tuple[str, Any]] = []
    for name in sorted(os.listdir(str(checkpointDir))):
        if not name.startswith("events.out.tfevents."):
            continue
        for event in tf.compat.v1.train.summary_iterator(os.path.join(str(checkpointDir), name)):
            if event.HasField("graph_def"):
                events.append(("graph_def", tf.compat.v1.GraphDef.FromString(event.graph_def)))
            elif event.HasField("meta_graph_def"):
                events.append(("meta_graph_def", meta_graph_pb2.MetaGraphDef.FromString(event.meta_graph_def)))
    return graph, events
