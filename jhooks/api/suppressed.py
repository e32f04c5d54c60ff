"""Exceptions attached to an error in flight (Python's side of Java's ``Throwable.addSuppressed``).

Used for what ``Hook.onError`` raises: the original error still propagates; each attached exception
is kept in order and described in a note (``__notes__``, shown by tracebacks on Python 3.11+).
"""

from __future__ import annotations

_ATTR = "__jhooks_suppressed__"


def add_suppressed(error: BaseException, suppressed: BaseException, where: str) -> None:
    """Attaches ``suppressed`` to ``error`` with a note ``"<where> raised <Type>: <message>"``."""
    if suppressed is error:
        return
    try:
        getattr(error, _ATTR).append(suppressed)
    except AttributeError:
        setattr(error, _ATTR, [suppressed])
    note = f"{where} raised {type(suppressed).__name__}: {suppressed}"
    add_note = getattr(error, "add_note", None)
    if callable(add_note):
        add_note(note)
    else:  # Python 3.10
        notes = list(getattr(error, "__notes__", []))
        error.__notes__ = notes + [note]  # type: ignore[attr-defined]


def suppressed(error: BaseException) -> tuple[BaseException, ...]:
    """The exceptions attached to ``error`` by :func:`add_suppressed`, in order (Java:
    ``getSuppressed()``)."""
    return tuple(getattr(error, _ATTR, ()))
