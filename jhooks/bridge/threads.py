"""Python callbacks running on Java threads, and a bounded process exit.

Java may call Python hooks and listeners from any thread; each call takes the GIL (JPype), and
Python releases the GIL while it waits inside a Java call, so neither side deadlocks the other.

At exit JPype destroys the JVM, which waits for every non-daemon Java thread; one stuck in a slow
Python callback would hold the process forever. :func:`install_exit_guard` registers an
``atexit`` handler (it runs before JPype's) that waits up to ``JHOOKS_EXIT_GRACE_SECS`` (default
10) seconds for callbacks in flight, then logs which are still running and tells JPype not to
wait for the JVM, so the process ends. See docs/bridge.md, "Threads".
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import time
from typing import Dict, Iterator, Optional

log = logging.getLogger(__name__)

GRACE_ENV = "JHOOKS_EXIT_GRACE_SECS"
DEFAULT_GRACE_SECS = 10.0

_in_flight: Dict[int, str] = {}  # thread id -> callback name
_guard_lock = threading.Lock()
_guard_installed = False


def enter(name: str) -> Optional[str]:
    """Marks a Python callback called from Java as in flight on this thread; returns what
    :func:`leave` needs. A plain dict write: each step is atomic under the GIL, so no lock is held
    on the hot path (the exit guard polls)."""
    tid = threading.get_ident()
    outer = _in_flight.get(tid)
    _in_flight[tid] = name
    return outer


def leave(outer: Optional[str]) -> None:
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


def in_flight() -> Dict[int, str]:
    """The callbacks running now, by thread id."""
    return dict(_in_flight)


def wait_for_callbacks(timeout: float, poll: float = 0.01) -> Dict[int, str]:
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


def _on_exit() -> None:
    stuck = wait_for_callbacks(_grace())
    if stuck:
        import jpype.config

        log.warning("exiting with Python callbacks still running on Java threads after %.1f s: %s; "
                    "the JVM is not destroyed so the process can end", _grace(), sorted(stuck.values()))
        jpype.config.destroy_jvm = False


def install_exit_guard() -> None:
    """Registers the bounded-exit handler once; call after the JVM started (atexit runs LIFO)."""
    global _guard_installed
    with _guard_lock:
        if _guard_installed:
            return
        _guard_installed = True
    atexit.register(_on_exit)
