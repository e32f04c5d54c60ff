"""numpy arrays <-> tensorflow-java ``org.tensorflow.ndarray.NdArray``: copies, and read-only views
of fetched values for Java hooks (:func:`view_to_java`).

Dtypes: float16/32/64, bfloat16 (``ml_dtypes``, as TensorFlow uses), int8/16/32/64, uint8/16, bool,
and strings (numpy object arrays of bytes or str, or numpy ``S``/``U`` arrays). Shapes (scalars,
zero-size) and values are kept exactly; int64 is never narrowed. Numeric and boolean values
cross in one bulk copy through a direct ``java.nio.ByteBuffer`` over the numpy memory (JPype's
``convertToDirectBuffer``), used only during the call. Arrays that are not C-contiguous in
native byte order (Fortran order, strided views, big-endian) are first converted by numpy, so they
are never misread.

Ownership: each side owns what it receives; see docs/bridge.md, "Arrays and ownership".
Java -> Python: string NdArrays come back as object arrays of ``bytes`` (as TensorFlow returns
them); ``ByteNdArray``/``ShortNdArray`` the bridge did not make are uint8/uint16 (tensorflow-java's
TUint8/TUint16), see ``org.jhooks.ndarray.DType``, the Java side's dtype table.
"""

from __future__ import annotations

import collections
import ctypes
import os
import struct
import threading
import weakref
from sys import getrefcount
from typing import Any

import numpy as np

from jhooks.bridge.backend.choice import current as _backend

# The numpy dtypes that cross as numbers or booleans (strings cross as object/S/U arrays): the
# Python side's one dtype table; org.jhooks.ndarray.DType is the Java side's and holds the same names.
DTYPES = (
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "bool",
)


def _jclass(name: str) -> Any:
    return _backend().jclass(name)


def _bridge_arrays():
    return _jclass("org.jhooks.bridge.NumpyArrays")


def _shape(shape) -> Any:
    return _backend().array("long", [int(d) for d in shape])


def is_ndarray(value: Any) -> bool:
    """Whether ``value`` is a Java ``org.tensorflow.ndarray.NdArray``."""
    return isinstance(value, _jclass("org.tensorflow.ndarray.NdArray"))


def to_java(value: Any) -> Any:
    """A new Java NdArray holding a copy of ``value`` (a numpy array or anything np.asarray takes).

    Raises TypeError naming the dtype when it has no Java twin (complex, uint32, datetime, ...).
    """
    a = np.asarray(value)
    if a.dtype.kind in "OSU":
        return _strings_to_java(a)
    name = a.dtype.name
    if name not in DTYPES:
        raise TypeError(f"a numpy {a.dtype} array cannot cross to Java; jhooks supports {list(DTYPES)} and strings")
    native = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("="))
    if not native.flags.writeable:  # convertToDirectBuffer needs a writable buffer; Java only reads it
        native = native.copy()
    flat = native.reshape(-1)
    buffer = (
        _backend().direct_buffer(flat.view(np.uint8)) if flat.size else _jclass("java.nio.ByteBuffer").allocateDirect(0)
    )
    return _bridge_arrays().fromBuffer(buffer, name, _shape(a.shape))


# Numpy arrays that Java views read (view_to_java), oldest first, with their leases
# (org.jhooks.ndarray.ViewLease) and total bytes: each is kept alive after the callback that received
# its view until VIEW_BUDGET bytes of newer views push it out, so retention is bounded by bytes
# handed out, not by the JVM's garbage collector. Its lease is released before its memory can be
# freed, so a Java hook reading a view it kept gets an IllegalStateException, not freed memory.
VIEW_BUDGET = int(float(os.environ.get("JHOOKS_VIEW_BUDGET_MB", "256")) * 2**20)
_kept: collections.deque = collections.deque()
_kept_bytes = 0
_kept_lock = threading.Lock()
_retired: list = []  # the arrays pushed out last, freed at the next push-out (a grace period)


def _keep(a: np.ndarray, lease: Any) -> None:
    global _kept_bytes, _retired
    with _kept_lock:
        _kept.append((a, lease))
        _kept_bytes += a.nbytes
        retired = []
        while _kept_bytes > VIEW_BUDGET and len(_kept) > 1:
            old, old_lease = _kept.popleft()
            _kept_bytes -= old.nbytes
            if getrefcount(old) > 2:  # still held by its caller: valid until the caller lets go
                weakref.finalize(old, old_lease.release).atexit = False
            else:
                old_lease.release()  # waits for copies under way; element reads get the grace below
                retired.append(old)
        if retired:
            _retired = retired


