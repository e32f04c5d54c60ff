"""The hook callbacks' parameters (docs/contract.md) and their check: a hook's class is checked
when a driver registers it (``jhooks.validate_hook``), a callback assigned on a hook instance at
its first call (:class:`PatchedCallback`), with the same message."""

from __future__ import annotations

import inspect
from typing import Any

from jhooks.api.errors import HookValidationError

# callback -> parameter names after self, as in docs/contract.md
CALLBACKS: dict[str, tuple[str, ...]] = {
    "begin": (),
    "beginSession": (),
    "afterCreateSession": ("session", "coord"),
    "beforeSessionRun": ("runContext",),
    "afterSessionRun": ("runContext", "runValues"),
    "end": ("session",),
    "onError": ("session", "error"),
}


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


def wrong_signature(hook: Any, method: str, func: Any) -> HookValidationError | None:
    """The error for ``func`` called as ``hook``'s callback ``method`` (a bound method or a plain
    callable on the instance), or None when it can take the contract's parameters."""
    params = CALLBACKS[method]
    if callable(func) and _accepts(func, len(params)):
        return None
    expected = f"{method}(self{''.join(', ' + p for p in params)})"
    name = f"{type(hook).__module__}.{type(hook).__qualname__}"
    return HookValidationError(f"{name}.{method} has the wrong signature; expected {expected}")


class PatchedCallback:
    """A callback assigned on a hook instance (``hook.afterSessionRun = f``), which no driver's
    registration check sees: at its first call ``f``'s signature is checked as a class's is at
    registration (:class:`HookValidationError`, same message), then ``f`` itself replaces this
    wrapper on the instance, so later calls go straight to it. TensorFlow checks neither."""

    __slots__ = ("hook", "method", "func")

    def __init__(self, hook: Any, method: str, func: Any) -> None:
        self.hook = hook
        self.method = method
        self.func = func

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        error = wrong_signature(self.hook, self.method, self.func)
        if error is not None:
            raise error
        object.__setattr__(self.hook, self.method, self.func)
        return self.func(*args, **kwargs)
