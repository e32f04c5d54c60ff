"""Python objects named by specs (``"package.module:Name"``): the launcher's ``--hook``,
``PythonHooks.load(spec, args...)`` and ``loadListener`` on the JVM.

A spec names code that is imported and run: take specs only from a trusted source. Before
anything is called the target must be a jhooks.Hook (or CheckpointSaverListener) subclass, or a
factory annotated to return one (:func:`checked_target`). See docs/bridge.md, "Launcher".
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import typing
import warnings
from collections.abc import Sequence
from typing import Any

from jhooks.api.hook import Hook
from jhooks.api.validation import HookValidationError, validate_hook
from jhooks.bridge.backend.choice import embedded
from jhooks.bridge.convert.values import value_to_python


class LauncherError(RuntimeError):
    """A ``--hook`` spec or the main class cannot be used; the message says which and why."""


def resolve(spec: str) -> Any:
    """The object named by ``"package.module:Name"`` (``Name`` may be dotted)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        head, dot, tail = spec.rpartition(".")
        guess = f": did you mean {head + ':' + tail!r}?" if not sep and dot and head and tail else ""
        raise LauncherError(f"hook spec {spec!r} must be 'package.module:ClassName'{guess}")
    try:
        obj = importlib.import_module(module_name)
    except ImportError as e:
        missing = getattr(e, "name", None)
        if missing is not None and (module_name == missing or module_name.startswith(missing + ".")):
            how = "PYTHONPATH=DIR java ..." if embedded() else "PYTHONPATH=DIR python -m jhooks java ..."
            fix = (
                f"put the directory that holds {missing.split('.')[0]} on PYTHONPATH ({how}) or pip install its package"
            )
        else:
            fix = "it was found, but importing it failed: fix that import (--verbose shows the traceback)"
        raise LauncherError(f"hook spec {spec!r}: cannot import {module_name!r} ({e}); {fix}") from e
    done: list[str] = []
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            names = [n for n in dir(obj) if not n.startswith("_")]
            close = difflib.get_close_matches(part, names, n=1)
            fix = f"; did you mean {module_name + ':' + '.'.join(done + close)!r}?" if close else ""
            raise LauncherError(f"hook spec {spec!r}: {module_name} has no {attr!r}{fix}") from None
        done.append(part)
    return obj


def _label(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', type(obj).__qualname__)}"


def _returns(factory: Any) -> Any:
    """The return annotation of ``factory``, resolved; None when it has none or it cannot be resolved."""
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


def check(spec: str) -> None:
    """What :func:`instantiate` would refuse for a ``--hook`` spec (no arguments), found before the
    JVM starts and without calling the target: the spec's form, its import, the name, a target that
    is not a hook (:func:`checked_target`), a class or factory that needs arguments, and a hook class
    whose callback has the wrong signature (checked on an instance that ``__init__`` has not run on,
    so a class whose attributes need it is checked when it is built). Raises LauncherError."""
    factory = checked_target(spec, resolve(spec), Hook)
    _bind(spec, factory, [])
    if not isinstance(factory, type):
        return
    try:
        blank: Any = object.__new__(factory)
    except TypeError:  # a base with its own __new__: checked when built
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SnakeCaseHookWarning: given once, when the hook is built
        try:
            validate_hook(blank)
        except HookValidationError as e:
            raise LauncherError(f"hook spec {spec!r}: {e}") from e
        except Exception:  # an attribute that __init__ sets: checked when built
            return


def _bind(spec: str, factory: Any, values: list[Any]) -> None:
    """LauncherError when ``factory`` cannot be called with ``values``."""
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


def instantiate(spec: str, args: Sequence[Any], kind: type) -> Any:
    """A ``kind`` made by the target of ``spec`` (:func:`checked_target`) from ``args`` (values from
    Java, converted by ``jhooks.bridge.convert.values.value_to_python``). Raises LauncherError."""
    factory = checked_target(spec, resolve(spec), kind)
    values = [value_to_python(a) for a in args]
    _bind(spec, factory, values)
    instance = factory(*values)
    if not isinstance(instance, kind):
        raise LauncherError(f"hook spec {spec!r} made a {type(instance).__name__}, not a jhooks.{kind.__name__}")
    if kind is Hook:
        try:
            validate_hook(instance)  # a callback with the wrong parameters, said now and naming the spec
        except HookValidationError as e:
            raise LauncherError(f"hook spec {spec!r}: {e}") from e
    return instance
