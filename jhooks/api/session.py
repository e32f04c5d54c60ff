"""The language-neutral `Session` view hooks talk to, and the `Coordinator` (twins of the Java ones)."""

from __future__ import annotations

import threading
from typing import Any, Mapping, Optional, Protocol, runtime_checkable

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
    """

    def run(self, fetches: Any, feeds: Optional[Mapping[str, Any]] = None,
            options: Optional[RunOptions] = None) -> Any: ...

    def save(self, prefix: str) -> None: ...

    def restore(self, prefix: str) -> None: ...

    def globalStepTensorName(self) -> str: ...


def read_global_step(session: Session) -> int:
    """The current int64 global step, read with a raw run."""
    return int(session.run(session.globalStepTensorName()))


class Coordinator:
    """The stop flag shared by a monitored session and its hooks. Thread-safe."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._error: Optional[BaseException] = None
        self._lock = threading.Lock()

    def requestStop(self, cause: Optional[BaseException] = None) -> None:
        """Asks to stop after the current step; the first ``cause`` given is kept."""
        with self._lock:
            if cause is not None and self._error is None:
                self._error = cause
        self._stop.set()

    def shouldStop(self) -> bool:
        return self._stop.is_set()

    def error(self) -> Optional[BaseException]:
        return self._error

    def clearStop(self) -> None:
        with self._lock:
            self._error = None
        self._stop.clear()
