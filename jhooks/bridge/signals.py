"""SIGTERM and SIGINT in a process running Python and a JVM: a bounded exit with the conventional
status, and no crash (docs/bridge.md, "Threads").

The JVM's signal handlers (JPype's, installed by ``jvm.start``) receive both signals: they interrupt
the main thread's Java call and raise the signal in Python. :func:`install_handlers` (before the JVM
starts) gives Python handlers where the program has none of its own: SIGTERM ends the program with
``SystemExit(143)``, SIGINT with ``KeyboardInterrupt`` (exit status 130). The exception is raised in
the program's own code, never inside a hook callback that Java is running on the main thread
(raising there would tear the hook's cleanup, e.g. a checkpoint writer's lock): the signal is then
delivered again once that callback returns, so it reaches the program when Java hands control back.
The exit guard (:mod:`jhooks.bridge.threads`) bounds its wait for callbacks in flight by the
signal's deadline.

:func:`arm_watchdog` (after the JVM starts) installs ``org.jhooks.bridge.ExitWatchdog``: at the
first signal it starts a watchdog here that ends the process with ``os._exit(128 + signal)`` if it
is still alive :func:`exit_seconds` later (a main thread stuck in a Java loop that never returns to
Python), and Java halts it a little later still if even that could not run. A program with its own
handler for a signal keeps it, and that signal has no watchdog.
"""

from __future__ import annotations

import _thread
import logging
import os
import signal
import threading
import time

log = logging.getLogger(__name__)

SIGNAL_EXIT_ENV = "JHOOKS_SIGNAL_EXIT_SECS"
DEFAULT_SIGNAL_EXIT_SECS = 8.0

_handled: set[int] = set()  # the signals jhooks handles (the program had no handler of its own)
_signalled_at: float | None = None  # monotonic time of the first handled signal
_signum: int | None = None
deferred = False  # a signal arrived inside a Java-run callback on the main thread: deliver it after


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
    return None if _signalled_at is None else _signalled_at + exit_seconds()


def _received(signum: int) -> None:
    global _signalled_at, _signum
    if _signalled_at is None:
        _signalled_at = time.monotonic()
        _signum = signum


def _on_signal(signum: int, frame: object) -> None:
    global deferred
    _received(signum)
    from jhooks.bridge.threads import _in_flight

    if threading.get_ident() in _in_flight:  # inside a callback Java runs: not here (module doc)
        deferred = True
        return
    ending = exit_exception()
    assert ending is not None  # _received set the signal
    raise ending


def redeliver() -> None:
    """Delivers a deferred signal again; called when the outermost Java-run callback on the main
    thread returns, so the program gets it once Java hands control back."""
    global deferred
    if deferred and _signum is not None:
        deferred = False
        _thread.interrupt_main(signal.Signals(_signum))


def exit_exception() -> BaseException | None:
    """What the first handled signal raises in Python: ``KeyboardInterrupt`` for SIGINT,
    ``SystemExit(143)`` for SIGTERM (its status recorded for the exit guard); None before one."""
    if _signum is None:
        return None
    if _signum == signal.SIGINT:
        return KeyboardInterrupt()
    from jhooks.bridge import threads

    threads._record_exit(128 + _signum)
    return SystemExit(128 + _signum)


def install_handlers() -> None:
    """Handles SIGTERM (``SystemExit(143)``) and SIGINT (``KeyboardInterrupt``) where the program
    left Python's defaults; call on the main thread before the JVM starts. Elsewhere it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_signal)
        _handled.add(signal.SIGTERM)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_signal)
        _handled.add(signal.SIGINT)


class _Watchdog:
    """What ``ExitWatchdog`` calls (on a Java thread) at the first signal: a Python thread that ends
    the process at the deadline."""

    def run(self, signum: int) -> None:
        _received(int(signum))
        status = 128 + int(signum)
        end = time.monotonic() + exit_seconds() if _signalled_at is None else _signalled_at + exit_seconds()

        def watch() -> None:
            time.sleep(max(0.0, end - time.monotonic()))
            log.warning("the process did not end within %.1f s of signal %d; ending it", exit_seconds(), status - 128)
            from jhooks.bridge.threads import end_process

            end_process(status)

        threading.Thread(target=watch, name="jhooks-exit-watchdog", daemon=True).start()


def arm_watchdog() -> None:
    """Installs ``org.jhooks.bridge.ExitWatchdog`` for the signals jhooks handles; call once the
    JVM runs."""
    if not _handled:
        return
    import jpype

    from jhooks.bridge.exceptions import python_errors

    watchdog = _Watchdog()
    proxy = jpype.JProxy("java.util.function.IntConsumer", dict={"accept": python_errors(watchdog.run)})
    jpype.JClass("org.jhooks.bridge.ExitWatchdog").install(
        jpype.JLong(int(exit_seconds() * 1000) + 1500),  # Java's halt: the last resort
        signal.SIGTERM in _handled,
        signal.SIGINT in _handled,
        proxy,
    )
