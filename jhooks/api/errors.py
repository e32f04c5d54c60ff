"""Errors raised by the API and the merger (twins of the Java exceptions, with Error for Exception).

Across the bridge each becomes its twin in the caller's language, the original kept as the cause
(``jhooks.bridge.convert.error_twins``, docs/bridge.md "Exceptions").
"""

from __future__ import annotations


class HookError(RuntimeError):
    """A hook misbehaved; the message names the hook, the callback and the offending value."""

    def __init__(self, hook: str, callback: str, problem: str) -> None:
        super().__init__(f"{hook}.{callback}: {problem}")
        self.hook = hook
        self.callback = callback


class HookFeedConflictError(HookError):
    """The same tensor is fed by two hooks in one run (TF: "Same tensor is fed by two hooks")."""

    def __init__(self, tensor: str, firstHook: str, secondHook: str) -> None:
        super().__init__(
            secondHook, "beforeSessionRun", f"same tensor {tensor!r} is fed by two hooks: {firstHook} and {secondHook}"
        )
        self.tensor = tensor
        self.firstHook = firstHook


class CallerFeedConflictError(HookError):
    """The same tensor is fed by a hook and the caller (TF: "... fed by a SessionRunHook and user")."""

    def __init__(self, tensor: str, hook: str) -> None:
        super().__init__(hook, "beforeSessionRun", f"same tensor {tensor!r} is fed by {hook} and by the caller")
        self.tensor = tensor


class HookValidationError(TypeError):
    """A hook cannot be registered or called: it is not a jhooks hook, or a callback cannot take
    the contract's parameters; the message names the hook, the method and the expected signature.
    Python only: Java's compiler checks callback signatures."""


class SessionRunArgsError(ValueError):
    """Invalid SessionRunArgs: fetches that are not names or a nest of them, feeds that are not a
    mapping, a feed key that is not a tensor name (str). The message names the offending value.
    Raised where the args are built; a driver turns one leaving a hook's callback into a
    :class:`HookError` naming the hook and callback (this error as ``__cause__``). Twin of
    ``org.jhooks.SessionRunArgsException``.
    """
