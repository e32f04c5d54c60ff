"""jhooks' own errors and their twins in the other language: the one table both directions use.

A caller gets jhooks' errors in its own language whatever language the hook is in
(docs/bridge.md, "Exceptions"): a Python ``jhooks.HookError`` crossing into Java becomes an
``org.jhooks.HookException`` whose cause is the ``org.jhooks.bridge.PythonException`` carrying the
Python original (type, message, traceback); a Java ``HookException`` crossing into Python becomes a
``jhooks.HookError`` whose ``__cause__`` is the Java original (its Java stack as a note). A twin
that comes back to the language it started in is the original object again.

Names and places follow one rule: ``<Name>Error`` in ``jhooks.<pkg>`` is ``<Name>Exception`` in
``org.jhooks.<pkg>``, with ``jhooks.api`` for ``org.jhooks`` itself; so the checkpoint package's
``CheckpointSaveError`` / ``CheckpointSaveException`` pair wherever both live. A Java subclass of a
twin (a user's ``HookException``) becomes the nearest twin's Python class.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jhooks.bridge.backend.choice import current


def _problem(error: Any) -> str:
    """The problem part of a HookError's message (``"<hook>.<callback>: <problem>"``)."""
    text = str(error)
    prefix = f"{error.hook}.{error.callback}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


def _name_problem(error: Any) -> str:
    """The problem after the name of a GraphNameError's message."""
    problem = _problem(error)
    quoted = f"{error.name!r} "
    return problem[len(quoted) :] if problem.startswith(quoted) else problem


def _jlong(value: Any) -> Any:
    return current().jlong(int(value))


@dataclass(frozen=True)
class Twin:
    """One pair: ``python`` / ``java`` simple class names; ``fields`` the attributes both carry
    (a Python attribute is the Java accessor method of the same name); ``java_args(error, carrier)``
    the Java constructor's arguments made from the Python error (with ``carrier``, the
    PythonException carrying it, where the constructor takes the cause; else it is set after)."""

    python: str
    java: str
    fields: tuple[str, ...]
    java_args: Callable[[Any, Any], tuple]


TWINS: tuple[Twin, ...] = (
    Twin("HookError", "HookException", ("hook", "callback"), lambda e, c: (e.hook, e.callback, _problem(e), c)),
    Twin(
        "HookFeedConflictError",
        "HookFeedConflictException",
        ("hook", "callback", "tensor", "firstHook"),
        lambda e, c: (e.tensor, e.firstHook, e.hook),
    ),
    Twin(
        "CallerFeedConflictError",
        "CallerFeedConflictException",
        ("hook", "callback", "tensor"),
        lambda e, c: (e.tensor, e.hook),
    ),
    Twin(
        "GraphNameError",
        "GraphNameException",
        ("hook", "callback", "name"),
        lambda e, c: (e.hook, e.callback, e.name, _name_problem(e), c),
    ),
    Twin("SessionRunArgsError", "SessionRunArgsException", (), lambda e, c: (str(e),)),
    Twin("NanLossDuringTrainingError", "NanLossDuringTrainingException", ("globalStep",), lambda e, c: (str(e),)),
    Twin(
        "CheckpointSaveError",
        "CheckpointSaveException",
        ("hook", "callback", "globalStep", "prefix"),
        lambda e, c: (e.hook, e.callback, _jlong(e.globalStep), e.prefix, _problem(e), c),
    ),
)

_BY_PYTHON = {t.python: t for t in TWINS}
_BY_JAVA = {t.java: t for t in TWINS}


def _package(python_module: str) -> str | None:
    """``api`` for ``jhooks.api.errors``, ``hooks`` for ``jhooks.hooks.errors``; None outside jhooks."""
    parts = python_module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "jhooks" else None


def _java_package(package: str) -> str:
    return "org.jhooks" if package == "api" else f"org.jhooks.{package}"


def _python_package(java_class: str) -> str | None:
    """``api`` for ``org.jhooks.HookException``, ``tf`` for ``org.jhooks.tf.GraphNameException``."""
    parts = java_class.split(".")
    if parts[:2] != ["org", "jhooks"]:
        return None
    return "api" if len(parts) == 3 else ".".join(parts[2:-1])


