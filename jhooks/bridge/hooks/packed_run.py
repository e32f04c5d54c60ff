"""The packed per-run protocol of the hook groups that cross the bridge, Python side: the layout
``org.jhooks.bridge.PackedRun`` defines (its constants are read from that class when the bridge
loads it, never copied here), read and written for both directions: a Java hook group's results to
Python (:class:`jhooks.bridge.hooks.java_hooks.JavaHookGroup`), a Python hook group's results to Java
and the small results of a JVM run to a Python hook group
(:mod:`jhooks.bridge.hooks.python_hooks`)."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

from jhooks.bridge.convert import arrays


@dataclass(frozen=True, slots=True)
class PackedResult:
    """One per-run call of a hook group, read by :meth:`PackedLayout.read`: ``stops``, the stop flags
    the hooks called set; ``has_args``, hook ``index`` returned new args (else ``index`` is the
    group's size); ``repeated``, bit ``i`` set when hook ``i`` returned its last one-name args again."""

    stops: int
    has_args: bool
    index: int
    repeated: int


_LENGTH = struct.Struct("<i")


@dataclass(frozen=True, slots=True)
class PackedLayout:
    """The layout of a hook group's packed per-run result as ``org.jhooks.bridge.PackedRun`` defines
    it: the stop flags, the index of the hook that returned new args, and the hooks that repeated
    theirs, in one non-negative long; and the run's small results in one ``byte[]``."""

    stops: int
    has_args: int
    index_shift: int
    index_mask: int
    repeated_shift: int
    max_repeated: int
    no_results: int

    @classmethod
    def of(cls, packed_run: Any) -> PackedLayout:
        """The layout the Java class ``PackedRun`` defines."""
        return cls(
            stops=int(packed_run.CONTEXT_STOP) | int(packed_run.COORDINATOR_STOP),
            has_args=int(packed_run.HAS_ARGS),
            index_shift=int(packed_run.INDEX_SHIFT),
            index_mask=int(packed_run.INDEX_MASK),
            repeated_shift=int(packed_run.REPEATED_SHIFT),
            max_repeated=int(packed_run.MAX_REPEATED),
            no_results=int(packed_run.NO_RESULTS),
        )

    def read(self, result: Any) -> PackedResult:
        """The fields of ``result`` (a ``PackedRun`` long)."""
        result = int(result)
        return PackedResult(
            stops=result & self.stops,
            has_args=bool(result & self.has_args),
            index=(result >> self.index_shift) & self.index_mask,
            repeated=result >> self.repeated_shift,
        )

    def values(self, packed: bytes, count: int) -> list[np.ndarray | None]:
        """The ``count`` results of ``PackedRun.values``' layout in ``packed``, each a read-only
        array as :func:`jhooks.bridge.convert.arrays.from_packed` reads it, None for a hook without
        results; hooks whose results are the same bytes (one tensor several hooks fetched) share
        one array, as TensorFlow's own driver hands one fetched array to each of them."""
        out: list[np.ndarray | None] = []
        seen: dict[bytes, np.ndarray] = {}
        at = 0
        for _ in range(count):
            (length,) = _LENGTH.unpack_from(packed, at)
            at += 4
            if length == self.no_results:
                out.append(None)
                continue
            chunk = packed[at : at + length]
            at += length
            array = seen.get(chunk)
            if array is None:
                array = seen[chunk] = read_array(chunk)
            out.append(array)
        return out


# dtype and shape by packed header (NumpyArrays.packed's first bytes): most runs repeat a few
_HEADERS_MAX = 256
_headers: dict[bytes, tuple[np.dtype, tuple[int, ...]]] = {}


def read_array(chunk: bytes) -> np.ndarray:
    """The read-only array of one packed result (``arrays.from_packed``), its header parsed once."""
    size = chunk[0]
    header = chunk[:size]
    known = _headers.get(header)
    if known is None:
        array = arrays.from_packed(chunk)
        if len(_headers) >= _HEADERS_MAX:
            _headers.clear()
        _headers[header] = (array.dtype, array.shape)
        return array
    return np.ndarray(known[1], known[0], buffer=chunk, offset=size)
