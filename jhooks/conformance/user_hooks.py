"""Checking a user's own hook with the conformance suite (``python -m jhooks conformance
--hook-factory`` / ``--java-hook-factory``): the user's hook, Python or Java, runs alongside each
scenario's hooks under every driver, registered last, wrapped so that any exception it raises is
recorded (and still propagates). The case passes when the
scenario's expectations still hold (the scripted hooks' traces and results, the outcome, the
checkpoints are unaffected) and the user's hook raised nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from jhooks.api.hook import Described, Hook, hook_name
from jhooks.api.model import ModelDependentHook
from jhooks.api.validation import HookValidationError, validate_hook


def load_callable(spec: str) -> Callable[..., Any]:
    """``"package.module:callable"`` -> the callable; ValueError for a malformed spec."""
    module, sep, attr = spec.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"expected 'module:callable', got {spec!r}")
    target: Any = importlib.import_module(module)
    for part in attr.split("."):
        target = getattr(target, part)
    if not callable(target):
        raise ValueError(f"{spec} is not callable")
    return target


class GuardedHook(Hook, Described):
    """Forwards every callback (and ``onError``, and ``close`` when the hook has one) to ``hook``
    and records (callback, exception) for each it raises; messages name the user's hook. Twin of
    ``org.jhooks.conformance.GuardedHook``."""

    def __init__(self, hook: Any) -> None:
        self.hook = hook
        self.raised: list[tuple] = []

    def _call(self, callback: str, *args: Any) -> Any:
        try:
            return getattr(self.hook, callback)(*args)
        except BaseException as e:
            self.raised.append((callback, e))
            raise

    def beginSession(self) -> None:
        self._call("beginSession")

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        self._call("afterCreateSession", session, coord)

    def beforeSessionRun(self, runContext: Any) -> Any:
        return self._call("beforeSessionRun", runContext)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        self._call("afterSessionRun", runContext, runValues)

    def end(self, session: Any) -> None:
        self._call("end", session)

    def onError(self, session: Any, error: BaseException) -> None:
        self._call("onError", session, error)

    def close(self) -> None:
        if callable(getattr(self.hook, "close", None)):
            self._call("close")

    def describe(self) -> str:
        if isinstance(self.hook, Described):
            return self.hook.describe()
        cls = type(self.hook)
        return f"{cls.__module__}.{cls.__qualname__}"

    def __repr__(self) -> str:
        return f"GuardedHook({self.hook!r})"


class GuardedModelDependentHook(GuardedHook, ModelDependentHook):
    """A GuardedHook around a ModelDependentHook: the driver's modelInstance goes to the user's hook."""

    @property
    def modelInstance(self) -> Any:
        return self.hook.modelInstance

    @modelInstance.setter
    def modelInstance(self, instance: Any) -> None:
        self.hook.modelInstance = instance


class UserHookCheck:
    """Makes a fresh guarded user hook per case (``extraHooks``) and checks it raised nothing
    (``check``): a Python hook from ``factory`` (a callable returning a jhooks Hook) and/or a Java
    hook from ``javaFactory`` (``com.example.MakeHook`` or ``com.example.MakeHook::create``, see
    ``org.jhooks.conformance.UserHooks``; its class must be on the JVM's classpath).

    ``extraHooks(side)`` gives the hooks in the form the driver takes: ``"python"`` jhooks hooks
    (the Java hook as a ``jhooks.bridge.JavaHook``), ``"java"`` ``org.jhooks.Hook`` objects (the
    Python hook through ``jhooks.bridge.as_java_hook``). Each is guarded in its own language
    (:class:`GuardedHook`, ``org.jhooks.conformance.GuardedHook``), so what it raises is recorded
    where it happens, before any crossing.
    """

    def __init__(self, factory: Callable[[], Any] | None = None, javaFactory: str | None = None) -> None:
        if factory is None and javaFactory is None:
            raise ValueError("UserHookCheck needs a Python factory, a Java factory spec or both")
        self._factory = factory
        self._javaSpec = javaFactory
        self._javaFactory: Any = None
        self._current: list[GuardedHook] = []
        self._currentJava: list[Any] = []

    def javaFactory(self) -> Any:
        """The Java ``Supplier<Hook>`` of ``javaFactory`` (resolved once; starts the JVM)."""
        if self._javaFactory is None:
            from jhooks.bridge import java_class
            from jhooks.bridge.backend.choice import current
            from jhooks.conformance.jars import start_jvm

            start_jvm()
            class_name = self._javaSpec.split("::", 1)[0] if self._javaSpec else ""
            java_class(class_name)  # starts the JVM; JavaClassNotFoundError naming the classpath
            loader = current().class_object(class_name).getClassLoader()
            self._javaFactory = java_class("org.jhooks.conformance.UserHooks").factory(self._javaSpec, loader)
        return self._javaFactory

    def extraHooks(self, side: str) -> list[Any]:
        out: list[Any] = []
        self._current, self._currentJava = [], []
        if self._factory is not None:
            hook = self._factory()
            if hook is None:  # the Java twin's GuardedHook.of says the same
                raise HookValidationError("the hook factory returned None, not a Hook")
            validate_hook(hook)  # as a driver checks hooks at registration (the guard would hide it)
            guarded = GuardedModelDependentHook(hook) if isinstance(hook, ModelDependentHook) else GuardedHook(hook)
            self._current.append(guarded)
            if side == "python":
                out.append(guarded)
            else:
                from jhooks.bridge import as_java_hook

                out.append(as_java_hook(guarded))
        if self._javaSpec is not None:
            from jhooks.bridge import java_class

            guard = java_class("org.jhooks.conformance.GuardedHook").of(self.javaFactory().get())
            self._currentJava.append(guard)
            if side == "python":
                from jhooks.bridge import JavaHook

                out.append(JavaHook(guard))
            else:
                out.append(guard)
        return out

    def check(self, observation: Any) -> list[str]:
        mismatches = [
            f"your hook {hook_name(g.hook)} raised in {callback}: {type(e).__name__}: {e}"
            for g in self._current
            for callback, e in g.raised
        ]
        if self._currentJava:
            from jhooks.bridge import java_class

            raised_by = java_class("org.jhooks.conformance.GuardedHook").raisedBy
            mismatches += [str(line) for g in self._currentJava for line in raised_by(g)]
        return mismatches
