"""The JPype bridge: the JVM, arrays, exceptions and hooks crossing between Python and Java.

Importing this package starts nothing; the JVM starts on first use (jhooks.bridge.jvm.start).
See docs/bridge.md.
"""

from jhooks.bridge.construct import JavaArgumentsError, java_class
from jhooks.bridge.java_hooks import JavaCheckpointSaverListener, JavaHook, JavaModelDependentHook
from jhooks.bridge.python_hooks import as_java_hook, as_java_listener

__all__ = [
    "JavaArgumentsError",
    "JavaCheckpointSaverListener",
    "JavaHook",
    "JavaModelDependentHook",
    "as_java_hook",
    "as_java_listener",
    "java_class",
]
