"""Errors of the TensorFlow adapter."""

from __future__ import annotations

from jhooks.api.errors import HookError


class GraphNameError(HookError):
    """A fetch or feed name does not exist in the session's graph (or cannot be used that way, e.g.
    a feed value TF would not cast to the tensor's dtype or whose shape does not fit it).

    Raised before the run; the message names the hook, the callback and the name.
    """

    def __init__(self, hook: str, callback: str, name: str, problem: str) -> None:
        super().__init__(hook, callback, f"{name!r} {problem}")
        self.name = name
