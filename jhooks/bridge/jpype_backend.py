"""The JPype backend: Python hosts the process and started the JVM (docs/bridge.md, "Backends").

Java exceptions are JPype's ``JException`` objects (Python exceptions that are also the Java
objects); arrays cross through JPype's ``convertToDirectBuffer``, a ``ByteBuffer`` over numpy
memory, so values cross in one copy (or none, for views); a proxy (``JProxy``) may be called
from any Java thread, each call taking the GIL.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jhooks.bridge.backend import Backend

_ELEMENTS = {"String": "JString", "int": "JInt", "long": "JLong", "byte": "JByte"}


class JPypeBackend(Backend):
    """:class:`~jhooks.bridge.backend.Backend` over JPype 1.7 (the JVM started by ``jhooks.bridge.jvm``)."""

    name = "jpype"
    shares_memory = True

    def __init__(self) -> None:
        import jpype
        import jpype.nio  # noqa: F401

        self.jpype = jpype
        self._classes: dict[str, Any] = {}

    def start(self, natives: bool = False) -> None:
        from jhooks.bridge import jvm

        jvm.start(natives=natives)

    def jclass(self, name: str) -> Any:
        cls = self._classes.get(name)
        if cls is None:
            cls = self._classes[name] = self.jpype.JClass(name)
        return cls

    def jstring(self, value: str) -> Any:
        return self.jpype.JString(value)

    def is_string(self, value: Any) -> bool:
        return isinstance(value, (str, self.jpype.JString))

    def jint(self, value: int) -> Any:
        return self.jpype.JInt(int(value))

    def jlong(self, value: int) -> Any:
        return self.jpype.JLong(int(value))

    def array(self, element: str, values: Any) -> Any:
        kind = getattr(self.jpype, _ELEMENTS[element])
        return self.jpype.JArray(kind)(bytes(values) if element == "byte" else list(values))

    def byte_arrays(self, items: list[bytes]) -> Any:
        jpype = self.jpype
        out = jpype.JArray(jpype.JArray(jpype.JByte))(len(items))
        for i, b in enumerate(items):
            out[i] = jpype.JArray(jpype.JByte)(b)
        return out

    def to_bytes(self, java_bytes: Any) -> bytes:
        return bytes(java_bytes)

    def proxy(self, interface: str, target: Any) -> Any:
        return self.jpype.JProxy(interface, inst=target)

    def direct_buffer(self, data: Any) -> Any:
        return self.jpype.nio.convertToDirectBuffer(data)

    def fill(self, out: np.ndarray, write: Any) -> None:
        write(self.jpype.nio.convertToDirectBuffer(out.reshape(-1).view(np.uint8)))

    def java_error(self, exc: BaseException) -> BaseException | None:
        return exc if isinstance(exc, self.jpype.JException) else None

    def wrap(self, throwable: Any) -> BaseException:
        return throwable

    def raisable(self, throwable: Any) -> BaseException:
        return throwable
