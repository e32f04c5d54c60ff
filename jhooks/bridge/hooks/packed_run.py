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

    def result(self, index: int, has_args: bool, repeated: int) -> int:
        """A ``PackedRun`` long: hook ``index`` (or the group's size), whether it has new args, and
        the ``repeated`` mask (hooks below :attr:`max_repeated`); no stop flags."""
        return (self.has_args if has_args else 0) | index << self.index_shift | repeated << self.repeated_shift

    def values(self, packed: bytes, count: int) -> list[np.ndarray | None]:
        """The ``count`` results of ``PackedRun.values``' layout in ``packed``, each a read-only
        array (:func:`jhooks.bridge.convert.arrays.from_packed`), None for a hook without results."""
        out: list[np.ndarray | None] = []
        at = 0
        for _ in range(count):
            (length,) = _LENGTH.unpack_from(packed, at)
            at += 4
            if length == self.no_results:
                out.append(None)
                continue
            out.append(arrays.from_packed(packed[at : at + length]))
            at += length
        return out
