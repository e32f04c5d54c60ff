"""Python hook objects handed to a JVM app through ``org.jhooks.python.PythonHooks``: what
``python -m jhooks java MAIN --hook module:Class`` (jhooks.bridge.launcher) installs, but with
hooks built in Python, so the caller can read their results after the app ran."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Sequence

from jhooks.bridge import jvm
from jhooks.bridge.launcher import _Loader
from jhooks.bridge.python_hooks import as_java_hook


@contextlib.contextmanager
def python_hooks_installed(hooks: Sequence[Any]) -> Iterator[None]:
    """Within the block, ``PythonHooks.fromCommandLine()`` on the JVM returns ``hooks`` (as Java
    hooks, in order; ``PythonHooks.load`` works as under the launcher); uninstalled afterwards."""
    import jpype

    jvm.start()
    loader = jpype.JProxy("org.jhooks.python.PythonHooks$Loader", inst=_Loader([as_java_hook(h) for h in hooks]))
    python_hooks = jpype.JClass("org.jhooks.python.PythonHooks")
    python_hooks.install(loader)
    try:
        yield
    finally:
        python_hooks.install(None)
