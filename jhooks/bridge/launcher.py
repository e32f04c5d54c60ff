"""Runs a JVM application's ``main`` in this Python process with Python hooks available to it.

``python -m jhooks java [--classpath CP] MAIN_CLASS [--hook MODULE:CLASS]... [-- APP_ARGS...]``
starts the JVM (jhooks.bridge.jvm, one TensorFlow runtime), appends CP, instantiates each
``--hook`` class with no arguments, installs a ``org.jhooks.python.PythonHooks.Loader`` and
calls ``MAIN_CLASS.main(APP_ARGS)``; Java and Python log records share Python's ``logging``, INFO
shown unless a hook module configured logging (jhooks.bridge.console, docs/logging.md).
:func:`install_hooks` installs hook objects built in Python instead (for a caller that runs the
app itself and reads the hooks' results afterwards). The app gets the hooks with
``PythonHooks.fromCommandLine()`` or makes more with ``PythonHooks.load("module:Class", args...)``.

A spec names code that is imported and run: take specs only from a trusted source. Before
anything is called the target must be a jhooks.Hook (or CheckpointSaverListener) subclass, or a
factory annotated to return one (:func:`checked_target`). See docs/bridge.md, "Launcher".
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Sequence
from typing import Any

from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener
from jhooks.bridge import arrays, console, jvm
from jhooks.bridge.backend import current
from jhooks.bridge.exceptions import from_java, java_stack_trace, python_errors, signal_exit, type_name
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
        missing = getattr(e, "name", None)
        if missing is not None and (module_name == missing or module_name.startswith(missing + ".")):
            from jhooks.bridge.backend import embedded

            how = "PYTHONPATH=DIR java ..." if embedded() else "PYTHONPATH=DIR python -m jhooks java ..."
            fix = (
                f"put the directory that holds {missing.split('.')[0]} on PYTHONPATH ({how}) or pip install its package"
            )
        else:
            fix = "it was found, but importing it failed: fix that import (--debug shows the traceback)"
        raise LauncherError(f"hook spec {spec!r}: cannot import {module_name!r} ({e}); {fix}") from e
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise LauncherError(f"hook spec {spec!r}: {module_name} has no {attr!r}") from None
    return obj


def to_python(value: Any) -> Any:
    """A constructor argument from Java: strings, numbers and booleans become Python's, NdArrays numpy."""
    backend = current()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if backend.is_string(value):
        return str(value)
    if backend.is_instance(value, "java.lang.Boolean"):
        return bool(value.booleanValue())
    if any(backend.is_instance(value, f"java.lang.{c}") for c in ("Integer", "Long", "Short", "Byte")):
        return int(value.longValue())
    if any(backend.is_instance(value, f"java.lang.{c}") for c in ("Double", "Float")):
        return float(value.doubleValue())
    if arrays.is_ndarray(value):
        return arrays.to_numpy(value)
    return value


def _label(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', type(obj).__qualname__)}"


def _returns(factory: Any) -> Any:
    """The return annotation of ``factory``, resolved; None when it has none or it cannot be resolved."""
    import typing

    try:
        return typing.get_type_hints(factory).get("return")
    except Exception:  # an annotation naming something not importable: as if there were none
        return None


def checked_target(spec: str, target: Any, kind: type) -> Any:
    """``target`` if calling it can only make a ``kind`` (jhooks.Hook or CheckpointSaverListener): a
    ``kind`` subclass, or a factory annotated to return one (``def make(...) -> MyHook``).

    A spec names code to run, so it is checked before anything is called: ``--hook os:system``
    or ``PythonHooks.load("subprocess:call", ...)`` are refused, not run. Raises LauncherError.
    """
    wanted = f"jhooks.{kind.__name__}"
    if isinstance(target, type):
        if issubclass(target, kind):
            return target
        raise LauncherError(
            f"hook spec {spec!r} names class {_label(target)}, which is not a {wanted} subclass; nothing was called"
        )
    returns = _returns(target) if callable(target) else None
    if isinstance(returns, type) and issubclass(returns, kind):
        return target
    raise LauncherError(
        f"hook spec {spec!r} names {_label(target)}, which is neither a {wanted} subclass nor a factory "
        f"annotated to return one (def make(...) -> MyHook); nothing was called"
    )


def _instantiate(spec: str, args: Sequence[Any], kind: type) -> Any:
    factory = checked_target(spec, resolve(spec), kind)
    values = [to_python(a) for a in args]
    try:
        inspect.signature(factory).bind(*values)
    except TypeError as e:
        if not values:
            raise LauncherError(
                f"hook spec {spec!r}: {_label(factory)} cannot be built with no arguments ({e}); a --hook class is "
                "built with none: give its parameters defaults, or name a factory that passes them "
                f"(def make() -> {getattr(factory, '__name__', 'MyHook')}: ...)"
            ) from None
        raise LauncherError(
            f"hook spec {spec!r}: {_label(factory)} does not take {len(values)} arguments ({e})"
        ) from None
    except ValueError:  # no signature to inspect (a builtin): let the call say
        pass
    instance = factory(*values)
    if not isinstance(instance, kind):
        raise LauncherError(f"hook spec {spec!r} made a {type(instance).__name__}, not a jhooks.{kind.__name__}")
    return instance


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
        return as_java_hook(_instantiate(str(spec), list(args or []), Hook))

    @python_errors
    def loadListener(self, spec: Any, args: Any) -> Any:
        return as_java_listener(_instantiate(str(spec), list(args or []), CheckpointSaverListener))


def install_hooks(hooks: Sequence[Hook]) -> list[Any]:
    """Makes ``hooks`` (jhooks.Hook objects) what ``PythonHooks.fromCommandLine()`` returns on the
    JVM, in order, as ``--hook`` does; ``PythonHooks.load`` works too. Replaces any earlier
    installation. Starts the JVM if needed; returns the Java hooks.

    Raises jhooks.HookValidationError for an object that is not a usable jhooks.Hook.
    """
    current().start()
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
    return install_hooks([_instantiate(spec, [], Hook) for spec in hook_specs])


def launch(
    main_class: str, app_args: Sequence[str], hook_specs: Sequence[str] = (), extra_classpath: Sequence[str] = ()
) -> int:
    """Runs ``main_class.main(app_args)``; returns 0, or 1 after printing what the app threw.

    A ``SystemExit`` raised in a Python hook (``sys.exit(n)``), or the ``KeyboardInterrupt`` /
    ``SystemExit(143)`` of a signal (jhooks.bridge.signals), that reaches ``main``'s caller is raised
    again, so the process exits with n (130, 143)."""
    import jpype

    jvm.start(extra_classpath=extra_classpath, natives=True)
    install(hook_specs)
    console.show_info_by_default()  # after the --hook modules: they may configure logging on import
    try:
        cls = jvm.find_class(main_class)
    except jvm.JavaClassNotFoundError as e:
        raise LauncherError(f"main class: {e}") from None
    try:
        cls.main(jpype.JArray(jpype.JString)(list(app_args)))
    except jpype.JException as e:  # the Java stack trace shows Java and Python frames together
        original = from_java(e)
        if isinstance(original, (SystemExit, KeyboardInterrupt)):
            raise original from None  # a hook's sys.exit(n) or a signal: the process exits as asked
        print(f"{main_class}.main threw {type_name(e)}:\n{java_stack_trace(e)}", file=sys.stderr)
        return 1
    except RuntimeError as e:  # JPype's own failure when a signal interrupted Java: the signal wins
        ending = signal_exit(e)
        if ending is e:
            raise
        raise ending from e
    return 0
