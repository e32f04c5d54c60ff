"""Checking a user's own hook with the conformance suite (``python -m jhooks conformance
--hook-factory``): the user's hook runs alongside each scenario's hooks, registered last, wrapped
so that any exception it raises is recorded (and still propagates). The case passes when the
scenario's expectations still hold (the scripted hooks' traces and results, the outcome, the
checkpoints are unaffected) and the user's hook raised nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from jhooks.api.hook import Hook, hook_name
from jhooks.api.model import ModelDependentHook


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


class GuardedHook(Hook):
    """Forwards every callback to ``hook`` and records (callback, exception) for each it raises."""

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
    """Makes a fresh guarded user hook per case (``extraHooks``) and checks it raised nothing (``check``)."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._current: list[GuardedHook] = []

    def extraHooks(self, recorder: Any) -> list[Any]:
        hook = self._factory()
        guarded = GuardedModelDependentHook(hook) if isinstance(hook, ModelDependentHook) else GuardedHook(hook)
        self._current = [guarded]
        return [guarded]

    def check(self, observation: Any) -> list[str]:
        return [
            f"your hook {hook_name(g.hook)} raised in {callback}: {type(e).__name__}: {e}"
            for g in self._current
            for callback, e in g.raised
        ]