def view_to_java(value: Any) -> Any:
    """A read-only Java NdArray over the memory of ``value`` (no copy) when it is a numeric or
    boolean array of more than ``PACKED_MAX_BYTES`` (1 KB); a read-only copy made in one call when
    it is a smaller non-empty one (a scalar loss or step: viewing costs more calls than copying);
    else :func:`to_java` (a copy: strings, zero-size arrays).

    Same dtype, shape and values as :func:`to_java`. The view is valid while the caller holds
    ``value`` (for a hook: during its callback) and afterwards until views of ``VIEW_BUDGET`` more
    bytes were handed out (``JHOOKS_VIEW_BUDGET_MB``, default 256); a Java hook that keeps a value
    must copy it: a view read after its numpy memory was let go throws ``IllegalStateException``
    naming the value (``org.jhooks.ndarray.ViewLease``), never reads freed memory. Writing to the
    view throws ``java.nio.ReadOnlyBufferException``. An array that is not C-contiguous in native
    byte order is converted by numpy first (a copy the view then owns).
    Raises TypeError naming a dtype that has no Java twin."""
    a = value if type(value) is np.ndarray else np.asarray(value)
    small = packed_small(a)
    if small is not None:  # one call with a copy (org.jhooks.bridge.NumpyArrays.unpacked)
        return _bridge_arrays().unpacked(small)
    if a.dtype.kind in "OSU" or a.size == 0 or not _backend().shares_memory:
        return to_java(a)
    name = a.dtype.name
    if name not in DTYPES:
        raise TypeError(f"a numpy {a.dtype} array cannot cross to Java; jhooks supports {list(DTYPES)} and strings")
    if a.nbytes <= PACKED_MAX_BYTES and a.ndim <= 16:  # small: one call, a copy (NumpyArrays.unpacked)
        return _bridge_arrays().unpacked(_packed(a, name))
    native = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("="))
    # A ctypes array over the memory, not the numpy array, goes to JPype: JPype would keep what it
    # is given alive until the JVM collects the buffer; _keep bounds the lifetime by bytes instead.
    raw = (ctypes.c_char * native.nbytes).from_address(native.ctypes.data)
    buffer = _backend().direct_buffer(raw)
    lease = _jclass("org.jhooks.ndarray.ViewLease")()
    _keep(a if native.base is a else native, lease)  # the caller's array, or numpy's own copy
    return _bridge_arrays().view(buffer, name, _shape(a.shape), lease)


def _strings_to_java(a: np.ndarray) -> Any:
    items = []
    for v in a.reshape(-1).tolist():
        if isinstance(v, bytes):
            items.append(v)
        elif isinstance(v, str):
            items.append(v.encode("utf-8"))
        else:
            raise TypeError(f"a string array holds a {type(v).__name__} ({v!r}); only bytes and str cross to Java")
    return _bridge_arrays().fromStrings(_backend().byte_arrays(items), _shape(a.shape))


def dtype_of(array: Any) -> str:
    """The numpy dtype name of a Java NdArray (``"string"`` for String/byte[] arrays)."""
    return str(_bridge_arrays().dtype(array))


# Values of at most this many bytes cross packed in one byte[] with their dtype and shape
# (org.jhooks.bridge.NumpyArrays.packed/unpacked): one call instead of one each for dtype, shape and the
# values; a small value handed to a Java hook is then a read-only copy, not a view.
PACKED_MAX_BYTES = 1024


_headers: dict = {}  # (dtype name, shape) -> the header of org.jhooks.bridge.NumpyArrays.packed's layout


_names: dict[np.dtype, str] = {}


def _native_names() -> dict[np.dtype, str]:
    """Native-byte-order dtypes of DTYPES (bfloat16 aside) -> their names, for the small path."""
    if not _names:
        _names.update({np.dtype(n).newbyteorder("="): n for n in DTYPES if n != "bfloat16"})
    return _names


def _header(name: str, shape: tuple) -> bytes:
    """The header of ``org.jhooks.bridge.NumpyArrays.packed``'s layout for ``name`` and ``shape``."""
    key = (name, shape)
    header = _headers.get(key)
    if header is None:
        if len(_headers) >= 256:
            _headers.clear()
        encoded = name.encode("ascii")
        fields = bytes([len(encoded)]) + encoded + bytes([len(shape)]) + struct.pack(f"<{len(shape)}q", *shape)
        size = (1 + len(fields) + 7) // 8 * 8
        header = _headers[key] = bytes([size]) + fields + bytes(size - 1 - len(fields))
    return header


