"""The JPype backend: Python hosts the process and starts the JVM (docs/bridge.md, "Backends").

Java exceptions are JPype's ``JException`` objects (Python exceptions that are also the Java
objects); arrays cross through JPype's ``convertToDirectBuffer``, a ``ByteBuffer`` over numpy
memory, so values cross in one copy (or none, for views); a proxy (``JProxy``) may be called
from any Java thread, each call taking the GIL.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import jpype
import jpype.nio
import numpy as np

from jhooks.bridge.backend.protocol import Backend

_PRIMITIVES = {
    "int": jpype.JInt,
    "long": jpype.JLong,
    "byte": jpype.JByte,
    "short": jpype.JShort,
    "double": jpype.JDouble,
    "float": jpype.JFloat,
    "boolean": jpype.JBoolean,
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


def _named_once(cls: type) -> None:
    """Python prints an exception's type as ``module.qualname``, and JPype names a Java class
    ``java.lang`` + ``java.lang.IllegalStateException``: tracebacks read
    ``java.lang.java.lang.IllegalStateException``. The qualname becomes the simple name, so the type
    prints as the Java class name (what the bridge raises or keeps as a cause passes here)."""
    name, module = cls.__name__, cls.__module__
    if cls.__qualname__ == name and name.startswith(module + "."):
        cls.__qualname__ = name[len(module) + 1 :]


def _constructed(cls: Any, args: tuple) -> Any:
    """A new Java exception of class ``cls`` from Python arguments, through the class's public
    constructors (reflection). A Java class given a Python base (:meth:`JPypeBackend.python_bases`)
    takes that base's ``__new__``/``__init__``, which make an object without its Java half (JPype's
    own ``IndexOutOfBoundsException(...)`` fails so); this is its ``__new__`` instead."""
    values = jpype.JArray(jpype.JClass("java.lang.Object"))(list(args))
    for ctor in cls.class_.getConstructors():
        if ctor.getParameterCount() != len(args):
            continue
        try:
            return ctor.newInstance(values)
        except jpype.JClass("java.lang.reflect.InvocationTargetException") as e:
            raise e.getCause() from None
        except jpype.JClass("java.lang.IllegalArgumentException"):  # the arguments do not fit this one
            continue
    raise TypeError(f"no public constructor of {cls.class_.getName()} takes {args!r}")


def _customizer(java_name: str, members: dict[str, Any]) -> type:
    """A JPype customizer class giving ``members`` to the Java class ``java_name``. JPype copies
    its string attributes too: ``__module__`` is the Java package, as JPype's own, so the class
    still prints as ``java.lang.IllegalStateException``."""
    return type("_Customizer", (), {**members, "__module__": java_name.rsplit(".", 1)[0]})


def _wrapping(args: tuple) -> bool:
    """Whether JPype calls with ``(constructor key, (message,))``: it wraps an existing Java object."""
    return len(args) == 2 and type(args[0]).__name__ == "PyCapsule" and isinstance(args[1], tuple)


def _python_side_new(cls: Any, *args: Any) -> Any:
    if _wrapping(args):
        return BaseException.__new__(cls, *args[1])
    return _constructed(cls, args)


def _python_side_init(self: Any, *args: Any) -> None:
    """``args`` is the message, as for JPype's own Java exceptions (not JPype's constructor key)."""
    if _wrapping(args):
        BaseException.__init__(self, *args[1])
    else:  # made by _constructed (and wrapped already): its message as JPype would have it
        message = self.getMessage()
        BaseException.__init__(self, *(() if message is None else (str(message),)))


class JPypeBackend(Backend):
    """:class:`~jhooks.bridge.backend.protocol.Backend` over JPype 1.7."""

    name = "jpype"
    shares_memory = True

    def __init__(self) -> None:
        self._classes: dict[str, Any] = {}
        self._array_types: dict[str, Any] = {}  # JArray types by element name

    def jvm_started(self) -> bool:
        return bool(jpype.isJVMStarted())

    def jvm_library(self) -> str:
        try:
            return str(jpype.getDefaultJVMPath())
        except jpype.JVMNotFoundException:
            raise LookupError("JPype found no libjvm.so in JAVA_HOME, /usr/bin/java's JDK or /usr/lib/jvm") from None
        except jpype.JVMNotSupportedException as e:
            raise LookupError(f"JPype cannot use the JVM it found: {e}") from None

    def start_jvm(self, options: Sequence[str], classpath: Sequence[str]) -> None:
        # interrupt=False makes JPype 1.7 install its Java handlers for SIGINT/SIGTERM (the flag is
        # inverted in JPypeContext.initialize): they interrupt the main thread and raise the signal
        # in Python. With interrupt=True the JVM's own handlers call System.exit while Java
        # threads are inside Python, which crashes the process.
        jpype.startJVM(*options, classpath=list(classpath), convertStrings=False, interrupt=False)
        self.adopt_jvm()

    def adopt_jvm(self) -> None:
        import jpype.imports  # noqa: F401  (enables `from org... import`; only once the JVM runs)

    def add_classpath(self, path: str) -> None:
        jpype.addClassPath(os.path.abspath(path))

    def added_classpath(self) -> list[str]:
        return [p for p in jpype.getClassPath(env=False).split(os.pathsep) if p]

    def jclass(self, name: str) -> Any:
        cls = self._classes.get(name)
        if cls is None:
            cls = self._classes[name] = jpype.JClass(name)
        return cls

    def class_object(self, name: str) -> Any:
        return self.jclass(name).class_

    def is_instance(self, value: Any, class_name: str) -> bool:
        try:
            return isinstance(value, self.jclass(class_name))
        except TypeError:
            return False

    def is_subclass(self, cls: Any, class_name: str) -> bool:
        return issubclass(cls, self.jclass(class_name))

    def class_names(self, value: Any) -> list[str]:
        names = []
        c = value.getClass()
        while c is not None:
            names.append(str(c.getName()))
            c = c.getSuperclass()
        return names

    def is_java_object(self, value: Any) -> bool:
        return isinstance(value, (jpype.JObject, jpype.JException))

    def jstring(self, value: str) -> Any:
        return jpype.JString(value)

    def is_string(self, value: Any) -> bool:
        return isinstance(value, (str, jpype.JString))

    def jint(self, value: int) -> Any:
        return jpype.JInt(int(value))

    def jlong(self, value: int) -> Any:
        return jpype.JLong(int(value))

    def box(self, kind: str, value: Any) -> Any:
        return self.jclass(_BOXES[kind])(_PRIMITIVES[kind](value))

    def array(self, element: str, values: Iterable[Any]) -> Any:
        array_type = self._array_types.get(element)
        if array_type is None:  # made once per element type: JArray(...) makes a new type object each call
            primitive = _PRIMITIVES.get(element)
            array_type = jpype.JArray(self.jclass(element) if primitive is None else primitive)
            self._array_types[element] = array_type
        return array_type(bytes(values) if element == "byte" else list(values))

    def byte_arrays(self, items: list[bytes]) -> Any:
        out = jpype.JArray(jpype.JArray(jpype.JByte))(len(items))
        for i, b in enumerate(items):
            out[i] = jpype.JArray(jpype.JByte)(b)
        return out

    def to_bytes(self, java_bytes: Any) -> bytes:
        return bytes(java_bytes)

    def direct_buffer(self, data: Any) -> Any:
        return jpype.nio.convertToDirectBuffer(data)

    def fill(self, out: np.ndarray, write: Callable[[Any], Any]) -> None:
        write(jpype.nio.convertToDirectBuffer(out.reshape(-1).view(np.uint8)))

    def proxy(self, interface: str, target: Any) -> Any:
        return jpype.JObject(jpype.JProxy(interface, inst=target), self.jclass(interface))

    def python_bases(self, pairs: Sequence[tuple[str, type[BaseException]]]) -> None:
        from jpype import _jcustomizer

        for java_name, base in pairs:
            hints = _jcustomizer.getClassHints(java_name)
            if hints.instantiated:  # already made for Python (a JVM other code started and used)
                continue
            if base not in hints.bases:  # else JPype's own (IndexOutOfBounds, NullPointer) or given before
                hints.registerClassBase(base)
            members = {"__new__": _python_side_new, "__init__": _python_side_init}
            hints.registerClassImplementation(java_name, _customizer(java_name, members))

    def convert_calls(self, class_name: str, methods: Sequence[str], call: Callable[..., Any]) -> None:
        members: dict[str, Any] = {}
        for name in methods:
            java_name = f"_jhooks_java_{name}"

            def method(self: Any, *args: Any, _java: str = java_name) -> Any:
                return call(getattr(self, _java), *args)

            method.__name__ = method.__qualname__ = name
            members[name] = jpype.JOverride(rename=java_name)(method)
        jpype.JImplementationFor(class_name)(_customizer(class_name, members))

    def java_error(self, exc: BaseException) -> BaseException | None:
        if not isinstance(exc, jpype.JException):
            return None
        chain: list[BaseException] = []
        cause: BaseException | None = exc
        while cause is not None and not any(cause is c for c in chain):  # a cycle ends it, as in traceback
            chain.append(cause)
            cause = cause.__cause__
        for link in chain:  # its Java causes print too (JPype puts the Java frames between them)
            if isinstance(link, jpype.JException):
                _named_once(type(link))
        return exc

    def wrap(self, throwable: Any) -> BaseException:
        return throwable

    def unwrap(self, exc: Any) -> Any:
        return exc

    def raisable(self, throwable: Any) -> BaseException:
        return throwable
