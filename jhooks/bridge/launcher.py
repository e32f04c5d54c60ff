"""Runs a JVM application's ``main`` in this Python process with Python hooks available to it.

``python -m jhooks java [--classpath CP] MAIN_CLASS [--hook MODULE:CLASS]... [-- APP_ARGS...]``
starts the JVM (jhooks.bridge.jvm, one TensorFlow runtime), appends CP, instantiates each
``--hook`` class with no arguments, installs a ``org.jhooks.python.PythonHooks.Loader`` and
calls ``MAIN_CLASS.main(APP_ARGS)``. :func:`install_hooks` installs hook objects built in
Python instead (for a caller that runs the app itself and reads the hooks' results afterwards). The app gets the hooks with
``PythonHooks.fromCommandLine()`` or makes more with ``PythonHooks.load("module:Class", args...)``.
See docs/bridge.md, "Launcher".
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, List, Sequence

from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener
from jhooks.bridge import arrays, jvm
from jhooks.bridge.exceptions import java_stack_trace, python_errors, type_name
from jhooks.bridge.python_hooks import as_java_hook, as_java_listener


class LauncherError(RuntimeError):
    """A ``--hook`` spec or the main class cannot be used; the message says which and why."""


def resolve(spec: str) -> Any:
    """The object named by ``"package.module:Name"`` (``Name`` may be dotted)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise LauncherError(f"hook spec {spec!r} must be 'package.module:ClassName'")
    try:
        obj = importlib.import_module(module_name)
    except ImportError as e:
        raise LauncherError(f"hook spec {spec!r}: cannot import {module_name!r}: {e}") from e
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise LauncherError(f"hook spec {spec!r}: {module_name} has no {attr!r}") from None
    return obj


def to_python(value: Any) -> Any:
    """A constructor argument from Java: strings, numbers and booleans become Python's, NdArrays numpy."""
    import jpype

    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, jpype.JString):
        return str(value)
    if isinstance(value, jpype.JClass("java.lang.Boolean")):
        return bool(value.booleanValue())
    if isinstance(value, (jpype.JClass("java.lang.Integer"), jpype.JClass("java.lang.Long"),
                          jpype.JClass("java.lang.Short"), jpype.JClass("java.lang.Byte"))):
        return int(value.longValue())
    if isinstance(value, (jpype.JClass("java.lang.Double"), jpype.JClass("java.lang.Float"))):
        return float(value.doubleValue())
    if arrays.is_ndarray(value):
        return arrays.to_numpy(value)
    return value


def _instantiate(spec: str, args: Sequence[Any], kind: type) -> Any:
    cls = resolve(spec)
    instance = cls(*[to_python(a) for a in args])
    if not isinstance(instance, kind):
        raise LauncherError(f"hook spec {spec!r} made a {type(instance).__name__}, not a jhooks.{kind.__name__}")
    return instance


class _Loader:
    """What the Java ``PythonHooks.Loader`` proxy calls."""

    def __init__(self, hooks: List[Any]) -> None:
        self.hooks = hooks

    @python_errors
    def commandLineHooks(self) -> Any:
        import jpype

        out = jpype.JClass("java.util.ArrayList")()
        for h in self.hooks:
            out.add(h)
        return out

    @python_errors
    def loadHook(self, spec: Any, args: Any) -> Any:
        return as_java_hook(_instantiate(str(spec), list(args or []), Hook))

    @python_errors
    def loadListener(self, spec: Any, args: Any) -> Any:
        return as_java_listener(_instantiate(str(spec), list(args or []), CheckpointSaverListener))


def install_hooks(hooks: Sequence[Hook]) -> List[Any]:
    """Makes ``hooks`` (jhooks.Hook objects) what ``PythonHooks.fromCommandLine()`` returns on the
    JVM, in order, as ``--hook`` does; ``PythonHooks.load`` works too. Replaces any earlier
    installation. Starts the JVM if needed; returns the Java hooks.

    Raises jhooks.HookValidationError for an object that is not a usable jhooks.Hook.
    """
    import jpype

    jvm.start()
    java_hooks = [as_java_hook(h) for h in hooks]
    loader = jpype.JProxy("org.jhooks.python.PythonHooks$Loader", inst=_Loader(java_hooks))
    jpype.JClass("org.jhooks.python.PythonHooks").install(loader)
    return java_hooks


def uninstall_hooks() -> None:
    """Removes the installed hooks; ``PythonHooks.available()`` is false again."""
    import jpype

    jpype.JClass("org.jhooks.python.PythonHooks").install(None)


def install(hook_specs: Sequence[str]) -> List[Any]:
    """Instantiates the ``--hook`` classes and installs them (:func:`install_hooks`)."""
    return install_hooks([_instantiate(spec, [], Hook) for spec in hook_specs])


def launch(main_class: str, app_args: Sequence[str], hook_specs: Sequence[str] = (),
           extra_classpath: Sequence[str] = ()) -> int:
    """Runs ``main_class.main(app_args)``; returns 0, or 1 after printing what the app threw."""
    import jpype

    jvm.start(extra_classpath=extra_classpath)
    install(hook_specs)
    try:
        cls = jpype.JClass(main_class)
    except TypeError as e:
        raise LauncherError(f"main class {main_class!r} not found on the classpath: {e}") from None
    try:
        cls.main(jpype.JArray(jpype.JString)(list(app_args)))
    except jpype.JException as e:  # the Java stack trace shows Java and Python frames together
        print(f"{main_class}.main threw {type_name(e)}:\n{java_stack_trace(e)}", file=sys.stderr)
        return 1
    return 0
