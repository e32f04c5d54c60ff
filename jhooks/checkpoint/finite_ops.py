"""Builds the fused finiteness check of float tensors (the ops behind ``jhooks.api.FiniteCheck``).

Twin of ``org.jhooks.checkpoint.FiniteOps``. Used by ``jhooks.tf`` for the variables and snapshot
buffers of a training graph and by ``SnapshotWriter`` for the values it is handed. TensorFlow is
imported by the caller and passed in (this layer imports it only lazily).

Per float tensor (half, bfloat16, float32, float64) it adds ``is_finite(reduce_sum(x))`` - one
read of the tensor, vectorized and parallel - and combines them into one bool scalar; and the
exact ``reduce_all(is_finite(x))`` per tensor as one bool vector, run only when a sum is not
finite (a NaN or an infinity in the tensor, or a sum of finite values that overflowed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")


def is_float(dtype: Any) -> bool:
    """Whether a TensorFlow or numpy dtype is one the check covers."""
    return getattr(dtype, "name", str(dtype)) in _FLOAT_DTYPES


def build(tf: Any, tensors: Mapping[str, Any], name: str) -> tuple[Any, Any, list[str]]:
    """Adds the check of the float tensors among ``tensors`` (``{key: tensor}``) to the default
    graph, under name scope ``name``; returns ``(sumsFinite, eachFinite, keys)``: the bool scalar
    tensor, the bool vector tensor and the keys of the checked tensors in its order."""
    keys = [k for k, t in tensors.items() if is_float(t.dtype.base_dtype)]
    with tf.name_scope(name):
        sums, each = [], []
        for key in keys:
            x = tensors[key]
            with tf.device(x.device):  # beside the tensor: no copy of it to another device
                sums.append(tf.math.is_finite(tf.reduce_sum(x)))
                each.append(tf.reduce_all(tf.math.is_finite(x)))
        if keys:
            sumsFinite = tf.reduce_all(tf.stack(sums), name="sums_finite")
            eachFinite = tf.stack(each, name="each_finite")
        else:
            sumsFinite = tf.constant(True, name="sums_finite")
            eachFinite = tf.zeros([0], tf.bool, name="each_finite")
    return sumsFinite, eachFinite, keys
