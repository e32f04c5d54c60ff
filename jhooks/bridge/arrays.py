"""numpy arrays <-> tensorflow-java ``org.tensorflow.ndarray.NdArray`` (copies, never views).

Dtypes: float16/32/64, bfloat16 (``ml_dtypes``, as TensorFlow uses), int8/16/32/64, uint8/16, bool, and strings (numpy object arrays of
bytes or str, or numpy ``S``/``U`` arrays). Shapes (scalars, zero-size) and values are kept
exactly; int64 is never narrowed. Numeric and boolean values cross in one bulk copy through a
direct ``java.nio.ByteBuffer`` over the numpy memory (JPype's ``convertToDirectBuffer``), used only
during the call. Arrays that are not C-contiguous in native byte order (Fortran order, strided
views, big-endian) are first converted by numpy, so they are never misread.

Ownership: each side owns what it receives; see docs/bridge.md, "Arrays and ownership".
Java -> Python: string NdArrays come back as object arrays of ``bytes`` (as TensorFlow returns
them); ``ByteNdArray``/``ShortNdArray`` the bridge did not make are uint8/uint16 (tensorflow-java's
TUint8/TUint16), see ``org.jhooks.bridge.DTypes``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_NUMERIC = {
    "float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "bool",
}


def _java():
    import jpype
    import jpype.nio  # noqa: F401

    return jpype


_classes: dict = {}


def _jclass(name: str) -> Any:
    cls = _classes.get(name)
    if cls is None:
        import jpype

        cls = _classes[name] = jpype.JClass(name)
    return cls


def _bridge_arrays():
    return _jclass("org.jhooks.bridge.Arrays")


def _shape(shape) -> Any:
    import jpype

    return jpype.JArray(jpype.JLong)(list(shape))


def is_ndarray(value: Any) -> bool:
    """Whether ``value`` is a Java ``org.tensorflow.ndarray.NdArray``."""
    return isinstance(value, _jclass("org.tensorflow.ndarray.NdArray"))


def to_java(value: Any) -> Any:
    """A new Java NdArray holding a copy of ``value`` (a numpy array or anything np.asarray takes).

    Raises TypeError naming the dtype when it has no Java twin (complex, uint32, datetime, ...).
    """
    jpype = _java()
    a = np.asarray(value)
    if a.dtype.kind in "OSU":
        return _strings_to_java(a)
    name = a.dtype.name
    if name not in _NUMERIC:
        raise TypeError(f"a numpy {a.dtype} array cannot cross to Java; jhooks supports {sorted(_NUMERIC)} and strings")
    native = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("="))
    if not native.flags.writeable:  # convertToDirectBuffer needs a writable buffer; Java only reads it
        native = native.copy()
    flat = native.reshape(-1)
    buffer = jpype.nio.convertToDirectBuffer(flat.view(np.uint8)) if flat.size else jpype.JClass(
        "java.nio.ByteBuffer").allocateDirect(0)
    return _bridge_arrays().fromBuffer(buffer, name, _shape(a.shape))


def _strings_to_java(a: np.ndarray) -> Any:
    jpype = _java()
    items = []
    for v in a.reshape(-1).tolist():
        if isinstance(v, bytes):
            items.append(v)
        elif isinstance(v, str):
            items.append(v.encode("utf-8"))
        else:
            raise TypeError(f"a string array holds a {type(v).__name__} ({v!r}); only bytes and str cross to Java")
    jitems = jpype.JArray(jpype.JArray(jpype.JByte))(len(items))
    for i, b in enumerate(items):
        jitems[i] = jpype.JArray(jpype.JByte)(b)
    return _bridge_arrays().fromStrings(jitems, _shape(a.shape))


def dtype_of(array: Any) -> str:
    """The numpy dtype name of a Java NdArray (``"string"`` for String/byte[] arrays)."""
    return str(_jclass("org.jhooks.bridge.DTypes").of(array))


def to_numpy(array: Any) -> np.ndarray:
    """A new, writable numpy array holding a copy of the Java NdArray ``array``.

    Strings become an object array of ``bytes``. Raises TypeError when ``array`` is not an NdArray.
    """
    jpype = _java()
    if not is_ndarray(array):
        raise TypeError(f"expected an org.tensorflow.ndarray.NdArray, got {type(array).__name__} {array!r}")
    dtype = dtype_of(array)
    shape = tuple(int(d) for d in _bridge_arrays().shape(array))
    if dtype == "string":
        values = _bridge_arrays().toStrings(array)
        out = np.empty(len(values), dtype=object)
        out[:] = [bytes(v) for v in values]
        return out.reshape(shape)
    if dtype == "bfloat16":
        import ml_dtypes  # noqa: F401 - registers numpy's "bfloat16"
    out = np.empty(shape, dtype=np.dtype(dtype))
    if out.size:
        _bridge_arrays().copyToBuffer(array, jpype.nio.convertToDirectBuffer(out.reshape(-1).view(np.uint8)))
    return out
