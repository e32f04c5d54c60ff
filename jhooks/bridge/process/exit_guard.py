"""A bounded process exit while Java threads may be inside Python.

At exit JPype destroys the JVM, which waits for every non-daemon Java thread; one stuck in a slow
Python callback would hold the process forever. :func:`install_exit_guard` registers an
``atexit`` handler (it runs before JPype's) that waits up to ``JHOOKS_EXIT_GRACE_SECS`` (default
10) seconds for callbacks in flight, then logs which are still running and ends the process
with the status the program asked for, without destroying the JVM. See docs/bridge.md, "Threads".
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import time
from typing import NoReturn

from jhooks.bridge.process import signals
from jhooks.bridge.process.callbacks import live_callers, wait_for_callbacks
from jhooks.bridge.process.ending import end_process, record_exit
from jhooks.bridge.process.state import PROCESS

log = logging.getLogger(__name__)

GRACE_ENV = "JHOOKS_EXIT_GRACE_SECS"
DEFAULT_GRACE_SECS = 10.0


def _grace() -> float:
    try:
        return float(os.environ.get(GRACE_ENV, DEFAULT_GRACE_SECS))
    except ValueError:
        log.warning("%s=%r is not a number; using %s", GRACE_ENV, os.environ[GRACE_ENV], DEFAULT_GRACE_SECS)
        return DEFAULT_GRACE_SECS


def _on_exit() -> None:
    state = PROCESS.exit
    if state.exiting:
        return
    state.exiting = True
    grace = _grace()
    deadline = signals.deadline()
    if deadline is not None:  # a signalled exit: its bound counts from the signal
        grace = max(0.0, min(grace, deadline - time.monotonic() - 0.5))
    PROCESS.callbacks.closing = True  # no new callbacks: those in flight can finish, busy threads cannot start more
    stuck = wait_for_callbacks(grace)
    live = live_callers()
    signalled = signals.signalled_status()
    if signalled is not None and state.status == 0:  # it ended while its signal was held
        end_process(signalled)
    if not stuck and not live:
        PROCESS.callbacks.closing = False
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
    end_process(state.status)


def install_exit_guard() -> None:
    """Registers the bounded-exit handler once; call after the JVM started (atexit runs LIFO).

    It also records the exit status the process would have (``sys.exit(code)``; 1 after an uncaught
    exception), which the guard passes to ``os._exit`` when callbacks are still running.
    """
    state = PROCESS.exit
    with state.lock:
        if state.guard_installed:
            return
        state.guard_installed = True
    exit_, excepthook = sys.exit, sys.excepthook

    def exit_recording(code: str | int | None = None) -> NoReturn:
        record_exit(code)
        exit_(code)

    def excepthook_recording(kind, value, tb) -> None:
        if isinstance(value, SystemExit):
            record_exit(value.code)
        else:
            record_exit(130 if isinstance(value, KeyboardInterrupt) else 1)
        excepthook(kind, value, tb)

    sys.exit, sys.excepthook = exit_recording, excepthook_recording
    atexit.register(_on_exit)
