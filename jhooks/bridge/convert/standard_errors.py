"""Java's standard exceptions and Python's built-in ones: the one table both directions use.

Java -> Python: a Java exception of a class in :data:`JAVA_TO_PYTHON` (or a subclass) is also an
instance of the Python type, whatever path raised it (a Java hook called through ``JavaHook``, a
JVM session, a direct JPype call of any Java method): ``except ValueError`` and
``except java.lang.IllegalArgumentException`` both catch a Java hook's refused argument, as
TensorFlow's hook tests expect ``ValueError``. The backend gives the Java classes Python base
classes (:meth:`jhooks.bridge.backend.protocol.Backend.python_bases`) before they are first used;
JPype's own two (``IndexOutOfBoundsException`` -> ``IndexError``, ``NullPointerException`` ->
``ValueError``) stay. Only Python types with the plain exception layout can be bases: ``OSError``
and its subclasses (``TimeoutError``, ``FileNotFoundError``, ...) cannot, so ``java.io.IOException``
and ``TimeoutException`` stay plain Java exceptions; Java ``Error``s (``StackOverflowError``,
``OutOfMemoryError``) too, as the bridge names the hook that threw them (docs/bridge.md).

Python -> Java: a Python exception whose type is one of :data:`PYTHON_TO_JAVA`'s built-in types
reaches a Java caller as that Java exception (message ``str(exception)``, the Python frames as its
stack) caused by the ``org.jhooks.bridge.PythonException`` carrying the original, so
``catch (IllegalArgumentException e)`` works for a Python hook's ``ValueError``; back in Python it is
the original object again (:func:`jhooks.bridge.convert.exceptions.to_python`). As far as Java
allows: a Java class has one superclass, so an exception of a subclass (``class ConfigError(ValueError)``,
jhooks' own errors have their twins) stays a ``PythonException`` whose ``foreignType()`` names it,
which is what a Java caller matching the Python type reads.
"""

from __future__ import annotations

from typing import Any

from jhooks.bridge.backend.choice import current

#: Java class -> the Python type its exceptions also are (a subclass follows its nearest listed class).
JAVA_TO_PYTHON: tuple[tuple[str, type[BaseException]], ...] = (
    ("java.lang.IllegalArgumentException", ValueError),
    ("java.lang.IllegalStateException", RuntimeError),
    ("java.lang.UnsupportedOperationException", NotImplementedError),
    ("java.lang.ArithmeticException", ArithmeticError),
    ("java.lang.ClassCastException", TypeError),
    ("java.lang.ArrayStoreException", TypeError),
    ("java.util.NoSuchElementException", LookupError),
    ("java.util.ConcurrentModificationException", RuntimeError),
    ("java.lang.IndexOutOfBoundsException", IndexError),  # JPype's own
    ("java.lang.NullPointerException", ValueError),  # JPype's own
)

#: Python built-in type -> the Java class a Java caller gets (the exception's exact type).
PYTHON_TO_JAVA: dict[type[BaseException], str] = {
    ValueError: "java.lang.IllegalArgumentException",
    TypeError: "java.lang.IllegalArgumentException",
    NotImplementedError: "java.lang.UnsupportedOperationException",
    IndexError: "java.lang.IndexOutOfBoundsException",
    KeyError: "java.util.NoSuchElementException",
    ArithmeticError: "java.lang.ArithmeticException",
    RuntimeError: "java.lang.IllegalStateException",
}

_installed = False


def install() -> None:
    """Gives the Java classes of :data:`JAVA_TO_PYTHON` their Python bases through the current
    backend; idempotent. Call before the JVM starts (a class JPype already made for Python keeps its
    bases: a JVM someone else started and used gets the mapping for the classes not yet used)."""
    global _installed
    if not _installed:
        current().python_bases(JAVA_TO_PYTHON)
        _installed = True


def java_class_for(exc: BaseException) -> str | None:
    """The Java class a Java caller gets for the Python exception ``exc`` (:data:`PYTHON_TO_JAVA`,
    by its exact type), or None (any other type stays a ``PythonException``)."""
    return PYTHON_TO_JAVA.get(type(exc))


def to_java(exc: BaseException, carrier: Any) -> Any:
    """The standard Java exception for ``exc``, caused by ``carrier`` (the PythonException carrying
    it) with the carrier's stack; None when ``exc``'s type has none."""
    name = java_class_for(exc)
    if name is None:
        return None
    java = current().jclass(name)(current().jstring(str(carrier.foreignMessage())))
    java.initCause(carrier)
    java.setStackTrace(carrier.getStackTrace())
    return java
