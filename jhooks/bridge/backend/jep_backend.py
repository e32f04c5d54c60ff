"""The jep backend: the JVM hosts the process and embedded this interpreter (docs/bridge.md, "Backends").

Its Java half is ``org.jhooks.bridge.EmbeddedPython``, which a JVM started by plain ``java`` uses
(through ``org.jhooks.python.PythonHooks.load``) to start CPython once, then calls the entry
functions of :mod:`jhooks.bridge.launcher.embedded`.
What differs from JPype, and how this module bridges it:

- jep refuses calls from a Java thread into an interpreter that thread did not open, so a Python
  object is not handed to Java as a jep proxy: it goes into a registry here, and Java gets a
  ``java.lang.reflect.Proxy`` holding its handle (``EmbeddedPython.proxy``) that calls
  :func:`call` through the calling thread's own ``SharedInterpreter`` (all share ``sys.modules``);
  handle 0 is the entry object :func:`set_entry` registered (``EmbeddedPython.start()``'s calls).
- A Java exception reaches Python as a builtin exception (``ValueError`` for an
  IllegalArgumentException, ...) whose ``args[0]`` is the Java object; :class:`JavaException`
  stands for it in the bridge, answering the Throwable methods. A Python exception whose ``args[0]``
  is a Java Throwable reaches Java as a ``jep.JepException`` caused by it, which
  ``EmbeddedPython`` rethrows: so a callback raises :class:`JavaException` of the PythonException
  (or twin) it made.
- jep has no ``convertToDirectBuffer``: numpy values go to Java through a copy into a direct
  ``ByteBuffer`` Java allocated; Java's direct buffers are numpy views (``memoryview``), as on JPype.
- jep converts Java Strings and boxed numbers to ``str``/``int``/``float`` and has no boxing casts.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from jhooks.bridge.backend.protocol import Backend

_ELEMENTS = {
    "int": "JINT_ID",
    "long": "JLONG_ID",
    "byte": "JBYTE_ID",
    "short": "JSHORT_ID",
    "double": "JDOUBLE_ID",
    "float": "JFLOAT_ID",
    "boolean": "JBOOLEAN_ID",
}
_BOXES = {
    "long": "java.lang.Long",
    "int": "java.lang.Integer",
    "short": "java.lang.Short",
    "byte": "java.lang.Byte",
    "double": "java.lang.Double",
    "float": "java.lang.Float",
    "boolean": "java.lang.Boolean",
}

# Python objects Java holds proxies of, by handle (handle 0 is the entry object, set_entry): kept
# until the JVM collected the proxy (release()).
_objects: dict[int, Any] = {}
_handles = itertools.count(1)
_objects_lock = threading.Lock()


def jep_jar() -> str | None:
    """The jar of the jep installed in this Python environment (``site-packages/jep/jep-<version>.jar``,
    next to the ``libjep.so`` built with it), or None when jep is not installed. A JVM that embeds
    this environment's Python puts this jar on its classpath; never imports jep."""
    import glob
    import importlib.util
    import os

    spec = importlib.util.find_spec("jep")
    if spec is None or not spec.origin:
        return None
    jars = sorted(glob.glob(os.path.join(os.path.dirname(spec.origin), "jep-*.jar")))
    return jars[-1] if jars else None


def call(handle: int, method: str, *args: Any) -> Any:
    """What ``EmbeddedPython.call`` runs on the calling Java thread's interpreter: ``method(*args)``
    of the object registered as ``handle`` (0: the entry object, :func:`set_entry`)."""
    return getattr(_objects[handle], method)(*args)


def set_entry(entry: Any) -> None:
    """Registers ``entry`` as handle 0: what ``EmbeddedPython`` calls by name (``start``,
    ``call_function``, ``release``) before any proxy exists."""
    _objects[0] = entry


