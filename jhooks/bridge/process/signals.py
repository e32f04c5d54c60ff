"""SIGTERM and SIGINT in a process running Python and a JVM: a bounded exit with the conventional
status, every open session's hooks' ``end()`` run first, and no crash (docs/bridge.md, "Threads").

The JVM's signal handlers (JPype's, installed by ``jhooks.bridge.process.jvm.start``) receive both
signals: they interrupt the main thread's Java call and raise the signal in Python.
:func:`install_handlers` (before the JVM starts) gives Python handlers where the program has none of
its own: SIGTERM ends the program with ``SystemExit(143)``, SIGINT with ``KeyboardInterrupt`` (exit
status 130). First, as the JVM's own exit does (``org.jhooks.tf.SessionExit``), the handler asks
every open session to stop after its run in progress: Python's sessions with jhooks hooks
(:mod:`jhooks.api.session_exit`) and the JVM's; the signal is held until none is driven any more
(the loop saw ``should_stop()``/``shouldStop()`` and the session's close ran every hook's
``end()``: TensorFlow's MonitoredSession skips ``end()`` after an exception), at most half of the
exit's time (``JHOOKS_SIGNAL_EXIT_SECS``); later signals meanwhile change nothing. The exception
is raised in the program's own code, never inside a hook callback that Java is running on the main
thread (raising there would tear the hook's cleanup, e.g. a checkpoint writer's lock): the signal is
then delivered again once that callback returns, so it reaches the program when Java hands control
back. A callback whose errors Java does not pass on (the console's log sink,
:func:`deliver_outside`) never gets it, not even at its first or last line: a thread delivers it
once the main thread has left that callback. The exit guard (:mod:`jhooks.bridge.process.exit_guard`)
bounds its wait for callbacks in flight by the signal's deadline, and the watchdog
(:mod:`jhooks.bridge.process.watchdog`) ends a process that did not end by then. A program with its
own handler for a signal keeps it, and that signal has no watchdog.
"""

from __future__ import annotations

import _thread
import logging
import os
import signal
import sys
import threading
import time
import types
from typing import Any

from jhooks.api import session_exit
from jhooks.bridge.backend.choice import current as _backend
from jhooks.bridge.process.ending import record_exit
from jhooks.bridge.process.state import PROCESS

log = logging.getLogger(__name__)

SIGNAL_EXIT_ENV = "JHOOKS_SIGNAL_EXIT_SECS"
DEFAULT_SIGNAL_EXIT_SECS = 8.0

_state = PROCESS.signals


def exit_seconds() -> float:
    """How long after a signal the process may take to end (``JHOOKS_SIGNAL_EXIT_SECS``, default 8)."""
    try:
        return float(os.environ.get(SIGNAL_EXIT_ENV, DEFAULT_SIGNAL_EXIT_SECS))
    except ValueError:
        log.warning(
            "%s=%r is not a number; using %s", SIGNAL_EXIT_ENV, os.environ[SIGNAL_EXIT_ENV], DEFAULT_SIGNAL_EXIT_SECS
        )
        return DEFAULT_SIGNAL_EXIT_SECS


def deadline() -> float | None:
    """The monotonic time by which a signalled process must have ended; None without a signal."""
    at = _state.signalled_at
    return None if at is None else at + exit_seconds()


def received(signum: int) -> None:
    """Records the first handled signal (``signum``) and when it arrived; later ones change nothing."""
    if _state.signalled_at is None:
        _state.signalled_at = time.monotonic()
        _state.signum = signum


def deliver_outside(code: types.CodeType) -> None:
    """Makes a signal that arrives while the main thread runs ``code`` (a function Java calls whose
    errors Java does not pass on, e.g. the console's log sink) wait until the main thread has left
    it, and then reach the code it returned to: the program, or the next callback."""
    _state.outside.add(code)


