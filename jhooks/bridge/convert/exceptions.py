"""Exceptions crossing the bridge keep their type name, message, remote stack and cause.

Python -> Java (a Python hook, listener or session view called by Java): :func:`to_java` turns
the exception into ``org.jhooks.bridge.PythonException`` whose message is ``"<type>: <message>"``,
whose stack trace holds the Python frames, whose ``pythonTraceback()`` is Python's traceback text
and whose cause is the converted ``__cause__``/``__context__``. A Java exception that passed
through Python is handed back unchanged. Without this JPype hands Java a bare
``org.jpype.PyExceptionProxy`` with no message.

Java -> Python (a Java hook or session called by Python): JPype raises the Java exception as a
Python exception of the Java class (``str()`` is ``"<class>: <message>"``, catchable as the
Java class); :func:`to_python` gives what Python should raise instead: the full Java stack trace
with every ``Caused by:`` as a note that tracebacks print, and when the Java exception is a
``PythonException`` that started in this process the original Python exception object again, so a
TensorFlow ``OutOfRangeError`` raised in a Python session run that a Java hook made is still one.
What a signal or ``sys.exit`` in the cause chain makes of it is the process's business
(:func:`process_ending` here, ``jhooks.bridge.process.calls.from_java`` there).

jhooks' own errors become their twins in the other language both ways (``HookError`` /
``HookException``, ``NanLossDuringTrainingError`` / ``...Exception``, ...;
:mod:`jhooks.bridge.convert.error_twins`), the other language's original kept as the cause.

Java's standard exceptions and Python's built-in ones are each other's too
(:mod:`jhooks.bridge.convert.standard_errors`): a Java ``IllegalArgumentException`` is also a
``ValueError`` in Python, a Python hook's ``ValueError`` an ``IllegalArgumentException`` (caused by
its carrier) in Java.

Both backends behave so; on jep a Java exception in Python is a
:class:`jhooks.bridge.backend.jep_backend.JavaException` instead of JPype's exception of the Java
class, and a callback's exception reaches Java through jep's ``JepException``, which
``EmbeddedPython`` unwraps. See docs/bridge.md, "Exceptions" and "Backends".
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import traceback
from collections import OrderedDict
from typing import Any, cast

from jhooks.bridge.backend.choice import current as _backend
from jhooks.bridge.convert import error_twins, standard_errors

# Originals of exceptions sent to Java, by token; bounded so a long run cannot leak.
_ORIGINALS_MAX = 1024
_originals: OrderedDict[int, BaseException] = OrderedDict()
_originals_lock = threading.Lock()
_tokens = itertools.count(1)


def is_java_exception(exc: BaseException) -> bool:
    """Whether ``exc`` is a Java Throwable raised through the bridge's backend (jhooks.bridge.backend)."""
    return _backend().java_error(exc) is not None


def type_name(exc: BaseException) -> str:
    """``module.QualName`` of a Python exception, the Java class name of a Java one."""
    java = _backend().java_error(exc)
    if java is not None:
        return _backend().class_names(java)[0]
    cls = type(exc)
    return f"{cls.__module__}.{cls.__qualname__}"


def java_stack_trace(exc: Any) -> str:
    """The Java ``printStackTrace`` text of a Java exception, with its ``Caused by:`` chain."""
    backend = _backend()
    writer = backend.jclass("java.io.StringWriter")()
    backend.unwrap(exc).printStackTrace(backend.jclass("java.io.PrintWriter")(writer, True))
    return str(writer.toString())


def _remember(exc: BaseException) -> int:
    token = next(_tokens)
    with _originals_lock:
        _originals[token] = exc
        while len(_originals) > _ORIGINALS_MAX:
            _originals.popitem(last=False)
    return token


def _original(token: int) -> BaseException | None:
    with _originals_lock:
        return _originals.get(token)


def to_java(exc: BaseException, _seen: set | None = None) -> Any:
    """The Java Throwable for ``exc``: a Java exception as is; for a jhooks error its Java twin
    (``org.jhooks.HookException`` for ``jhooks.HookError``, ...; :mod:`jhooks.bridge.convert.error_twins`)
    caused by the PythonException carrying it; else a new PythonException."""
    backend = _backend()
    java = backend.java_error(exc)
    if java is not None:
        return backend.unwrap(java)
    seen = _seen if _seen is not None else set()
    seen.add(id(exc))
    nxt = exc.__cause__ if exc.__cause__ is not None else (None if exc.__suppress_context__ else exc.__context__)
    cause = to_java(nxt, seen) if nxt is not None and id(nxt) not in seen else None
    frames = traceback.extract_tb(exc.__traceback__)
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, chain=False))
    modules = [_module_of(f.filename) for f in frames]
    carrier = backend.jclass("org.jhooks.bridge.PythonException")(
        type_name(exc),
        _message(exc),
        text,
        backend.array("java.lang.String", [f.filename for f in frames]),
        backend.array("int", [f.lineno or 0 for f in frames]),
        backend.array("java.lang.String", [f.name for f in frames]),
        backend.array("java.lang.String", modules),
        backend.jlong(_remember(exc)),
        cause,
    )
    twin = error_twins.to_java(exc, carrier)
    if twin is None:
        twin = standard_errors.to_java(exc, carrier)
    return carrier if twin is None else twin


