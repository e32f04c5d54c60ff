"""The two directions of a call across the bridge, with what the process adds to the conversion of
their exceptions (:mod:`jhooks.bridge.convert.exceptions`):

- :func:`call_java` (Python calls Java): a Java exception leaves as :func:`from_java` says, which
  also lets a ``sys.exit(n)`` carried through Java, or the signal that interrupted Java
  (:mod:`jhooks.bridge.process.signals`), end the program as it asked;
- :func:`python_errors` (Java calls Python through a proxy): Python exceptions leave as Java ones,
  and the call counts as in flight for the bounded exit (:mod:`jhooks.bridge.process.callbacks`),
  a signal arriving meanwhile delivered once it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from jhooks.bridge.backend.choice import current as _backend
from jhooks.bridge.convert import exceptions
from jhooks.bridge.process import signals
from jhooks.bridge.process.callbacks import crossing

F = TypeVar("F", bound=Callable[..., Any])


def from_java(exc: BaseException, note: bool = True) -> BaseException:
    """What Python should raise for a Java exception: a ``SystemExit``/``KeyboardInterrupt`` it
    carries anywhere in its cause chain (a hook's ``sys.exit(n)``, wrapped by Java code), else,
    after a SIGTERM/SIGINT, the signal's exception when the chain holds the InterruptedException by
    which the signal interrupted Java: what ends the process is never masked by what Java made of
    it. Otherwise :func:`jhooks.bridge.convert.exceptions.to_python` (``note``: whether the Java
    stack trace is added as a note now)."""
    ending, interrupted = exceptions.process_ending(exc)
    if ending is None and interrupted:
        ending = signals.exit_exception()
    if ending is not None:
        return ending
    return exceptions.to_python(exc, note)


def signal_exit(error: BaseException) -> BaseException:
    """After a SIGTERM/SIGINT jhooks handles, the signal's exception (SystemExit(143) /
    KeyboardInterrupt) caused by ``error``: what the interrupted Java call raised is a consequence of
    the signal, not the program's failure. Without a signal, ``error`` itself."""
    ending = signals.exit_exception()
    if ending is None:
        return error
    ending.__cause__ = error
    return ending


def call_java(func: Callable[..., Any], *args: Any) -> Any:
    """Calls Java from Python: a Java exception leaves as :func:`from_java` says.

    The original Python exception is raised after the ``except`` block, so its own
    ``__cause__``/``__context__`` stay as they were.
    """
    try:
        return func(*args)
    except BaseException as e:
        java = _backend().java_error(e)
        if java is None:
            if not isinstance(e, RuntimeError):
                raise
            # JPype's own failure ("Fatal error occurred") when a signal interrupted Java
            converted = signal_exit(e)
            if converted is e:
                raise
        else:
            converted = from_java(java)
            if converted is e:
                raise
    raise converted


def python_errors(func: F) -> F:
    """Decorates a method Java calls through a proxy: Python exceptions leave as Java ones, and
    the call counts as in flight for the bounded exit (:func:`jhooks.bridge.process.callbacks.crossing`)."""
    return crossing(func, _to_java)


def _to_java(error: BaseException) -> BaseException:
    """What a callback raises for ``error`` so that Java receives it: a Java exception as it is,
    else its conversion (:func:`jhooks.bridge.convert.exceptions.to_java`)."""
    backend = _backend()
    if backend.java_error(error) is not None:
        return error
    return backend.raisable(exceptions.to_java(error))
