"""What the bridge needs from a Python-Java library: :class:`Backend`.

The bridge (hook wrapping, values, arrays, exceptions, run contexts, listeners, the JVM's start and
the process's state) is written once against this protocol; the spelling of each operation depends
on how Python and the JVM share the process (docs/bridge.md, "Backends"):

- **JPype** (:mod:`jhooks.bridge.backend.jpype_backend`) when Python hosts the process: Python starts
  the JVM (``python -m jhooks java``, Java hooks in Python sessions);
- **jep** (:mod:`jhooks.bridge.backend.jep_backend`) when the JVM hosts it: a JVM started by plain
  ``java`` embedded CPython through ``org.jhooks.bridge.EmbeddedPython`` (``PythonHooks.load``).

Java objects are the library's own (JPype's ``JObject``, jep's ``PyJObject``); a Java exception in
Python is an exception object that also answers the Java ``Throwable`` methods (``getClass()``,
``getCause()``, ...). Class names are binary names (``java.util.Map$Entry``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import numpy as np


class Backend(Protocol):
    """Every operation the bridge needs from JPype or jep (module docstring)."""

    #: ``"jpype"`` or ``"jep"``
    name: str
    #: whether :meth:`direct_buffer` shares the numpy memory (else it copies)
    shares_memory: bool

    # -- the JVM -------------------------------------------------------------------------------

    def jvm_started(self) -> bool:
        """Whether the JVM runs (always, under jep: it hosts this interpreter)."""
        ...

    def jvm_library(self) -> str:
        """The JVM shared library (``libjvm.so``) that :meth:`start_jvm` starts, or that runs.
        LookupError, saying where it looked, when there is none (no JDK installed)."""
        ...

    def start_jvm(self, options: Sequence[str], classpath: Sequence[str]) -> None:
        """Starts the JVM with the ``-D``/``-X`` ``options`` and ``classpath`` (jars or class dirs).
        Java strings stay Java objects (no automatic conversion to ``str``) and the JVM's handlers
        for SIGINT/SIGTERM interrupt Python's main thread instead of calling ``System.exit``.
        RuntimeError when this backend cannot start one (jep: the JVM hosts this interpreter)."""
        ...

    def adopt_jvm(self) -> None:
        """Prepares a JVM started by other code for the bridge, as :meth:`start_jvm` would have."""
        ...

    def add_classpath(self, path: str) -> None:
        """Adds a jar or class dir (absolute path) to the running JVM's class lookup (:meth:`jclass`).
        RuntimeError when this backend cannot (jep: the JVM's class path is fixed)."""
        ...

    def added_classpath(self) -> list[str]:
        """What :meth:`add_classpath` added, in order."""
        ...

    # -- classes and objects -------------------------------------------------------------------

    def jclass(self, name: str) -> Any:
        """The Java class ``name``: callable to construct, usable with ``isinstance``, its static
        members as attributes. TypeError when no class of that name is on the classpath."""
        ...

    def class_object(self, name: str) -> Any:
        """The ``java.lang.Class`` of ``name``, for reflection (``getConstructors()``, ...)."""
        ...

    def is_instance(self, value: Any, class_name: str) -> bool:
        """Whether ``value`` (a Java object, or a Java exception as Python holds it) is an instance of
        ``class_name``; False for Python objects and for a class the JVM does not have."""
        ...

    def is_subclass(self, cls: Any, class_name: str) -> bool:
        """Whether the Java class ``cls`` (as :meth:`jclass` returns it) is ``class_name`` or a subtype."""
        ...

    def class_names(self, value: Any) -> list[str]:
        """The binary names of the class of the Java object ``value`` (or Java exception) and of its
        superclasses, nearest first (``java.lang.Object`` last)."""
        ...

    def is_java_object(self, value: Any) -> bool:
        """Whether ``value`` is a Java object (arrays and exceptions included) rather than a Python one."""
        ...

    # -- strings and boxing --------------------------------------------------------------------

    def jstring(self, value: str) -> Any:
        """``value`` as what a Java ``String`` parameter or collection element takes."""
        ...

    def is_string(self, value: Any) -> bool:
        """Whether ``value`` is a Java String as this backend hands it to Python (a ``str`` always is)."""
        ...

    def jint(self, value: int) -> Any:
        """``value`` for a Java ``int`` parameter."""
        ...

    def jlong(self, value: int) -> Any:
        """``value`` for a Java ``long`` parameter (or a ``Long`` collection element)."""
        ...

    def box(self, kind: str, value: Any) -> Any:
        """``value`` boxed as the wrapper of the primitive ``kind`` (``"long"`` -> ``java.lang.Long``,
        ``"int"``, ``"short"``, ``"byte"``, ``"double"``, ``"float"``, ``"boolean"``)."""
        ...

    # -- arrays and buffers --------------------------------------------------------------------

    def array(self, element: str, values: Iterable[Any]) -> Any:
        """A new Java array holding ``values``, of the primitive ``element`` (``"int"``, ``"long"``,
        ``"byte"``, ``"short"``, ``"double"``, ``"float"``, ``"boolean"``) or of the class
        ``element`` (``"java.lang.String"``, ``"java.lang.Object"``, ...)."""
        ...

    def byte_arrays(self, items: list[bytes]) -> Any:
        """A new Java ``byte[][]`` holding ``items``."""
        ...

    def to_bytes(self, java_bytes: Any) -> bytes:
        """The Python bytes of a Java ``byte[]``."""
        ...

    def direct_buffer(self, data: Any) -> Any:
        """A direct ``java.nio.ByteBuffer`` with the bytes of ``data`` (a C-contiguous uint8 numpy
        array or a ctypes array): over its memory when :attr:`shares_memory` (valid while ``data``
        lives), else a copy."""
        ...

    def fill(self, out: np.ndarray, write: Callable[[Any], Any]) -> None:
        """Calls ``write(buffer)`` with a direct ``ByteBuffer`` whose bytes end up in the C-contiguous
        numpy array ``out`` (a view of its memory, or a Java buffer copied into it afterwards)."""
        ...

    # -- proxies -------------------------------------------------------------------------------

    def proxy(self, interface: str, target: Any) -> Any:
        """A Java object implementing ``interface`` whose methods call the methods of the same name
        of ``target``; callable from any Java thread (each call takes the GIL). Java keeps ``target``
        alive while it holds the proxy."""
        ...

    # -- exceptions ----------------------------------------------------------------------------

    def python_bases(self, pairs: Sequence[tuple[str, type[BaseException]]]) -> None:
        """Makes the Java exceptions of each ``(Java class name, Python type)`` pair, and of its
        subclasses, also instances of the Python type whatever raised them, constructible from
        Python as before (``IllegalArgumentException("x")``); for classes not yet used from Python
        (call before the JVM starts). jhooks.bridge.convert.standard_errors has the table."""
        ...

    def convert_calls(self, class_name: str, methods: Sequence[str], call: Callable[..., Any]) -> None:
        """Makes Python's calls of the Java class's public ``methods`` go through ``call(method,
        *args)`` (the bridge's :func:`jhooks.bridge.process.calls.call_java`), so a Java method
        called directly from Python raises what the bridge converts its exceptions to. jep: nothing
        (a direct call raises jep's Java exception)."""
        ...

    def java_error(self, exc: BaseException) -> BaseException | None:
        """The Java exception ``exc`` stands for (as a Python exception answering the Throwable
        methods), or None when ``exc`` is a plain Python exception."""
        ...

    def wrap(self, throwable: Any) -> BaseException:
        """A Java ``Throwable`` received as a value (an argument, a return value) as a Python exception."""
        ...

    def unwrap(self, exc: Any) -> Any:
        """The Java object of a Java exception (:meth:`wrap`'s inverse), to pass to Java methods."""
        ...

    def raisable(self, throwable: Any) -> BaseException:
        """What Python raises in a callback so that Java receives ``throwable`` itself."""
        ...