def _inside(frame: types.FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code in _state.outside:
            return True
        frame = frame.f_back
    return False


def _deliver_when_outside() -> None:
    main = threading.main_thread().ident
    assert main is not None  # the main thread has started
    while _inside(sys._current_frames().get(main)):
        time.sleep(0.001)
    _state.waiting = False
    redeliver()


def _jvm_sessions() -> Any:
    """``org.jhooks.tf.SessionExit`` once :func:`arm_session_stop` loaded it, else None (no JVM: a
    class loaded in the handler could fail on the main thread's interrupt)."""
    return None if _state.java is None else _state.java[0]


def _driven() -> bool:
    jvm = _jvm_sessions()
    return session_exit.driven() or (jvm is not None and bool(jvm.driven()))


def _stop_sessions() -> bool:
    """Asks every open session, Python's and the JVM's, to stop after its run in progress; returns
    whether one is still driven. On the main thread, whose Java call JPype's handler interrupted,
    the interrupt is cleared: the run in progress is to finish, not fail."""
    driven = session_exit.request_stop()
    jvm = _jvm_sessions()
    if jvm is not None:
        driven = bool(jvm.requestStop()) or driven
        if threading.current_thread() is threading.main_thread():
            _state.java[1].interrupted()
    return driven


class _PythonSessionsDriven:
    """The ``BooleanSupplier`` of ``org.jhooks.bridge.SessionStopSignals``, asked on the JVM's
    signal thread: whether a Python session with jhooks hooks is driven."""

    def getAsBoolean(self) -> bool:
        return session_exit.driven()


def arm_session_stop() -> None:
    """Loads what the handler calls in Java and puts ``org.jhooks.bridge.SessionStopSignals`` in
    front of JPype's handlers for the signals jhooks handles; call once the JVM runs."""
    handled = _state.handled
    if not handled:
        return
    backend = _backend()
    driven = backend.proxy("java.util.function.BooleanSupplier", _PythonSessionsDriven())
    _state.java = (backend.jclass("org.jhooks.tf.SessionExit"), backend.jclass("java.lang.Thread"), driven)
    backend.jclass("org.jhooks.bridge.SessionStopSignals").install(
        signal.SIGTERM in handled, signal.SIGINT in handled, driven
    )


def _deliver_when_stopped() -> None:
    """Holds the signal until no session is driven, at most half the exit's time (a loop that never
    reads ``should_stop()``), then delivers it to the main thread."""
    at = _state.signalled_at
    until = (time.monotonic() if at is None else at) + exit_seconds() / 2
    try:
        while time.monotonic() < until and _driven():
            time.sleep(0.005)
    finally:
        _state.stopping = False
        _state.deferred = True
        redeliver()


def _on_signal(signum: int, frame: types.FrameType | None) -> None:
    received(signum)
    if _state.stopping is None:  # the first signal: the sessions first run their hooks' end()
        try:
            _state.stopping = _stop_sessions()
        except Exception:  # the JVM is ending: nothing to wait for, the signal is delivered now
            log.warning("could not ask the open sessions to stop before signal %d's exit", signum, exc_info=True)
            _state.stopping = False
        if _state.stopping:
            threading.Thread(target=_deliver_when_stopped, name="jhooks-signal-stop", daemon=True).start()
    if _state.stopping:  # held: _deliver_when_stopped delivers it
        return
    if _inside(frame):  # deliver_outside: a thread delivers it later (a signal lands on the main thread only)
        _state.deferred = True
        if not _state.waiting:
            _state.waiting = True
            threading.Thread(target=_deliver_when_outside, name="jhooks-signal-delivery", daemon=True).start()
        return
    if threading.get_ident() in PROCESS.callbacks.in_flight:  # inside a callback Java runs: not here (module doc)
        _state.deferred = True
        return
    ending = exit_exception()
    assert ending is not None  # _received set the signal
    raise ending


def redeliver() -> None:
    """Delivers a deferred signal again; called when the outermost Java-run callback on the main
    thread returns, so the program gets it once Java hands control back."""
    if _state.deferred and _state.signum is not None:
        _state.deferred = False
        _thread.interrupt_main(signal.Signals(_state.signum))


def exit_exception() -> BaseException | None:
    """What the first handled signal raises in Python: ``KeyboardInterrupt`` for SIGINT,
    ``SystemExit(143)`` for SIGTERM (its status recorded for the exit guard); None before one."""
    signum = _state.signum
    if signum is None:
        return None
    if signum == signal.SIGINT:
        return KeyboardInterrupt()
    record_exit(128 + signum)
    return SystemExit(128 + signum)


def signalled_status() -> int | None:
    """``128 + signal`` after a signal jhooks handles, else None. A program that ends with status 0
    after one ends with this instead (the exit guard): it ended by itself while the signal was held
    for its sessions' ``end()``, and the signal's exception, delivered too late, was ignored."""
    if _state.signum is None or _state.signum not in _state.handled:
        return None
    return 128 + _state.signum


def install_handlers() -> None:
    """Handles SIGTERM (``SystemExit(143)``) and SIGINT (``KeyboardInterrupt``) where the program
    left Python's defaults; call on the main thread before the JVM starts. Elsewhere it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_signal)
        _state.handled.add(signal.SIGTERM)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_signal)
        _state.handled.add(signal.SIGINT)
