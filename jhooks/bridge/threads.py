"""Python callbacks running on Java threads, and a bounded process exit.

Java may call Python hooks and listeners from any thread; each call takes the GIL (JPype), and
Python releases the GIL while it waits inside a Java call, so neither side deadlocks the other.

At exit JPype destroys the JVM, which waits for every non-daemon Java thread; one stuck in a slow
Python callback would hold the process forever. :func:`install_exit_guard` registers an
``atexit`` handler (it runs before JPype's) that waits up to ``JHOOKS_EXIT_GRACE_SECS`` (default
10) seconds for callbacks in flight, then logs which are still running and ends the process
with the status the program asked for, without destroying the JVM. See docs/bridge.md, "Threads".
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import NoReturn

log = logging.getLogger(__name__)

GRACE_ENV = "JHOOKS_EXIT_GRACE_SECS"
DEFAULT_GRACE_SECS = 10.0

_in_flight: dict[int, str] = {}  # thread id -> callback name
_crossed: set[int] = set()  # native ids of the threads that called Python from Java
# ``_marked.yes`` is set on a thread once its native id is in _crossed: get_native_id() is a system call
# (~0.2 µs), too dear for every crossing. Thread-local, not keyed by get_ident(): a new thread may
# reuse a dead one's ident, never its thread-local storage.
_marked = threading.local()
_guard_lock = threading.Lock()
_guard_installed = False
closing = False  # the process is ending: a new call from Java into Python waits for the end


def wait_for_the_end() -> None:
    """Called instead of a callback once the process is ending (``closing``): never returns. A Java
    thread calling Python then cannot race interpreter shutdown, which would crash the JVM."""
    while True:
        time.sleep(3600)


def mark_crossed() -> None:
    """Records that this thread called Python from Java (its native id in ``_crossed``), once."""
    if not _marked.__dict__:
        _crossed.add(threading.get_native_id())
        _marked.yes = True


def enter(name: str) -> str | None:
    """Marks a Python callback called from Java as in flight on this thread; returns what
    :func:`leave` needs. A plain dict write: each step is atomic under the GIL, so no lock is held
    on the hot path (the exit guard polls)."""
    if closing:
        wait_for_the_end()
    mark_crossed()
    tid = threading.get_ident()
    outer = _in_flight.get(tid)
    _in_flight[tid] = name
    return outer


def leave(outer: str | None) -> None:
    """Ends the callback :func:`enter` marked; ``outer`` is what it returned."""
    tid = threading.get_ident()
    if outer is None:
        _in_flight.pop(tid, None)
    else:
        _in_flight[tid] = outer


@contextlib.contextmanager
def callback(name: str) -> Iterator[None]:
    """Marks a Python callback called from Java as in flight on this thread."""
    outer = enter(name)
    try:
        yield
    finally:
        leave(outer)


def in_flight() -> dict[int, str]:
    """The callbacks running now, by thread id."""
    return dict(_in_flight)


def wait_for_callbacks(timeout: float, poll: float = 0.01) -> dict[int, str]:
    """Waits until no callback other than the calling thread's runs, at most ``timeout`` seconds
    (checking every ``poll`` seconds); returns those still running."""
    me = threading.get_ident()
    deadline = time.monotonic() + timeout
    while True:
        others = {t: n for t, n in dict(_in_flight).items() if t != me}
        remaining = deadline - time.monotonic()
        if not others or remaining <= 0:
            return others
        time.sleep(min(poll, remaining))


def _grace() -> float:
    try:
        return float(os.environ.get(GRACE_ENV, DEFAULT_GRACE_SECS))
    except ValueError:
        log.warning("%s=%r is not a number; using %s", GRACE_ENV, os.environ[GRACE_ENV], DEFAULT_GRACE_SECS)
        return DEFAULT_GRACE_SECS


_exit_status = 0


def _record_exit(code: object = None) -> None:
    global _exit_status
    _exit_status = 0 if code is None else code if isinstance(code, int) else 1


def _live_callers() -> list[int]:
    """Native ids of the threads other than this one that called Python from Java and still run."""
    me = threading.get_native_id()
    return [t for t in list(_crossed) if t != me and os.path.exists(f"/proc/self/task/{t}")]


_exiting = False


def _on_exit() -> None:
    global _exiting, closing
    if _exiting:
        return
    _exiting = True
    from jhooks.bridge import signals

    grace = _grace()
    deadline = signals.deadline()
    if deadline is not None:  # a signalled exit: its bound counts from the signal
        grace = max(0.0, min(grace, deadline - time.monotonic() - 0.5))
    closing = True  # no new callbacks: the ones in flight can finish, busy threads cannot start more
    stuck = wait_for_callbacks(grace)
    live = _live_callers()
    if not stuck and not live:
        closing = False
        return  # nothing of Python runs on a Java thread: interpreter and JVM shut down normally
    if stuck:
        log.warning(
            "exiting with Python callbacks still running on Java threads after %.1f s: %s; "
            "ending the process without destroying the JVM",
            grace,
            sorted(stuck.values()),
        )
    # Finishing interpreter shutdown with Java threads that call Python still running races with
    # them (a thread that takes the GIL after finalization crashes the JVM), so end the process
    # here. atexit handlers registered before this one (before the JVM started) do not run.
    end_process(_exit_status)


def end_process(status: int) -> None:
    """Flushes logging and the standard streams and ends the process with ``os._exit(status)``:
    no interpreter shutdown and no JVM destruction, which Java threads inside Python would race."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def install_exit_guard() -> None:
    """Registers the bounded-exit handler once; call after the JVM started (atexit runs LIFO).

    It also records the exit status the process would have (``sys.exit(code)``; 1 after an uncaught
    exception), which the guard passes to ``os._exit`` when callbacks are still running.
    """
    global _guard_installed
    with _guard_lock:
        if _guard_installed:
            return
        _guard_installed = True
    exit_, excepthook = sys.exit, sys.excepthook

    def exit_recording(code: str | int | None = None) -> NoReturn:
        _record_exit(code)
        exit_(code)

    def excepthook_recording(kind, value, tb) -> None:
        if isinstance(value, SystemExit):
            _record_exit(value.code)
        else:
            _record_exit(130 if isinstance(value, KeyboardInterrupt) else 1)
        excepthook(kind, value, tb)

    sys.exit, sys.excepthook = exit_recording, excepthook_recording
    atexit.register(_on_exit)
