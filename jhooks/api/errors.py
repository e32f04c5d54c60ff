"""Errors raised by the API and the merger (twins of the Java exceptions, with Error for Exception)."""

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
        super().__init__(secondHook, "beforeSessionRun",
                         f"same tensor {tensor!r} is fed by two hooks: {firstHook} and {secondHook}")
        self.tensor = tensor


class CallerFeedConflictError(HookError):
    """The same tensor is fed by a hook and the caller (TF: "... fed by a SessionRunHook and user")."""

    def __init__(self, tensor: str, hook: str) -> None:
        super().__init__(hook, "beforeSessionRun", f"same tensor {tensor!r} is fed by {hook} and by the caller")
        self.tensor = tensor
