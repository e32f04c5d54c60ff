"""Python callbacks running on Java threads: which are in flight, and which threads called.

Java may call Python hooks and listeners from any thread; each call takes the GIL (JPype), and
Python releases the GIL while it waits inside a Java call, so neither side deadlocks the other.
Each such call is marked in flight (``PROCESS.callbacks``) so that the exit guard
(:mod:`jhooks.bridge.process.exit_guard`) can wait for it and signals (:mod:`.signals`) are not
raised inside it. See docs/bridge.md, "Threads".
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from threading import get_ident
from typing import Any, TypeVar

from jhooks.bridge.process import signals
from jhooks.bridge.process.state import PROCESS

F = TypeVar("F", bound=Callable[..., Any])

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


def crossing(func: F, on_error: Callable[[BaseException], BaseException]) -> F:
    """Wraps ``func``, a method Java calls: each call counts as in flight on its thread (under
    ``func``'s qualified name) for the exit guard, waits for the end once the process is ending,
    and, when it is the thread's outermost, delivers a signal that arrived meanwhile as it returns
    (:func:`jhooks.bridge.process.signals.redeliver`). An exception leaves as ``on_error(e)`` gives
    it (``e`` itself is raised again unchanged). Nothing on the way takes a lock: every crossing
    runs this."""
    name = func.__qualname__
    in_flight = _state.in_flight  # bound once
    marked = _state.marked
    signal_state = PROCESS.signals

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _state.closing:
            wait_for_the_end()
        if not marked.__dict__:  # mark_crossed's test, inlined: the system call once per thread
            mark_crossed()
        tid = get_ident()
        outer = in_flight.get(tid)
        in_flight[tid] = name
        try:
            return func(*args, **kwargs)
        except BaseException as e:  # noqa: B902 - everything must reach Java, nothing swallowed
            converted = on_error(e)
            if converted is e:
                raise
            raise converted from None
        finally:
            if outer is None:
                del in_flight[tid]
                if signal_state.deferred:  # a signal arrived during this callback: deliver it now
                    signals.redeliver()
            else:
                in_flight[tid] = outer

    return wrapper  # type: ignore[return-value]


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
