"""Hook validation at registration (after pluggy): wrong signatures and TF snake_case names; a
callback assigned on an instance is checked at its first call (``jhooks.api.callbacks``)."""

from __future__ import annotations

import warnings
from typing import Any

from jhooks.api.callbacks import CALLBACKS, PatchedCallback, wrong_signature
from jhooks.api.errors import HookValidationError
from jhooks.api.hook import Hook

__all__ = ["HookValidationError", "SnakeCaseHookWarning", "validate_hook"]

# TensorFlow's snake_case names -> the jhooks callback
SNAKE_CASE = {
    "after_create_session": "afterCreateSession",
    "before_run": "beforeSessionRun",
    "after_run": "afterSessionRun",
}


class SnakeCaseHookWarning(UserWarning):
    """A jhooks hook defines a TensorFlow snake_case callback that jhooks never calls."""


def validate_hook(hook: Any) -> None:
    """Checks a hook before a driver registers it.

    Raises HookValidationError when ``hook`` is not a jhooks Hook or an overridden callback cannot
    take the contract's parameters; warns SnakeCaseHookWarning for ``before_run`` and friends.
    """
    name = f"{type(hook).__module__}.{type(hook).__qualname__}"
    if not isinstance(hook, Hook):
        raise HookValidationError(f"{name} is not a jhooks.Hook; subclass jhooks.Hook (camelCase callbacks)")
    for method in CALLBACKS:
        func = getattr(hook, method)
        if isinstance(func, PatchedCallback) or getattr(type(hook), method, None) is getattr(Hook, method):
            continue  # assigned on the instance (checked at its first call), or not overridden
        error = wrong_signature(hook, method, func)
        if error is not None:
            raise error
    for snake, camel in SNAKE_CASE.items():
        if callable(getattr(hook, snake, None)):
            signature = ", ".join(("self",) + CALLBACKS[camel])
            warnings.warn(
                f"{name}.{snake} is TensorFlow's name and is never called on a jhooks hook; "
                f"rename it to {camel}({signature})",
                SnakeCaseHookWarning,
                stacklevel=2,
            )
