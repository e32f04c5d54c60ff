"""Python hooks for the JVM: the ``org.jhooks.python.PythonHooks.Loader`` the JVM asks for them.

:func:`install_hooks` makes hook objects built in Python what ``PythonHooks.fromCommandLine()``
returns (for a caller that runs the app itself and reads the hooks' results afterwards); the app
makes more with ``PythonHooks.load("module:Class", args...)`` (:mod:`jhooks.bridge.launcher.specs`).
Both backends: the launcher installs it under JPype, ``EmbeddedPython.start()`` under jep
(:mod:`jhooks.bridge.launcher.embedded`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener
from jhooks.bridge.backend.choice import current
from jhooks.bridge.hooks.python_hooks import as_java_hook, as_java_listener
from jhooks.bridge.launcher.specs import instantiate
from jhooks.bridge.process import jvm
from jhooks.bridge.process.calls import python_errors


class _Loader:
    """What the Java ``PythonHooks.Loader`` proxy calls."""

    def __init__(self, hooks: list[Any]) -> None:
        self.hooks = hooks

    @python_errors
    def commandLineHooks(self) -> Any:
        out = current().jclass("java.util.ArrayList")()
        for h in self.hooks:
            out.add(h)
        return out

    @python_errors
    def loadHook(self, spec: Any, args: Any) -> Any:
        return as_java_hook(instantiate(str(spec), list(args or []), Hook))

    @python_errors
    def loadListener(self, spec: Any, args: Any) -> Any:
        return as_java_listener(instantiate(str(spec), list(args or []), CheckpointSaverListener))


def install_hooks(hooks: Sequence[Hook]) -> list[Any]:
    """Makes ``hooks`` (jhooks.Hook objects) what ``PythonHooks.fromCommandLine()`` returns on the
    JVM, in order, as ``--hook`` does; ``PythonHooks.load`` works too. Replaces any earlier
    installation. Starts the JVM if needed; returns the Java hooks.

    Raises jhooks.HookValidationError for an object that is not a usable jhooks.Hook.
    """
    jvm.ensure_running()
    java_hooks = [as_java_hook(h) for h in hooks]
    install_loader(java_hooks)
    return java_hooks


def install_loader(java_hooks: Sequence[Any]) -> None:
    """Installs the ``org.jhooks.python.PythonHooks.Loader`` that builds hooks from specs, with
    ``java_hooks`` (Java hooks) as the command line's; both backends (the jep backend's start)."""
    backend = current()
    loader = backend.proxy("org.jhooks.python.PythonHooks$Loader", _Loader(list(java_hooks)))
    backend.jclass("org.jhooks.python.PythonHooks").install(loader)


def uninstall_hooks() -> None:
    """Removes the installed hooks; ``PythonHooks.available()`` is false again (with the launcher)."""
    current().jclass("org.jhooks.python.PythonHooks").install(None)


def install(hook_specs: Sequence[str]) -> list[Any]:
    """Instantiates the ``--hook`` classes and installs them (:func:`install_hooks`)."""
    return install_hooks([instantiate(spec, [], Hook) for spec in hook_specs])