def release(handles: Any) -> None:
    """Run by ``EmbeddedPython`` for proxies the JVM collected: drops their objects from the registry."""
    with _objects_lock:
        for handle in handles:
            _objects.pop(int(handle), None)


def registered() -> int:
    """How many Python objects Java holds proxies of (the registry's size, the entry object aside)."""
    return len(_objects) - (0 in _objects)


class JavaException(Exception):
    """A Java exception in the embedded interpreter: ``args[0]`` (and :attr:`java`) is the Java
    Throwable, whose methods this object answers; ``str()`` is ``"<java class>: <message>"`` as
    JPype's. Raising it in a callback gives Java the Throwable itself."""

    def __init__(self, java: Any) -> None:
        super().__init__(java)
        self.java = java

    def __getattr__(self, name: str) -> Any:
        if name == "java":
            raise AttributeError(name)
        return getattr(self.java, name)

    def __repr__(self) -> str:
        return f"JavaException({str(self)!r})"

    def __str__(self) -> str:
        import jep

        message = self.java.getMessage()
        name = str(jep.findClass("org.jhooks.bridge.EmbeddedPython").classNames(self.java)[0])
        return name if message is None else f"{name}: {message}"


class JepBackend(Backend):
    """:class:`~jhooks.bridge.backend.protocol.Backend` over jep 4.3 (CPython embedded in the JVM)."""

    name = "jep"
    shares_memory = False

    def __init__(self) -> None:
        import jep

        self.jep = jep
        self._classes: dict[str, Any] = {}
        self._throwable = jep.findClass("java.lang.Throwable")
        self._embedded = jep.findClass("org.jhooks.bridge.EmbeddedPython")
        self._byte_buffer = jep.findClass("java.nio.ByteBuffer")
        self._bases: list[tuple[Any, type[BaseException]]] = []
        self._exception_types: dict[type[BaseException], type[JavaException]] = {}

    def jvm_started(self) -> bool:
        return True  # the JVM hosts this interpreter

    def jvm_library(self) -> str:
        home = str(self.jclass("java.lang.System").getProperty("java.home"))
        return os.path.join(home, "lib", "server", "libjvm.so")  # the JVM that hosts this interpreter

    def start_jvm(self, options: Sequence[str], classpath: Sequence[str]) -> None:
        raise RuntimeError("this Python runs inside a JVM through jep: it cannot start another")

    def adopt_jvm(self) -> None:
        """Nothing to prepare: the JVM hosts this interpreter and EmbeddedPython.start() checked it."""

    def add_classpath(self, path: str) -> None:
        raise RuntimeError(
            f"cannot add {path} to the classpath of the JVM that embeds this Python (jep): start java with it"
        )

    def added_classpath(self) -> list[str]:
        return []

    def jclass(self, name: str) -> Any:
        cls = self._classes.get(name)
        if cls is None:
            try:
                cls = self._classes[name] = self.jep.findClass(name)
            except Exception as e:  # jep raises the ClassNotFoundException as a builtin exception
                raise TypeError(f"Java class {name} not found") from e
        return cls

    def class_object(self, name: str) -> Any:
        # jep hands a java.lang.Class to Python as the class itself, without Class's methods
        return self.jclass("java.lang.Class").forName(name)

    def is_instance(self, value: Any, class_name: str) -> bool:
        try:
            return isinstance(self.unwrap(value), self.jclass(class_name))
        except TypeError:
            return False

    def is_subclass(self, cls: Any, class_name: str) -> bool:
        try:
            return issubclass(cls, self.jclass(class_name))
        except TypeError:
            return False

    def class_names(self, value: Any) -> list[str]:
        # jep hands a java.lang.Class to Python as a PyJClass without Class's methods: Java lists them
        return [str(n) for n in self._embedded.classNames(self.unwrap(value))]

    def is_java_object(self, value: Any) -> bool:
        # jep's Java objects are instances of its types jep.PyJObject, jep.PyJArray, ... (or subtypes)
        return isinstance(value, JavaException) or any(
            c.__module__ == "jep" and c.__name__.startswith("PyJ") for c in type(value).__mro__
        )

    def jstring(self, value: str) -> Any:
        return value

    def is_string(self, value: Any) -> bool:
        return isinstance(value, str)  # jep converts Java Strings to str

    def jint(self, value: int) -> Any:
        return int(value)

    def jlong(self, value: int) -> Any:
        return int(value)

    def box(self, kind: str, value: Any) -> Any:
        return self.jclass(_BOXES[kind]).valueOf(bool(value) if kind == "boolean" else value)

    def array(self, element: str, values: Iterable[Any]) -> Any:
        items = bytes(values) if element == "byte" else list(values)
        kind = getattr(self.jep, _ELEMENTS[element]) if element in _ELEMENTS else self.jclass(element)
        out = self.jep.jarray(len(items), kind)
        for i, v in enumerate(items):
            out[i] = (v - 256 if v > 127 else v) if element == "byte" else v
        return out

    def byte_arrays(self, items: list[bytes]) -> Any:
        out = self.jep.jarray(len(items), self.jep.jarray(0, self.jep.JBYTE_ID))
        for i, b in enumerate(items):
            out[i] = self.array("byte", b)
        return out

    def to_bytes(self, java_bytes: Any) -> bytes:
        return bytes(np.asarray(java_bytes, dtype=np.int8).view(np.uint8).tobytes())

    def direct_buffer(self, data: Any) -> Any:
        source = np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8)
        buffer = self._byte_buffer.allocateDirect(source.nbytes)
        if source.nbytes:
            np.frombuffer(memoryview(buffer), dtype=np.uint8)[:] = source
        return buffer

    def fill(self, out: np.ndarray, write: Callable[[Any], Any]) -> None:
        buffer = self._byte_buffer.allocateDirect(out.nbytes)
        write(buffer)
        out.reshape(-1).view(np.uint8)[:] = np.frombuffer(memoryview(buffer), dtype=np.uint8)

    def proxy(self, interface: str, target: Any) -> Any:
        with _objects_lock:
            handle = next(_handles)
            _objects[handle] = target
        description = f"{type(target).__module__}.{type(target).__qualname__} (Python, jep)"
        return self._embedded.proxyOf(interface, handle, description)

    def python_bases(self, pairs: Sequence[tuple[str, type[BaseException]]]) -> None:
        """The bridge's :class:`JavaException` of a listed Java class is also an instance of its Python
        type (jep raises Java exceptions as its own types; the bridge's conversions wrap them)."""
        for java_name, base in pairs:
            try:
                self._bases.append((self.jclass(java_name), base))
            except TypeError:  # not on this JVM
                continue

    def convert_calls(self, class_name: str, methods: Sequence[str], call: Callable[..., Any]) -> None:
        """Nothing: jep's Java classes take no Python customizers (a direct call raises jep's exception)."""

    def _java_exception(self, throwable: Any) -> JavaException:
        base = next((b for cls, b in self._bases if isinstance(throwable, cls)), None)
        if base is None:
            return JavaException(throwable)
        kind = self._exception_types.get(base)
        if kind is None:
            kind = self._exception_types[base] = type(f"Java{base.__name__}", (JavaException, base), {})
        return kind(throwable)

    def java_error(self, exc: BaseException) -> BaseException | None:
        if isinstance(exc, JavaException):
            return exc
        if exc.args and isinstance(exc.args[0], self._throwable):
            return self._java_exception(exc.args[0])
        return None

    def wrap(self, throwable: Any) -> BaseException:
        return throwable if isinstance(throwable, BaseException) else self._java_exception(throwable)

    def unwrap(self, exc: Any) -> Any:
        return exc.java if isinstance(exc, JavaException) else exc

    def raisable(self, throwable: Any) -> BaseException:
        return self.wrap(throwable)