def _twins_of_python(cls: type) -> list[tuple[Twin, str]]:
    """The table entries of ``cls`` and of its jhooks base classes, nearest first, with that class's
    jhooks package."""
    out = []
    for c in cls.__mro__:
        twin = _BY_PYTHON.get(c.__name__)
        package = _package(c.__module__)
        if twin is not None and package is not None:
            out.append((twin, package))
    return out


def to_java(error: BaseException, carrier: Any) -> Any:
    """The Java twin of the jhooks error ``error``, caused by ``carrier`` (the PythonException
    carrying ``error``, whose stack it takes); None when ``error`` has no twin. When the nearest
    twin cannot be made (its Java class is not on the classpath, the error lacks a field), the next
    base class's is (a ``CheckpointSaveError`` is at least a ``HookException``)."""
    backend = current()
    for twin, package in _twins_of_python(type(error)):
        try:
            java_cls = backend.jclass(f"{_java_package(package)}.{twin.java}")
            java = java_cls(*twin.java_args(error, carrier))
        except Exception as e:  # no such class, a missing field, no matching constructor: the next twin
            if not isinstance(e, (TypeError, AttributeError, ValueError)) and backend.java_error(e) is None:
                raise
            continue
        if java.getCause() is None:
            try:
                java.initCause(carrier)
            except Exception as e:  # a constructor fixed the cause (to null): keep the carrier anyway
                if backend.java_error(e) is None:
                    raise
                java.addSuppressed(carrier)
        elif not java.getCause().equals(carrier):
            java.addSuppressed(carrier)
        java.setStackTrace(carrier.getStackTrace())
        return java
    return None


def _simple_name(java_name: str) -> str:
    return java_name.rsplit(".", 1)[-1].rsplit("$", 1)[-1]


def _twins_of_java(class_names: list[str]) -> list[tuple[Twin, str]]:
    """The table entries of the Java classes ``class_names`` (a class and its superclasses, nearest
    first) that are org.jhooks classes, nearest first, with that class's name."""
    out = []
    for name in class_names:
        twin = _BY_JAVA.get(_simple_name(name))
        if twin is not None and _python_package(name) is not None:
            out.append((twin, name))
    return out


def _python_class(twin: Twin, java_name: str) -> type[BaseException] | None:
    package = _python_package(java_name)
    for module in (f"jhooks.{package}.errors", f"jhooks.{package}"):
        try:
            cls = getattr(importlib.import_module(module), twin.python, None)
        except ImportError:
            continue
        if isinstance(cls, type) and issubclass(cls, BaseException):
            return cls
    return None


def _value(java_value: Any) -> Any:
    if java_value is None or isinstance(java_value, (bool, int, float, str)):
        return java_value
    if current().is_string(java_value):
        return str(java_value)
    if current().is_instance(java_value, "java.lang.Number"):
        return int(java_value.longValue())
    return java_value


def to_python(error: Any, original: Callable[[Any], BaseException | None]) -> BaseException | None:
    """The Python twin of the Java jhooks exception ``error``, or None when it has none.

    ``original(java_exception)`` gives the original Python exception a PythonException carries.
    When ``error`` is itself the twin of a Python error (its cause carries it), that original comes
    back; else a new Python twin with the same message and fields, ``__cause__`` the Java error.
    """
    for twin, java_name in _twins_of_java(current().class_names(error)):
        cls = _python_class(twin, java_name)
        if cls is not None:
            break
    else:
        return None
    first = None
    for carrier in [error.getCause(), *error.getSuppressed()]:
        first = original(carrier) if carrier is not None else None
        if first is not None:
            break
    if first is not None and isinstance(first, cls):
        return first
    made = cls.__new__(cls)
    BaseException.__init__(made, str(error.getMessage()))
    for field in twin.fields:
        accessor = getattr(error, field, None)
        if callable(accessor):
            setattr(made, field, _value(accessor()))
    if first is not None and error.__cause__ is None:
        error.__cause__ = first  # the Python original the Java error wrapped, e.g. a hook's OutOfRangeError
    made.__cause__ = error
    return made
