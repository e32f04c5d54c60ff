"""Translation between jhooks names/values and tf.compat.v1 graph objects and protos.

Fetch names follow docs/contract.md: ``"op:N"`` is a tensor (result: numpy array), an op name
without ``:N`` is run as a target (result: None). A tensor name that is a resource variable's
handle (e.g. ``"global_step:0"`` of ``get_or_create_global_step``) fetches the variable's value,
as tensorflow-java does, so the same names work for graphs from either language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import tensorflow as tf

from jhooks.api import nest
from jhooks.api.run_args import RunOptions, SessionRunArgs
from jhooks.tf.errors import GraphNameError

# (hook, callback) of the party whose names are resolved, for error messages
Where = Callable[[], "tuple[str, str]"]


def _variable_value(graph: tf.Graph, handle: tf.Tensor) -> tf.Tensor | None:
    """The read tensor of the resource variable whose handle is ``handle``, if the graph has one."""
    for key in (tf.compat.v1.GraphKeys.GLOBAL_VARIABLES, tf.compat.v1.GraphKeys.LOCAL_VARIABLES):
        for v in graph.get_collection(key):
            if getattr(v, "handle", None) is handle:
                # Built with the variable in graph mode; reading it adds no op to a finalized graph.
                return getattr(v, "_graph_element", None)
    return None


GLOBAL_STEP = "global_step:0"  # what a session view names the global step when the graph has none


def user_class(hook_label: str) -> str:
    """``StopAtStepHook`` for ``hook #2 (org.jhooks.hooks.StopAtStepHook, Java)`` or
    ``jhooks.hooks.stop_at_step.StopAtStepHook``: the class name TensorFlow's messages use."""
    inner = hook_label[hook_label.find("(") + 1 :] if "(" in hook_label else hook_label
    return inner.split(",")[0].split(")")[0].strip().rsplit(".", 1)[-1]


def resolve_tensor(graph: tf.Graph, name: str, where: Where) -> tf.Tensor:
    if not nest.is_tensor_name(name):
        hook, callback = where()
        raise GraphNameError(hook, callback, name, "is not a tensor name (expected 'op:N')")
    try:
        tensor = graph.get_tensor_by_name(name)
    except (KeyError, ValueError) as e:
        hook, callback = where()
        problem = f"is not in the session's graph ({e})"
        if name == GLOBAL_STEP and tf.compat.v1.train.get_global_step(graph) is None:
            # TensorFlow's own text: its hooks raise it in begin() when the graph has no global step
            problem += f": Global step should be created to use {user_class(hook)}."
        raise GraphNameError(hook, callback, name, problem) from None
    if tensor.dtype == tf.resource and tensor.op.type == "VarHandleOp":
        value = _variable_value(graph, tensor)
        if value is not None:
            return value
    return tensor


def resolve_fetch(graph: tf.Graph, name: str, where: Where) -> Any:
    if nest.is_tensor_name(name):
        return resolve_tensor(graph, name, where)
    try:
        return graph.get_operation_by_name(name)
    except (KeyError, ValueError) as e:
        hook, callback = where()
        raise GraphNameError(hook, callback, name, f"is not an op in the session's graph ({e})") from None


def resolve_fetches(graph: tf.Graph, fetches: Any, where: Where) -> Any:
    """The TF fetch structure for a jhooks fetch nest (same shape; tuples stay tuples)."""
    return nest.map_structure(fetches, lambda n: resolve_fetch(graph, n, where))


def resolve_feeds(graph: tf.Graph, feeds: Mapping[str, Any] | None, where: Where) -> dict | None:
    """TF's feed_dict for jhooks feeds; each value is checked as TF's session checks it (cast to the
    tensor's dtype, shape compatible with its static shape), so a bad value fails before the run
    with a GraphNameError naming the hook, callback, tensor and value instead of TF's anonymous
    ValueError from the merged run."""
    if not feeds:
        return None
    out = {}
    for name, value in feeds.items():
        tensor = resolve_tensor(graph, name, where)
        out[tensor] = _checked_feed(tensor, name, value, where)
    return out


def _checked_feed(tensor: tf.Tensor, name: str, value: Any, where: Where) -> Any:
    if isinstance(value, (tf.Tensor, tf.Operation)) or tensor.dtype in (tf.resource, tf.variant):
        return value  # TF raises its own TypeError for these; nothing to cast
    if _kinds(value) - {_dtype_kind(tensor.dtype), None}:
        # TF's session would cast (True -> 1.0, b"1.5" -> 1.5, 2.0 -> True); the contract and the JVM
        # driver cast only numbers into other number types
        hook, callback = where()
        raise GraphNameError(
            hook,
            callback,
            name,
            f"cannot be fed {_describe(value)} as {tensor.dtype.name}: only numbers convert to other number types",
        )
    try:
        array = np.asarray(value, dtype=tensor.dtype.as_numpy_dtype)
    except (TypeError, ValueError, OverflowError) as e:
        hook, callback = where()
        raise GraphNameError(
            hook, callback, name, f"cannot be fed {_describe(value)} as {tensor.dtype.name} ({e})"
        ) from None
    if not tensor.shape.is_compatible_with(array.shape):
        hook, callback = where()
        raise GraphNameError(
            hook, callback, name, f"cannot be fed {_describe(value)}: the tensor's shape is {tensor.shape}"
        ) from None
    return array


