"""jhooks' Java entry points called directly from Python raise what :func:`call_java` makes of their
exceptions (docs/bridge.md, "Exceptions").

A Python program driving the JVM ``MonitoredSession`` through JPype calls
``MonitoredSession.builder(graph)...build()``, ``session.run(...)`` and ``session.close()``
itself, not through the bridge's ``call_java``. Without this, a Python hook's or listener's
exception raised inside such a call reaches that Python caller as the Java carrier
(``org.jhooks.bridge.PythonException``) and a jhooks error as its Java twin; with it, as the
original Python object (identity, ``__cause__``, traceback, the Java stack as a note), a Java
hook's jhooks error as its Python twin, a ``sys.exit`` or signal as the process's ending. The
methods in :data:`ENTRY_POINTS` are the ones that run hooks and listeners (``begin`` and
``afterCreateSession`` run in ``build()``, ``end`` and the savers' last save in ``close()``).
"""

from __future__ import annotations

from jhooks.bridge.backend.choice import current
from jhooks.bridge.process.calls import call_java

#: Java class (a nested class as JPype names it: ``Outer.Inner``) -> its methods that run hooks.
ENTRY_POINTS: dict[str, tuple[str, ...]] = {
    "org.jhooks.tf.MonitoredSession": ("run", "runStepFn", "runWithoutHooks", "close"),
    "org.jhooks.tf.MonitoredSession.Builder": ("build",),
    "org.jhooks.tf.MonitoredTrainingSession.Builder": ("build",),
}

_installed = False


def install() -> None:
    """Converts the exceptions of direct calls of :data:`ENTRY_POINTS`; idempotent."""
    global _installed
    if not _installed:
        for class_name, methods in ENTRY_POINTS.items():
            current().convert_calls(class_name, methods, call_java)
        _installed = True
