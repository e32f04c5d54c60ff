"""Translating fetches, feeds, results, run options, run args, model instances and plain values
across the bridge.

Fetch nests: Python str / list / tuple / dict <-> Java String / ``ArrayList`` / ``LinkedHashMap``.
A Java nest has no tuples, so results going back to Python are rebuilt in the structure of the
Python fetches (tuples stay tuples). Array leaves cross with :mod:`jhooks.bridge.convert.arrays` (copies).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jhooks.api.errors import SessionRunArgsError
from jhooks.api.model import ModelInstance
from jhooks.api.run_args import RunOptions, SessionRunArgs
from jhooks.bridge.backend.choice import current as _backend
from jhooks.bridge.convert import arrays


def _jclass(name: str) -> Any:
    return _backend().jclass(name)


def _jstring(value: str) -> Any:
    return _backend().jstring(value)


# -- fetches -----------------------------------------------------------------------------------


def fetches_to_java(fetches: Any) -> Any:
    """A Python fetch nest as Java (``ArrayList``/``LinkedHashMap`` of Strings); None stays None."""
    if fetches is None:
        return None
    if isinstance(fetches, str):
        return _jstring(fetches)
    if isinstance(fetches, (list, tuple)):
        out = _jclass("java.util.ArrayList")()
        for e in fetches:
            out.add(fetches_to_java(e))
        return out
    if isinstance(fetches, Mapping):
        out = _jclass("java.util.LinkedHashMap")()
        for k, v in fetches.items():
            out.put(_jstring(k), fetches_to_java(v))
        return out
    raise SessionRunArgsError(f"a fetch must be a str, list, tuple or dict, got {type(fetches).__name__} {fetches!r}")


def fetches_to_python(fetches: Any) -> Any:
    """A Java fetch nest as Python str / list / dict."""
    if fetches is None:
        return None
    if _backend().is_string(fetches):
        return str(fetches)
    if isinstance(fetches, _jclass("java.util.List")):
        return [fetches_to_python(e) for e in fetches]
    if isinstance(fetches, _jclass("java.util.Map")):
        return {str(e.getKey()): fetches_to_python(e.getValue()) for e in fetches.entrySet()}
    raise SessionRunArgsError(
        f"a Java fetch must be a String, List or Map, got {_backend().class_names(fetches)[0]} {fetches}"
    )


# -- feeds and results -------------------------------------------------------------------------


def feeds_to_java(feeds: Mapping[str, Any] | None) -> Any:
    """Python feeds (tensor name -> array) as a Java ``LinkedHashMap<String, NdArray>`` of copies.

    Raises SessionRunArgsError naming a key that is not a str or a value that cannot cross."""
    out = _jclass("java.util.LinkedHashMap")()
    for name, value in (feeds or {}).items():
        if not isinstance(name, str):
            raise SessionRunArgsError(f"a feed key must be a tensor name (str), got {type(name).__name__} {name!r}")
        try:
            java = arrays.to_java(value)
        except TypeError as e:
            raise SessionRunArgsError(f"feed {name!r}: {e}") from e
        out.put(_jstring(name), java)
    return out


def feeds_to_python(feeds: Any) -> dict:
    """Java feeds (``Map<String, NdArray>``) as a dict of numpy copies."""
    if feeds is None:
        return {}
    return {str(e.getKey()): arrays.to_numpy(e.getValue()) for e in feeds.entrySet()}


def results_to_java(results: Any, leaf: Callable[[Any], Any] = arrays.view_to_java) -> Any:
    """Python results (numpy leaves, None for targets, list/tuple/dict nests) as Java: by default
    numeric and boolean leaves as read-only views of the numpy memory
    (:func:`jhooks.bridge.convert.arrays.view_to_java`, valid during the receiving callback; copy to
    keep), strings as copies; ``leaf=arrays.to_java`` makes every leaf a copy Java owns."""
    if results is None:
        return None
    if isinstance(results, (list, tuple)):
        out = _jclass("java.util.ArrayList")()
        for e in results:
            out.add(results_to_java(e, leaf))
        return out
    if isinstance(results, Mapping):
        out = _jclass("java.util.LinkedHashMap")()
        for k, v in results.items():
            out.put(_jstring(k), results_to_java(v, leaf))
        return out
    return leaf(results)


def results_to_python(results: Any, fetches: Any = None, leaf: Callable[[Any], Any] = arrays.to_numpy) -> Any:
    """Java results as Python: numpy leaves (``leaf`` of each NdArray: writable copies by default;
    a Python hook's values use :func:`jhooks.bridge.convert.arrays.view_to_numpy`, read-only views) in the
    structure of the Python ``fetches`` when given (tuples stay tuples), else Java List/Map become
    list/dict."""
    if results is None:
        return None
    if isinstance(fetches, str) or (fetches is None and arrays.is_ndarray(results)):
        return leaf(results)
    if isinstance(fetches, (list, tuple)):
        return type(fetches)(results_to_python(results.get(i), f, leaf) for i, f in enumerate(fetches))
    if isinstance(fetches, Mapping):
        return {k: results_to_python(results.get(_jstring(k)), f, leaf) for k, f in fetches.items()}
    if isinstance(results, _jclass("java.util.List")):
        return [results_to_python(e, None, leaf) for e in results]
    if isinstance(results, _jclass("java.util.Map")):
        return {str(e.getKey()): results_to_python(e.getValue(), None, leaf) for e in results.entrySet()}
    raise TypeError(f"a Java result must be an NdArray, List or Map, got {_backend().class_names(results)[0]}")


# -- options, run args, run metadata, model ------------------------------------------------------


def options_to_java(options: Any) -> Any:
    """jhooks RunOptions (or TensorFlow's RunOptions proto) as ``org.jhooks.RunOptions``."""
    if options is None:
        return None
    if isinstance(options, RunOptions):
        values = (
            options.traceLevel,
            options.timeoutInMs,
            options.interOpThreadPool,
            options.outputPartitionGraphs,
            options.reportTensorAllocationsUponOom,
        )
    elif hasattr(options, "trace_level"):
        values = (
            options.trace_level,
            options.timeout_in_ms,
            options.inter_op_thread_pool,
            options.output_partition_graphs,
            options.report_tensor_allocations_upon_oom,
        )
    else:
        raise TypeError(f"run options must be jhooks.RunOptions, got {type(options).__name__} {options!r}")
    key = (int(values[0]), int(values[1]), int(values[2]), bool(values[3]), bool(values[4]))
    cached = _java_options.get(key)
    if cached is None:  # org.jhooks.RunOptions is immutable: one per distinct value
        backend = _backend()
        if len(_java_options) >= 64:
            _java_options.clear()
        cached = _java_options[key] = _jclass("org.jhooks.RunOptions")(
            backend.jint(key[0]), backend.jlong(key[1]), backend.jint(key[2]), key[3], key[4]
        )
    return cached


_java_options: dict[tuple, Any] = {}


def options_to_python(options: Any) -> RunOptions | None:
    if options is None:
        return None
    return RunOptions(
        traceLevel=int(options.traceLevel),
        timeoutInMs=int(options.timeoutInMs),
        interOpThreadPool=int(options.interOpThreadPool),
        outputPartitionGraphs=bool(options.outputPartitionGraphs),
        reportTensorAllocationsUponOom=bool(options.reportTensorAllocationsUponOom),
    )


def run_args_to_java(args: SessionRunArgs | None) -> Any:
    """A Python SessionRunArgs (or None) as ``org.jhooks.SessionRunArgs``."""
    if args is None:
        return None
    if not isinstance(args, SessionRunArgs):
        raise TypeError(f"expected jhooks.SessionRunArgs or None, got {type(args).__name__} {args!r}")
    return _jclass("org.jhooks.SessionRunArgs")(
        fetches_to_java(args.fetches), feeds_to_java(args.feeds), options_to_java(args.options)
    )


def run_args_to_python(args: Any) -> SessionRunArgs | None:
    """``org.jhooks.SessionRunArgs`` (or null) as a Python SessionRunArgs with numpy feeds."""
    if args is None:
        return None
    return SessionRunArgs(
        fetches=fetches_to_python(args.fetches()),
        feeds=feeds_to_python(args.feeds()),
        options=options_to_python(args.options()),
    )


def run_metadata_to_java(metadata: Any) -> Any:
    """TensorFlow's RunMetadata proto (or serialized bytes) as Java ``byte[]``."""
    if metadata is None:
        return None
    data = metadata if isinstance(metadata, (bytes, bytearray)) else metadata.SerializeToString()
    return _backend().array("byte", bytes(data))


def run_metadata_to_python(metadata: Any) -> Any:
    """Java's serialized RunMetadata as TensorFlow's proto (bytes when TensorFlow is not installed)."""
    if metadata is None:
        return None
    data = _backend().to_bytes(metadata)
    try:
        from tensorflow.core.protobuf import config_pb2
    except ImportError:
        return data
    return config_pb2.RunMetadata.FromString(data)


def model_to_java(model: ModelInstance) -> Any:
    endpoints = _jclass("java.util.LinkedHashMap")()
    for k, v in model.endpoints.items():
        endpoints.put(_jstring(k), _jstring(v))
    return _jclass("org.jhooks.ModelInstance")(endpoints)


def model_to_python(model: Any) -> ModelInstance:
    return ModelInstance({str(e.getKey()): str(e.getValue()) for e in model.endpoints().entrySet()})


def value_to_python(value: Any) -> Any:
    """A plain value from Java (a constructor argument): Strings, boxed numbers and Booleans become
    ``str``/``int``/``float``/``bool``, NdArrays numpy copies; anything else is returned as it is."""
    backend = _backend()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if backend.is_string(value):
        return str(value)
    if backend.is_instance(value, "java.lang.Boolean"):
        return bool(value.booleanValue())
    if any(backend.is_instance(value, f"java.lang.{c}") for c in ("Integer", "Long", "Short", "Byte")):
        return int(value.longValue())
    if any(backend.is_instance(value, f"java.lang.{c}") for c in ("Double", "Float")):
        return float(value.doubleValue())
    if arrays.is_ndarray(value):
        return arrays.to_numpy(value)
    return value
