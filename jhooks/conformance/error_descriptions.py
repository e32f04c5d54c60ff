"""A raised error as language-neutral JSON for the outcome checks; twin of
org.jhooks.conformance.ErrorDescriptions: ``types`` (simple names of the class and its bases; a
Java exception's Java class hierarchy), ``message``, ``stack`` (the whole traceback text, Java
stack included) and ``cause``."""

from __future__ import annotations

import traceback
from typing import Any


def _is_java(exc: Any) -> bool:
    from jhooks.bridge.convert.exceptions import is_java_exception

    return is_java_exception(exc)


def describe(exc: BaseException) -> dict[str, Any]:
    if _is_java(exc):
        return _describe_java(exc, python_tb=exc.__traceback__)
    out: dict[str, Any] = {
        "types": [c.__name__ for c in type(exc).__mro__],
        "message": str(getattr(exc, "message", None) or exc),
        "stack": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        + "".join(f"\n{n}" for n in getattr(exc, "__notes__", ())),
    }
    if exc.__cause__ is not None:
        out["cause"] = describe(exc.__cause__)
    return out


def _describe_java(exc: Any, python_tb: Any = None) -> dict[str, Any]:
    from jhooks.bridge.backend.choice import current
    from jhooks.bridge.convert.exceptions import java_stack_trace

    types = [n.rsplit(".", 1)[-1].rsplit("$", 1)[-1] for n in current().class_names(exc)]
    stack = java_stack_trace(exc)
    if python_tb is not None:
        stack += "\n" + "".join(traceback.format_tb(python_tb))
    out: dict[str, Any] = {"types": types, "message": str(exc.getMessage()), "stack": stack}
    cause = exc.getCause()
    if cause is not None and not cause.equals(exc):
        out["cause"] = _describe_java(cause)
    return out
