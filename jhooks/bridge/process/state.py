"""The process's state, in one object: :data:`PROCESS`.

A process has one JVM, one set of signal handlers, one exit guard, one console and one garbage
collector, so this state is process-wide. Every module of :mod:`jhooks.bridge.process` keeps what
it knows here, in the part that module owns (``jvm``: :class:`JvmState`, ``callbacks``:
:class:`CallbackState`, ...), and reads the other parts only through their public fields: no
module reaches into another's globals.
"""

from __future__ import annotations

import threading
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jhooks.bridge.process.errors import TensorFlowRuntimeError, TensorFlowVersionError


@dataclass(slots=True)
class JvmState:
    """The JVM (``jhooks.bridge.process.jvm``): what it can do (``mode``, None before it started)
    and, for a hooks-only JVM, why it has no TensorFlow natives (the error ``start(natives=True)``
    would have raised)."""

    mode: str | None = None
    hooks_only_because: TensorFlowVersionError | TensorFlowRuntimeError | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass(slots=True)
class CallbackState:
    """Python callbacks running on Java threads, and the exit (``jhooks.bridge.process.callbacks``).

    ``in_flight``: thread id -> the callback running on it (a plain dict: each step is atomic under
    the GIL, so the hot path holds no lock); ``crossed``: native ids of the threads that called
    Python from Java; ``marked``: thread-local, set once the thread's native id is in ``crossed``
    (``get_native_id()`` is a system call, too dear for every crossing; thread-local, not keyed by
    ``get_ident()``: a new thread may reuse a dead one's ident, never its storage); ``closing``:
    the process is ending, a new call from Java into Python waits for the end."""

    in_flight: dict[int, str] = field(default_factory=dict)
    crossed: set[int] = field(default_factory=set)
    marked: threading.local = field(default_factory=threading.local)
    closing: bool = False


@dataclass(slots=True)
class ExitState:
    """The process's exit (``jhooks.bridge.process.ending``, ``exit_guard``): the status the program
    asked for (``sys.exit(n)``, 1 after an uncaught exception, 128 + a signal), whether the exit
    guard is installed and whether it runs."""

    status: int = 0
    guard_installed: bool = False
    exiting: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass(slots=True)
class SignalState:
    """SIGTERM/SIGINT (``jhooks.bridge.process.signals``): the signals jhooks handles (the program
    had no handler of its own), the first one received and its monotonic time, and whether it
    arrived inside a Java-run callback on the main thread (``deferred``: delivered after it); the
    code of the callbacks a signal waits outside of (``outside``) and whether a thread waits to
    deliver it once the main thread has left them (``waiting``); whether the signal asked the open
    sessions to stop (``stopping``, None before a signal) and is held until they have ended."""

    handled: set[int] = field(default_factory=set)
    signum: int | None = None
    signalled_at: float | None = None
    deferred: bool = False
    outside: set[types.CodeType] = field(default_factory=set)
    waiting: bool = False
    stopping: bool | None = None
    java: Any = None  # (org.jhooks.tf.SessionExit, java.lang.Thread, the BooleanSupplier), loaded before a signal


@dataclass(slots=True)
class GcState:
    """The garbage-collector link (``jhooks.bridge.process.gc_link``): None before the first freeze,
    else whether TensorFlow was imported at the last one."""

    frozen_with_tensorflow: bool | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass(slots=True)
class ConsoleState:
    """The shared console (``jhooks.bridge.process.console``): whether Java logging goes to Python,
    and ``logging``'s cache-clearing function it wraps to keep Java's levels in step."""

    installed: bool = False
    original_clear_cache: Callable[[], None] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass(slots=True)
class ProcessState:
    """Everything the bridge knows about this process, one part per concern (module docstring)."""

    jvm: JvmState = field(default_factory=JvmState)
    callbacks: CallbackState = field(default_factory=CallbackState)
    exit: ExitState = field(default_factory=ExitState)
    signals: SignalState = field(default_factory=SignalState)
    gc: GcState = field(default_factory=GcState)
    console: ConsoleState = field(default_factory=ConsoleState)


PROCESS = ProcessState()
"""This process's state."""
