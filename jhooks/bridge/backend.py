"""The bridge's two backends, and the one running in this process.

The bridge (hook wrapping, values, arrays, exceptions, run contexts, listeners) is written once
against :class:`Backend`, the few operations whose spelling depends on how Python and the JVM share
the process (docs/bridge.md, "Backends"):

- **JPype** (:mod:`jhooks.bridge.jpype_backend`) when Python hosts the process: Python starts the
  JVM (``python -m jhooks java``, Java hooks in Python sessions, ``jhooks.bridge.jvm``);
- **jep** (:mod:`jhooks.bridge.jep_backend`) when the JVM hosts it: a JVM started by plain ``java``
  embedded CPython through ``org.jhooks.bridge.EmbeddedPython`` (``PythonHooks.load``).

The choice is automatic: jep when this interpreter runs inside a JVM through jep (its ``_jep``
module is loaded, which standalone Python cannot load), else JPype.

What exists only when Python hosts the process still calls JPype directly: starting the JVM and
its runtime rule (``jvm``, ``classpath``), the launcher's ``launch``, Java hooks in Python sessions
(``java_hooks``, ``construct``, ``sessions.java_session``), the shared console (``console``) and
signal handling (``signals``); the Python driver of the conformance suite likewise.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

_current: Backend | None = None


def embedded() -> bool:
    """Whether this interpreter is embedded in a JVM by jep (the JVM hosts the process)."""
    return "_jep" in sys.modules


def current() -> Backend:
    """The backend of this process (chosen once, module docstring)."""
    global _current
    if _current is None:
        if embedded():
            from jhooks.bridge.jep_backend import JepBackend

            _current = JepBackend()
        else:
            from jhooks.bridge.jpype_backend import JPypeBackend

            _current = JPypeBackend()
    return _current


class Backend:
    """What the bridge needs from a Python-Java library. Java objects are the library's own
    (JPype's ``JObject``, jep's ``PyJObject``); a Java exception in Python is an exception object
    that also answers the Java ``Throwable`` methods (``getClass()``, ``getCause()``, ...)."""

    name = "?"
    #: whether :meth:`direct_buffer` shares the numpy memory (else it copies)
    shares_memory = False

    def start(self, natives: bool = False) -> None:
        """Makes sure the JVM runs with jhooks on its classpath (``natives``: with TensorFlow's natives)."""
        raise NotImplementedError

    def jclass(self, name: str) -> Any:
        """The Java class ``name`` (binary name): callable to construct, usable with ``isinstance``."""
        raise NotImplementedError

    def jstring(self, value: str) -> Any:
        """``value`` as what a Java ``String`` parameter or collection element takes."""
        return value

    def is_string(self, value: Any) -> bool:
        """Whether ``value`` is a Java String as this backend hands it to Python (a ``str`` always is)."""
        return isinstance(value, str)

    def jint(self, value: int) -> Any:
        """``value`` for a Java ``int`` parameter."""
        return int(value)

    def jlong(self, value: int) -> Any:
        """``value`` for a Java ``long`` parameter (or a ``Long`` collection element)."""
        return int(value)

    def array(self, element: str, values: Any) -> Any:
        """A new Java array of ``element`` (``"String"``, ``"int"``, ``"long"``, ``"byte"``) holding ``values``."""
        raise NotImplementedError

    def byte_arrays(self, items: list[bytes]) -> Any:
        """A new Java ``byte[][]`` holding ``items``."""
        raise NotImplementedError

    def to_bytes(self, java_bytes: Any) -> bytes:
        """The Python bytes of a Java ``byte[]``."""
        return bytes(np.asarray(java_bytes, dtype=np.int8).view(np.uint8).tobytes())

    def proxy(self, interface: str, target: Any) -> Any:
        """A Java object implementing ``interface`` (binary name) whose methods call the methods of
        the same name of ``target``; callable from any Java thread."""
        raise NotImplementedError

    def direct_buffer(self, data: Any) -> Any:
        """A direct ``java.nio.ByteBuffer`` with the bytes of ``data`` (a C-contiguous uint8 numpy array
        or a ctypes array): over its memory when :attr:`shares_memory` (valid while ``data`` lives),
        else a copy."""
        raise NotImplementedError

    def fill(self, out: np.ndarray, write: Any) -> None:
        """Calls ``write(buffer)`` with a direct ``ByteBuffer`` whose bytes end up in the C-contiguous
        numpy array ``out`` (a view of its memory, or a Java buffer copied into it afterwards)."""
        raise NotImplementedError

    def java_error(self, exc: BaseException) -> BaseException | None:
        """The Java exception ``exc`` stands for (as a Python exception answering the Throwable
        methods), or None when ``exc`` is a plain Python exception."""
        raise NotImplementedError

    def wrap(self, throwable: Any) -> BaseException:
        """A Java ``Throwable`` received as a value (an argument, a return value) as a Python exception."""
        raise NotImplementedError

    def unwrap(self, exc: Any) -> Any:
        """The Java object of a Java exception (:meth:`wrap`'s inverse), to pass to Java methods."""
        return exc

    def raisable(self, throwable: Any) -> BaseException:
        """What Python raises in a callback so that Java receives ``throwable`` itself."""
        raise NotImplementedError

    def class_names(self, value: Any) -> list[str]:
        """The binary names of the class of the Java object ``value`` (or wrapped Java exception) and
        of its superclasses, nearest first (``java.lang.Object`` last)."""
        names = []
        c = self.unwrap(value).getClass()
        while c is not None:
            names.append(str(c.getName()))
            c = c.getSuperclass()
        return names

    def is_instance(self, value: Any, class_name: str) -> bool:
        """Whether ``value`` (a Java object, or a wrapped Java exception) is an instance of ``class_name``."""
        try:
            return isinstance(self.unwrap(value), self.jclass(class_name))
        except TypeError:
            return False
