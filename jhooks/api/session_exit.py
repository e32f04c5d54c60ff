"""The process's exit while Python sessions with jhooks hooks are open: the Python twin of the
registry in ``org.jhooks.tf.SessionExit``.

A signal that ends a Python program (SIGTERM, SIGINT, with jhooks' handlers where Python hosts the
JVM: ``jhooks.bridge.process.signals``) would raise in the training loop, and TensorFlow's
MonitoredSession skips every hook's ``end()`` after an exception: no final checkpoint, no last log
line. So the handler first asks the open sessions to stop (:func:`request_stop`): each session's
jhooks hooks request a stop at their next run, as a hook's ``runContext.requestStop()`` would, so
``should_stop()`` becomes true, the loop ends and the session's close runs every ``end()``. The
signal is raised once no session is still driven (:func:`driven`), or at a deadline for a loop that
ignores ``should_stop()``.

The sessions registered are those whose jhooks hooks (``jhooks.tf.to_tf_hooks``) have had
``after_create_session``; a session leaves at its hooks' ``end`` (or when its driving thread has
not run it for a while, :func:`driven`). No TensorFlow or JVM here: the adapters register, the
bridge's signal handler asks.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["Entry", "closed", "driven", "opened", "request_stop"]

IDLE_SECONDS = 1.0
"""A session its thread has not run for this long has been left (the same as Java's IDLE_NANOS)."""

_lock = threading.Lock()


class Entry:
    """One open session in the registry, what its adapter updates on every run (attribute writes
    only: this is on the per-run path)."""

    __slots__ = ("thread", "last", "running", "stop", "closed")

    def __init__(self, closed: Callable[[], bool]) -> None:
        self.thread = threading.current_thread()
        self.last = time.monotonic()  # the end of its last run
        self.running = False
        self.stop = False  # the exit asked it to stop (request_stop)
        self.closed = closed

    def started(self) -> None:
        """Its thread starts a run."""
        self.running = True

    def finished(self) -> bool:
        """Its run is over; returns whether the exit asked it to stop (its adapter then requests
        TF's stop)."""
        self.running = False
        self.last = time.monotonic()
        return self.stop


# Weak: a session dropped without its hooks' end() (its run raised) leaves with its adapter.
_open: weakref.WeakKeyDictionary[Any, Entry] = weakref.WeakKeyDictionary()


def opened(key: Any, closed: Callable[[], bool] = lambda: False) -> Entry:
    """Registers the session ``key`` stands for (its hooks' adapter), driven by the calling thread;
    ``closed`` tells whether the session has been closed without its hooks' ``end`` (TensorFlow
    closes it after a run raised). Returns the entry its runs update."""
    entry = Entry(closed)
    with _lock:
        _open[key] = entry
    return entry


def closed(key: Any) -> None:
    """``key``'s session ended (its hooks' ``end``, or ``on_error``); the exit no longer waits for it."""
    with _lock:
        _open.pop(key, None)


def request_stop() -> bool:
    """Asks every open session to stop at the end of its run in progress (sessions opened later are
    not asked); returns whether any is still driven."""
    with _lock:
        for entry in _open.values():
            entry.stop = True
    return driven()


def driven(idle_seconds: float = IDLE_SECONDS) -> bool:
    """Whether an open session is still driven: not closed, its thread alive, and in a run or out
    of one for less than ``idle_seconds``."""
    now = time.monotonic()
    with _lock:
        entries = list(_open.values())
    return any(e.thread.is_alive() and (e.running or now - e.last < idle_seconds) and not e.closed() for e in entries)