def _message(exc: BaseException) -> str:
    """``str(exc)``; when that raises, the placeholder Python's traceback prints, so the exception
    still reaches Java as a PythonException with its type and stack."""
    try:
        return str(exc)
    except Exception:
        return "<exception str() failed>"


def _module_of(filename: str) -> str:
    path = os.path.abspath(filename)
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if file and os.path.abspath(file) == path:
            return module.__name__
    return os.path.splitext(os.path.basename(filename))[0]


# org.jhooks.tf.ErrorCodes codes that TensorFlow's Python MonitoredSession acts on, by class name.
_TF_CODES = {"ABORTED": "AbortedError", "UNAVAILABLE": "UnavailableError", "OUT_OF_RANGE": "OutOfRangeError"}


def _tensorflow_error(exc: Any) -> BaseException | None:
    """For a Java exception with code ABORTED, UNAVAILABLE or OUT_OF_RANGE (org.jhooks.tf.ErrorCodes,
    e.g. a TensorFlowException whose message starts ``ABORTED:``): the matching ``tf.errors`` error
    caused by ``exc``, so TensorFlow's MonitoredSession recovers or ends the input as for its own
    errors (docs/contract.md, "Recovery"). None when TensorFlow is not imported or for other codes."""
    tf = sys.modules.get("tensorflow")
    if tf is None:
        return None
    code = _backend().jclass("org.jhooks.tf.ErrorCodes").codeOf(_backend().unwrap(exc))
    name = None if code is None else _TF_CODES.get(str(code.name()))
    if name is None:
        return None
    error = getattr(tf.errors, name)(None, None, str(exc.getMessage()))
    error.__cause__ = exc
    return error


def carried(exc: Any) -> BaseException | None:
    """The original Python exception a PythonException from this process carries, or that a
    standard Java exception made of a built-in Python one carries through its cause
    (:func:`jhooks.bridge.convert.standard_errors.to_java`); else None."""
    backend = _backend()
    if backend.is_instance(exc, "org.jhooks.bridge.PythonException"):
        return _original(int(backend.unwrap(exc).token()))
    cause = backend.unwrap(exc).getCause()
    if cause is None or not backend.is_instance(cause, "org.jhooks.bridge.PythonException"):
        return None
    original = _original(int(backend.unwrap(cause).token()))
    if original is None or standard_errors.java_class_for(original) != backend.class_names(exc)[0]:
        return None
    return original


def process_ending(exc: Any) -> tuple[BaseException | None, bool]:
    """What in ``exc``'s cause chain ends the process: ``(ending, interrupted)``, ``ending`` a
    ``SystemExit``/``KeyboardInterrupt`` a PythonException in the chain carries (a hook's
    ``sys.exit(n)``, wrapped by Java code), else None; ``interrupted`` whether the chain holds a
    ``java.lang.InterruptedException`` (how a signal interrupts Java)."""
    interrupted = False
    seen = 0
    c = _backend().unwrap(exc)
    while c is not None and seen < 32:
        original = carried(c)
        if isinstance(original, (SystemExit, KeyboardInterrupt)):
            return original, interrupted
        interrupted = interrupted or _backend().class_names(c)[0] == "java.lang.InterruptedException"
        nxt = c.getCause()
        c = None if nxt is None or nxt.equals(c) else nxt
        seen += 1
    return None, interrupted


def to_python(exc: BaseException, note: bool = True) -> BaseException:
    """What Python should raise for a Java exception, the process's endings aside
    (:func:`process_ending`): the original Python exception of a PythonException from this
    process; for a jhooks exception its Python twin (:mod:`jhooks.bridge.convert.error_twins`: the
    original again when it was one, else a new twin caused by ``exc``); a ``tf.errors``
    AbortedError/UnavailableError/OutOfRangeError (caused by ``exc``) for a Java exception with
    that code; else ``exc``. Each gets the Java stack trace as a note (``note=False``: not yet, for
    an error still in flight on the JVM, e.g. handed to ``onError``, whose note should show what
    Java attaches later)."""
    target = exc
    original = carried(exc)
    if original is not None:
        target = original  # its note shows where it crossed Java (and what Java added, e.g. suppressed)
    elif not _backend().is_instance(exc, "org.jhooks.bridge.PythonException"):
        target = error_twins.to_python(exc, carried) or _tensorflow_error(exc) or exc
    if note and not any(n.startswith("Java stack trace") for n in getattr(target, "__notes__", ())):
        text = "Java stack trace (" + type_name(exc) + "):\n" + java_stack_trace(exc).rstrip()
        if hasattr(target, "add_note"):
            target.add_note(text)
        else:  # Python 3.10: kept on the object for callers, not printed
            cast(Any, target).__notes__ = list(getattr(target, "__notes__", ())) + [text]
    return target
