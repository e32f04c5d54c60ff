"""Python callbacks running on Java threads: which are in flight, and which threads called.

Java may call Python hooks and listeners from any thread; each call takes the GIL (JPype), and
Python releases the GIL while it waits inside a Java call, so neither side deadlocks the other.
Each such call is marked in flight (``PROCESS.callbacks``) so that the exit guard
(:mod:`jhooks.bridge.process.exit_guard`) can wait for it and signals (:mod:`.signals`) are not
raised inside it. See docs/bridge.md, "Threads".
"""

from __future__ import annotations

import os
import threading
import time

from jhooks.bridge.process.state import PROCESS

_state = PROCESS.callbacks


def wait_for_the_end() -> None:
    """Called instead of a callback once the process is ending (``closing``): never returns. A Java
    thread calling Python then cannot race interpreter shutdown, which would crash the JVM."""
    while True:
        time.sleep(3600)


def mark_crossed() -> None:
    """Records that this thread called Python from Java (its native id in ``crossed``), once."""
    if not _state.marked.__dict__:
        _state.crossed.add(threading.get_native_id())
        _state.marked.yes = True


def enter(name: str) -> str | None:
    """Marks a Python callback called from Java as in flight on this thread; returns what
    :func:`leave` needs. A plain dict write: each step is atomic under the GIL, so no lock is held
    on the hot path (the exit guard polls)."""
    if _state.closing:
        wait_for_the_end()
    mark_crossed()
    tid = threading.get_ident()
    outer = _state.in_flight.get(tid)
    _state.in_flight[tid] = name
    return outer


def leave(outer: str | None) -> None:
    """Ends the callback :func:`enter` marked; ``outer`` is what it returned."""
    tid = threading.get_ident()
    if outer is None:
        _state.in_flight.pop(tid, None)
    else:
        _state.in_flight[tid] = outer


def wait_for_callbacks(timeout: float, poll: float = 0.01) -> dict[int, str]:
    """Waits until no callback other than the calling thread's runs, at most ``timeout`` seconds
    (checking every ``poll`` seconds); returns those still running, by thread id."""
    me = threading.get_ident()
    deadline = time.monotonic() + timeout
    while True:
        others = {t: n for t, n in dict(_state.in_flight).items() if t != me}
        remaining = deadline - time.monotonic()
        if not others or remaining <= 0:
            return others
        time.sleep(min(poll, remaining))


def live_callers() -> list[int]:
    """Native ids of the threads other than this one that called Python from Java and still run."""
    me = threading.get_native_id()
    return [t for t in list(_state.crossed) if t != me and os.path.exists(f"/proc/self/task/{t}")]
