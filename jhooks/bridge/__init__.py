"""The bridge: the JVM, arrays, exceptions and hooks crossing between Python and Java.

Two backends (jhooks.bridge.backend): JPype when Python hosts the process, jep when a JVM started
by plain ``java`` embeds Python. Importing this package starts nothing; under JPype the JVM starts
on first use (jhooks.bridge.jvm.start). See docs/bridge.md.
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
