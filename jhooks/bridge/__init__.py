"""The bridge: the JVM, arrays, exceptions and hooks crossing between Python and Java.

Layers, lowest first (each imports only those below it; docs/bridge.md, CONTRIBUTING.md):
``backend`` (what the bridge needs from JPype or jep, and the one this process uses), ``convert``
(values, arrays, exceptions), ``process`` (the JVM, signals, threads, console: the process's state),
``hooks`` (hooks, listeners and sessions across the bridge) and ``launcher`` (Python hooks for JVM
applications). Importing this package starts nothing; under JPype the JVM starts on first use
(jhooks.bridge.process.jvm.start). See docs/bridge.md.
"""

from jhooks.bridge.hooks.construct import JavaArgumentsError, java_class
from jhooks.bridge.hooks.java_hooks import JavaCheckpointSaverListener, JavaHook, JavaModelDependentHook
from jhooks.bridge.hooks.python_hooks import as_java_hook, as_java_listener

__all__ = [
    "JavaArgumentsError",
    "JavaCheckpointSaverListener",
    "JavaHook",
    "JavaModelDependentHook",
    "as_java_hook",
    "as_java_listener",
    "java_class",
]
