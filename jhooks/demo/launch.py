"""Runs a JVM app's ``main``-like entry in this process with Python hooks handed to it through
``org.jhooks.python.PythonHooks`` — what ``python -m jhooks java ... --hook ...`` does, but with
hook objects built in Python (so the caller can read their results afterwards)."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Sequence

from jhooks.bridge import jvm
from jhooks.bridge.exceptions import python_errors
from jhooks.bridge.python_hooks import as_java_hook, as_java_listener


class _Loader:
    """What the Java proxy of ``PythonHooks.Loader`` calls."""

    def __init__(self, hooks: Sequence[Any]) -> None:
        self._hooks = [as_java_hook(h) for h in hooks]

    @python_errors
    def commandLineHooks(self) -> Any:
        import jpype

        return jpype.JClass("java.util.ArrayList")(self._hooks)

    @python_errors
    def loadHook(self, spec: Any, args: Any) -> Any:
        return as_java_hook(_instantiate(str(spec), args))

    @python_errors
    def loadListener(self, spec: Any, args: Any) -> Any:
        return as_java_listener(_instantiate(str(spec), args))


def _instantiate(spec: str, args: Any) -> Any:
    import importlib

    module, _, name = spec.partition(":")
    if not name:
        raise ValueError(f"a Python hook is named 'package.module:ClassName', got {spec!r}")
    cls = getattr(importlib.import_module(module), name)
    return cls(*[a if isinstance(a, (int, float)) else str(a) for a in (args or [])])


@contextlib.contextmanager
def python_hooks_installed(hooks: Sequence[Any]) -> Iterator[None]:
    """Within the block, ``PythonHooks.fromCommandLine()`` on the JVM returns ``hooks`` (as Java
    proxies, in order); the loader installed before is put back afterwards."""
    import jpype

    jvm.start()
    python_hooks = jpype.JClass("org.jhooks.python.PythonHooks")
    loader = jpype.JProxy("org.jhooks.python.PythonHooks$Loader", inst=_Loader(hooks))
    python_hooks.install(loader)
    try:
        yield
    finally:
        python_hooks.install(None)