def packed_small(a: np.ndarray) -> bytes | None:
    """``a`` in the layout of ``org.jhooks.bridge.NumpyArrays.packed`` when it is small (1 byte to
    PACKED_MAX_BYTES, at most 16 dimensions) with a native-byte-order dtype jhooks moves, else None."""
    name = _native_names().get(a.dtype)
    if name is None or not 0 < a.nbytes <= PACKED_MAX_BYTES or a.ndim > 16:
        return None
    return _header(name, a.shape) + a.tobytes()


def _packed(a: np.ndarray, name: str) -> bytes:
    """``a`` (at most PACKED_MAX_BYTES) in the layout of ``org.jhooks.bridge.NumpyArrays.packed``."""
    return _header(name, a.shape) + np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("=")).tobytes()


def _unpacked(packed: bytes) -> np.ndarray:
    """The read-only array ``org.jhooks.bridge.NumpyArrays.packed`` packed into ``packed``."""
    n = packed[1]
    name = packed[2 : 2 + n].decode("ascii")
    rank = packed[2 + n]
    shape = struct.unpack_from(f"<{rank}q", packed, 3 + n)
    if name == "bfloat16":
        import ml_dtypes  # noqa: F401 - registers numpy's "bfloat16"
    return np.frombuffer(packed, dtype=np.dtype(name), offset=packed[0]).reshape(shape)


def from_packed(packed: bytes) -> np.ndarray:
    """The read-only array ``org.jhooks.bridge.NumpyArrays.packed`` packed into ``packed`` (the JVM
    driver sends a Python hook's one small result so: no call back into Java)."""
    return _unpacked(packed)


def to_numpy(array: Any) -> np.ndarray:
    """A new, writable numpy array holding a copy of the Java NdArray ``array``.

    Strings become an object array of ``bytes``. Raises TypeError when ``array`` is not an NdArray.
    """
    if not is_ndarray(array):
        raise TypeError(f"expected an org.tensorflow.ndarray.NdArray, got {type(array).__name__} {array!r}")
    packed = _bridge_arrays().packed(array, PACKED_MAX_BYTES)
    if packed is not None:
        return _unpacked(_backend().to_bytes(packed)).copy()  # owns its (aligned) memory, writable
    dtype = dtype_of(array)
    shape = tuple(int(d) for d in _bridge_arrays().shape(array))
    if dtype == "string":
        values = _bridge_arrays().toStrings(array)
        out = np.empty(len(values), dtype=object)
        out[:] = [_backend().to_bytes(v) for v in values]
        return out.reshape(shape)
    if dtype == "bfloat16":
        import ml_dtypes  # noqa: F401 - registers numpy's "bfloat16"
    out = np.empty(shape, dtype=np.dtype(dtype))
    if out.size:
        _backend().fill(out, lambda buffer: _bridge_arrays().copyToBuffer(array, buffer))
    return out


def view_to_numpy(array: Any) -> np.ndarray:
    """A read-only numpy array with the values of the Java NdArray ``array``: a view of its memory
    when the JVM driver held it in direct memory (large float32/float64/int32/int64 values,
    ``org.jhooks.ndarray.DirectValues``), else a copy (:func:`to_numpy`) marked read-only, so a
    hook sees one kind of value whatever its size. The view keeps the Java memory alive as long as
    it (or anything made from it) is referenced, so a hook may keep it; ``copy()`` gives a writable
    array. Same dtype, shape and values as :func:`to_numpy`."""
    if not is_ndarray(array):
        raise TypeError(f"expected an org.tensorflow.ndarray.NdArray, got {type(array).__name__} {array!r}")
    packed = _bridge_arrays().packed(array, PACKED_MAX_BYTES)
    if packed is not None:  # small: one call for dtype, shape and values; bytes make it read-only
        return _unpacked(_backend().to_bytes(packed))
    direct = _bridge_arrays().directBytes(array)
    if direct is None:
        out = to_numpy(array)
        out.flags.writeable = False
        return out
    dtype = np.dtype(dtype_of(array))
    shape = tuple(int(d) for d in _bridge_arrays().shape(array))
    out = np.frombuffer(memoryview(direct), dtype=dtype).reshape(shape)
    out.flags.writeable = False
    return out
