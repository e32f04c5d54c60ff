"""Hook validation at registration (after pluggy): wrong signatures and TF snake_case names."""

from __future__ import annotations

import inspect
import warnings
from typing import Any

from jhooks.api.hook import Hook

# callback -> parameter names after self, as in docs/contract.md
CALLBACKS: dict[str, tuple[str, ...]] = {
    "begin": (),
    "beginSession": (),
    "afterCreateSession": ("session", "coord"),
    "beforeSessionRun": ("runContext",),
    "afterSessionRun": ("runContext", "runValues"),
    "end": ("session",),
}

# TensorFlow's snake_case names -> the jhooks callback
SNAKE_CASE = {
    "after_create_session": "afterCreateSession",
    "before_run": "beforeSessionRun",
    "after_run": "afterSessionRun",
}


class HookValidationError(TypeError):
    """A hook cannot be registered; the message names the hook, the method and the signature."""


class SnakeCaseHookWarning(UserWarning):
    """A jhooks hook defines a TensorFlow snake_case callback that jhooks never calls."""


def _accepts(func: Any, count: int) -> bool:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return True
    try:
        sig.bind(*([None] * count))
        return True
    except TypeError:
        return False


def validate_hook(hook: Any) -> None:
    """Checks a hook before a driver registers it.

    Raises HookValidationError when ``hook`` is not a jhooks Hook or an overridden callback cannot
    take the contract's parameters; warns SnakeCaseHookWarning for ``before_run`` and friends.
    """
    name = f"{type(hook).__module__}.{type(hook).__qualname__}"
    if not isinstance(hook, Hook):
        raise HookValidationError(f"{name} is not a jhooks.Hook; subclass jhooks.Hook (camelCase callbacks)")
    for method, params in CALLBACKS.items():
        func = getattr(hook, method)
        if getattr(type(hook), method, None) is getattr(Hook, method):
            continue
        if not callable(func) or not _accepts(func, len(params)):
            expected = f"{method}(self{''.join(', ' + p for p in params)})"
            raise HookValidationError(f"{name}.{method} has the wrong signature; expected {expected}")
    for snake, camel in SNAKE_CASE.items():
        if callable(getattr(hook, snake, None)):
            signature = ", ".join(("self",) + CALLBACKS[camel])
            warnings.warn(
                f"{name}.{snake} is TensorFlow's name and is never called on a jhooks hook; "
                f"rename it to {camel}({signature})",
                SnakeCaseHookWarning,
                stacklevel=2,
            )
