"""Builds a scenario's model recipe as a tf.compat.v1 graph (twin of org.jhooks.conformance.ModelRecipe).

Names, identical on the JVM: ``global_step`` (int64 scalar VariableV2, +1 per train run),
``counter`` (float32 scalar VariableV2, +counterIncrement per train run), ``global_step_read:0``
and ``counter_read:0`` (the values before this run's increment: ``var + 0`` copies, which ``train``
waits for), ``loss:0`` (counter_read, NaN in the run that makes the global step nanLossAtStep),
``input_next:0`` (one input element per train run; the run after the last ends with OutOfRange),
``fail_at`` (an Assert that fails with InvalidArgument in the run that would make the global step
failAtStep), ``<p>:0`` and ``<p>_doubled:0`` per placeholder, and the op ``train``. Variables are
ref (VariableV2) variables so tensorflow-java's ``Session.save`` and Python's ``Saver`` agree.
``global_step_read:0`` is registered as TensorFlow's global-step read tensor, so TF's own hooks
fetch it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from jhooks.api.model import ModelInstance

# tensorflow.python.training.training_util.GLOBAL_STEP_READ_KEY
_GLOBAL_STEP_READ_KEY = "global_step_read_op_cache"


@dataclass(frozen=True)
class BuiltModel:
    """The graph, its ModelInstance, and the train op name."""

    graph: Any
    modelInstance: ModelInstance
    trainOp: str = "train"


def model_instance() -> ModelInstance:
    """The endpoints every recipe has: loss:0, train, global_step:0."""
    return ModelInstance.of("loss:0", "train", "global_step:0")


def build(recipe: Mapping[str, Any], graph: Any = None) -> BuiltModel:
    """Adds the recipe to ``graph`` (a new ``tf.Graph`` when None) and returns it with its names."""
    import tensorflow as tf

    v1 = tf.compat.v1
    graph = graph if graph is not None else tf.Graph()
    dtypes = {"float32": tf.float32, "int64": tf.int64, "int32": tf.int32}
    with graph.as_default():
        global_step = v1.Variable(
            np.int64(0),
            name="global_step",
            dtype=tf.int64,
            trainable=False,
            use_resource=False,
            collections=[v1.GraphKeys.GLOBAL_VARIABLES, v1.GraphKeys.GLOBAL_STEP],
        )
        counter = v1.Variable(np.float32(0), name="counter", dtype=tf.float32, use_resource=False)
        step_read = tf.add(global_step, tf.constant(0, tf.int64), name="global_step_read")
        graph.add_to_collection(_GLOBAL_STEP_READ_KEY, step_read)
        counter_read = tf.add(counter, tf.constant(0.0, tf.float32), name="counter_read")
        if "nanLossAtStep" in recipe:
            is_nan_step = tf.equal(step_read, tf.constant(recipe["nanLossAtStep"] - 1, tf.int64))
            tf.where(is_nan_step, tf.constant(float("nan"), tf.float32), counter_read, name="loss")
        else:
            tf.identity(counter_read, name="loss")
        needed = [step_read, counter_read]
        for p in recipe.get("placeholders", []):
            placeholder = v1.placeholder(dtypes[p["dtype"]], shape=p["shape"], name=p["name"])
            doubled = tf.add(placeholder, placeholder, name=f"{p['name']}_doubled")
            if p.get("requiredByTrain", False):
                needed.append(doubled)
        if "input" in recipe:
            elements = np.array(recipe["input"]["values"], dtype=np.float32)
            iterator = v1.data.make_one_shot_iterator(tf.data.Dataset.from_tensor_slices(elements))
            needed.append(iterator.get_next(name="input_next"))
        if "failAtStep" in recipe:
            ok = tf.not_equal(step_read, tf.constant(recipe["failAtStep"] - 1, tf.int64))
            needed.append(
                tf.raw_ops.Assert(
                    condition=ok, data=[tf.constant(f"fail_at step {recipe['failAtStep']}")], name="fail_at"
                )
            )
        with tf.control_dependencies(needed):
            update = v1.assign_add(counter, float(recipe.get("counterIncrement", 1.0)), name="counter_update")
        with tf.control_dependencies([update]):
            v1.assign_add(global_step, tf.constant(1, tf.int64), name="train")
    return BuiltModel(graph=graph, modelInstance=model_instance())
