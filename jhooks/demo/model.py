"""The demo's logistic regression in ``tf.compat.v1`` graph mode: the graph
``org.jhooks.demo.DemoModel`` builds on the JVM, op for op where names matter.

Names: variables ``w`` [features, 1] and ``b`` [1] (float32, start at 0), ``global_step`` (int64,
``get_or_create_global_step``); ``loss:0`` (mean binary cross-entropy on the training rows,
``-mean(y log(p + 1e-7) + (1 - y) log(1 - p + 1e-7))``, ``p = sigmoid(x w + b)``),
``held_out_loss:0``, ``accuracy:0`` (held-out rows where ``x w + b > 0`` equals the label),
``loss_summary:0`` (a serialized Summary with the scalar ``loss``) and ``train_step`` (one gradient
descent step that also adds 1 to the global step). Data are graph constants (full batch).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import tensorflow as tf

from jhooks.demo.data import DemoData

VARIABLES = ("w", "b", "global_step")
LOSS = "loss:0"
HELD_OUT_LOSS = "held_out_loss:0"
ACCURACY = "accuracy:0"
LOSS_SUMMARY = "loss_summary:0"
TRAIN_OP = "train_step"
GLOBAL_STEP = "global_step:0"
DEFAULT_LEARNING_RATE = 0.5
_EPS = 1e-7


@dataclass
class DemoGraph:
    graph: tf.Graph
    variables: dict[str, tf.Variable]  # checkpoint key -> variable, VARIABLES order
    trainOp: tf.Operation
    saver: tf.compat.v1.train.Saver  # restores exactly VARIABLES by name


def _cross_entropy(logits: tf.Tensor, y: tf.Tensor, name: str) -> tf.Tensor:
    p = tf.sigmoid(logits)
    pos = y * tf.math.log(p + _EPS)
    neg = (1.0 - y) * tf.math.log(1.0 - p + _EPS)
    return tf.negative(tf.reduce_mean(pos + neg), name=name)


def build(data: DemoData, learningRate: float = DEFAULT_LEARNING_RATE, deviceFunction: Any = None) -> DemoGraph:
    """A new graph holding the demo model for ``data``.

    ``deviceFunction`` (a replica device setter, :class:`jhooks.tf.device_setter.ReplicaDeviceSetter`)
    places the ops for between-graph training; then ``global_step`` is a ``VariableV2`` like the
    JVM's (``org.jhooks.tf.GlobalStep``), so Python and JVM workers share one variable on the ps
    (a resource variable of the same name would be another variable there).
    """
    graph = tf.Graph()
    with graph.as_default(), tf.compat.v1.device(deviceFunction) if deviceFunction else contextlib.nullcontext():
        features = data.trainX.shape[1]
        w = tf.compat.v1.Variable(tf.zeros([features, 1], tf.float32), name="w", use_resource=False)
        b = tf.compat.v1.Variable(tf.zeros([1], tf.float32), name="b", use_resource=False)

        def logits(x):
            return tf.matmul(tf.constant(x), tf.identity(w)) + tf.identity(b)

        loss = _cross_entropy(logits(data.trainX), tf.constant(data.trainY), "loss")
        held_out_logits = logits(data.heldOutX)
        held_out_y = tf.constant(data.heldOutY)
        _cross_entropy(held_out_logits, held_out_y, "held_out_loss")
        predicted = tf.cast(held_out_logits > 0.0, tf.float32)
        tf.reduce_mean(tf.cast(tf.equal(predicted, held_out_y), tf.float32), name="accuracy")
        tf.raw_ops.ScalarSummary(tags=tf.constant("loss"), values=loss, name="loss_summary")
        if deviceFunction is None:
            step = tf.compat.v1.train.get_or_create_global_step()
        else:
            step = tf.compat.v1.get_variable(
                "global_step",
                shape=[],
                dtype=tf.int64,
                initializer=tf.compat.v1.zeros_initializer(),
                trainable=False,
                use_resource=False,
                collections=[tf.compat.v1.GraphKeys.GLOBAL_VARIABLES, tf.compat.v1.GraphKeys.GLOBAL_STEP],
            )
        # The step's increment waits for the read that fetching global_step:0 returns (its graph
        # element), so every hook fetching it in the train step's run gets the value before the
        # increment. Unordered, the read fell before or after it at random: consecutive runs saw
        # the same step and StepCounterHook (TF's and jhooks' twins alike) warned that the global
        # step "has not been increased" five times a demo, as Estimator avoids by building the
        # model under a global step read. A VariableV2 (deviceFunction) is fetched by reference.
        ordered = [graph.as_graph_element(step)] if deviceFunction is None else []
        with tf.control_dependencies(ordered):
            train_op = tf.compat.v1.train.GradientDescentOptimizer(learningRate).minimize(
                loss, global_step=step, var_list=[w, b], name=TRAIN_OP
            )
        variables = {"w": w, "b": b, "global_step": step}
        saver = tf.compat.v1.train.Saver(var_list=variables, max_to_keep=None)
    return DemoGraph(graph, variables, train_op, saver)