def _dtype_kind(dtype: tf.DType) -> str:
    if dtype == tf.bool:
        return "bool"
    if dtype == tf.string:
        return "string"
    return "number"


def _element_kind(item: Any) -> str | None:
    if isinstance(item, (bool, np.bool_)):
        return "bool"
    if isinstance(item, (bytes, str, np.bytes_, np.str_)):
        return "string"
    if isinstance(item, (int, float, complex, np.number)):
        return "number"
    return None


def _kinds(value: Any) -> set[str | None]:
    """What ``value`` holds: ``"number"``, ``"bool"``, ``"string"`` (None for anything else)."""
    try:
        array = value if isinstance(value, np.ndarray) else np.asarray(value, dtype=object)
    except ValueError:  # ragged nests: the cast below names the problem
        return set()
    if array.dtype != object:
        return {{"b": "bool", "S": "string", "U": "string"}.get(array.dtype.kind, "number")}
    return {_element_kind(item) for item in array.flat}


def _describe(value: Any) -> str:
    shape, dtype = np.shape(value), getattr(value, "dtype", type(value).__name__)
    return f"a value of shape {tuple(shape)} ({dtype})"


def to_array(value: Any) -> np.ndarray:
    """TF returns numpy scalars (np.float32, bytes) for rank-0 tensors; hooks get shape-() arrays.

    Strings stay object arrays of ``bytes``, as TF returns non-scalar string tensors (and as the
    bridge hands over Java strings): a ``bytes`` scalar becomes a shape-() object array holding
    it unchanged (``np.asarray`` would make an ``S`` array, whose items drop trailing NUL bytes and
    so corrupt serialized protos).
    """
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, bytes):
        out = np.empty((), dtype=object)
        out[()] = value
        return out
    return np.asarray(value)


def normalize_results(fetches: Any, results: Any) -> Any:
    """``results`` rebuilt in the structure of the jhooks ``fetches``: arrays, None for targets."""
    if fetches is None:
        return None
    if isinstance(fetches, str):
        return to_array(results) if nest.is_tensor_name(fetches) else None
    if isinstance(fetches, tuple):
        return tuple(normalize_results(f, r) for f, r in zip(fetches, results))
    if isinstance(fetches, list):
        return [normalize_results(f, r) for f, r in zip(fetches, results)]
    return {k: normalize_results(f, results[k]) for k, f in fetches.items()}


def options_to_proto(options: RunOptions | None) -> tf.compat.v1.RunOptions | None:
    if options is None:
        return None
    return tf.compat.v1.RunOptions(
        trace_level=options.traceLevel,
        timeout_in_ms=options.timeoutInMs,
        inter_op_thread_pool=options.interOpThreadPool,
        output_partition_graphs=options.outputPartitionGraphs,
        report_tensor_allocations_upon_oom=options.reportTensorAllocationsUponOom,
    )


def options_from_proto(proto: Any) -> RunOptions | None:
    if proto is None:
        return None
    return RunOptions(
        traceLevel=int(proto.trace_level),
        timeoutInMs=int(proto.timeout_in_ms),
        interOpThreadPool=int(proto.inter_op_thread_pool),
        outputPartitionGraphs=bool(proto.output_partition_graphs),
        reportTensorAllocationsUponOom=bool(proto.report_tensor_allocations_upon_oom),
    )


def _fetch_name(fetch: Any) -> str:
    if isinstance(fetch, str):
        return fetch
    if isinstance(fetch, (tf.Tensor, tf.Operation)):
        return fetch.name
    if isinstance(fetch, tf.Variable):
        return fetch.name
    raise ValueError(f"cannot express TF fetch {type(fetch).__name__} {fetch!r} as a jhooks name")


def _names_of(fetches: Any) -> Any:
    if fetches is None:
        return None
    if isinstance(fetches, dict):
        return {str(k): _names_of(v) for k, v in fetches.items()}
    if isinstance(fetches, tuple):
        return tuple(_names_of(f) for f in fetches)
    if isinstance(fetches, list):
        return [_names_of(f) for f in fetches]
    return _fetch_name(fetches)


def args_from_tf(fetches: Any, feed_dict: Mapping[Any, Any] | None, options: Any = None) -> SessionRunArgs:
    """The caller's TF run arguments as jhooks SessionRunArgs (tensors and ops become names).

    Raises ValueError for fetches or feed keys jhooks cannot name (e.g. SparseTensor).
    """
    feeds = {}
    for key, value in (feed_dict or {}).items():
        feeds[_fetch_name(key)] = value
    return SessionRunArgs(_names_of(fetches), feeds, options_from_proto(options))
