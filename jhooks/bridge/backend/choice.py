"""The backend of this process: jep when this interpreter runs inside a JVM through jep (its ``_jep``
module is loaded, which standalone Python cannot load), else JPype. Chosen once, on first use;
choosing imports the backend's library but starts nothing."""

from __future__ import annotations

import sys

from jhooks.bridge.backend.protocol import Backend

_current: Backend | None = None


def embedded() -> bool:
    """Whether this interpreter is embedded in a JVM by jep (the JVM hosts the process)."""
    return "_jep" in sys.modules


def current() -> Backend:
    """The backend of this process (module docstring)."""
    global _current
    backend = _current
    if backend is None:
        if embedded():
            from jhooks.bridge.backend.jep_backend import JepBackend

            backend = _current = JepBackend()
        else:
            from jhooks.bridge.backend.jpype_backend import JPypeBackend

            backend = _current = JPypeBackend()
    return backend
