"""The language-neutral `Session` view hooks talk to, and the `Coordinator` (twins of the Java ones)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from jhooks.api.run_args import RunOptions


@runtime_checkable
class Session(Protocol):
    """A raw session: a run through it never fires hooks.

    ``run(fetches, feeds=None, options=None)`` takes a name or a nest of names and returns numpy
    arrays (None for targets) in the same structure. ``save(prefix)`` writes a TF V2 checkpoint
    (``prefix.index``, ``prefix.data-00000-of-00001``) without touching the ``checkpoint`` state
    file; ``restore(prefix)`` reads one. ``globalStepTensorName()`` is normally ``"global_step:0"``.

    Optional (not part of the protocol check, twin of Java's default method): ``saveableVariables()``
    -> ``{checkpoint key: name of a tensor reading the value}`` for exactly what ``save`` writes;
    the checkpoint saver hooks use it to snapshot variables (docs/standard-hooks.md) and raise
    NotImplementedError naming it when a view lacks it.

    Optional snapshot buffers (twins of Java's default methods): ``takeSnapshot()`` -> the int
    global step of ONE run copying every variable ``save`` writes into buffers the view keeps;
    ``saveSnapshot(prefix)`` writes them as ``save`` would (from another thread, while training
    runs); ``nonFiniteSnapshot()`` -> the float keys of the snapshot holding NaN or infinity.
    AsyncCheckpointSaverHook uses them when present (else it fetches the values); a view without
    them lacks the methods or raises NotImplementedError.

    Optional graph (twins of Java's default methods): ``graphDef()`` -> the session's graph as a
    serialized ``GraphDef`` proto (bytes), and ``metaGraphDef()`` -> a serialized ``MetaGraphDef``
    holding that graph and, when the view has one, the ``SaverDef`` of the saver ``save`` uses. The
    checkpoint saver hooks write them at session creation (``graph.pbtxt`` and the event file, as
    TensorFlow's CheckpointSaverHook); a view without a graph lacks the methods or raises
    NotImplementedError, and the savers then write neither.

    Optional too (twin of Java's default ``Session#checkpointGuard()``): ``checkpointGuard()`` ->
    the :class:`~jhooks.api.checkpoint_guard.CheckpointGuard` every hook of the raw session shares;
    read it with ``CheckpointGuard.of(session)``, which falls back to one guard per view object.
    """

    def run(self, fetches: Any, feeds: Mapping[str, Any] | None = None, options: RunOptions | None = None) -> Any: ...

    def save(self, prefix: str) -> None: ...

    def restore(self, prefix: str) -> None: ...

    def globalStepTensorName(self) -> str: ...

    def globalStep(self) -> int:
        """The current int64 global step, read with a raw run of :meth:`globalStepTensorName` (twin
        of Java's default method ``Session#globalStep()``; views that subclass ``Session``
        inherit it, as jhooks' own views do)."""
        return int(self.run(self.globalStepTensorName()))


class Coordinator:
    """The stop flag shared by a monitored session and its hooks. Thread-safe."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._lock = threading.Lock()

    def requestStop(self, cause: BaseException | None = None) -> None:
        """Asks to stop after the current step; the first ``cause`` given is kept."""
        with self._lock:
            if cause is not None and self._error is None:
                self._error = cause
        self._stop.set()

    def shouldStop(self) -> bool:
        return self._stop.is_set()

    def error(self) -> BaseException | None:
        return self._error

    def clearStop(self) -> None:
        with self._lock:
            self._error = None
        self._stop.clear()
