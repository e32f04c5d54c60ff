"""Python views that stand for a Java object: :class:`JavaBacked`."""

from __future__ import annotations

from typing import Any


class JavaBacked:
    """A Python object that is a view of the Java object :attr:`java` (a Java hook or listener in
    Python): handed back to Java it is that object itself, never a proxy of the view
    (``as_java_hook``, ``as_java_listener``)."""

    java: Any
