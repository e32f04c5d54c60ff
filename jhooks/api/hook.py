"""`Hook`: the five callbacks around a monitored session (twin of org.jhooks.Hook).

Mirrors TensorFlow's ``tf.compat.v1.train.SessionRunHook`` with camelCase names; the lifecycle
and exception rules are in docs/contract.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues
    from jhooks.api.session import Coordinator, Session


class Hook:
    """Base class for jhooks hooks; every callback is a no-op by default.

    Drivers call :meth:`beginSession`, whose default calls :meth:`begin` (the seed's name), so a
    hook may override either.
    """

    def begin(self) -> None:
        """Called once before the session is created; the graph may still be extended here."""

    def beginSession(self) -> None:
        """Called by drivers once before the first session exists. The default calls begin()."""
        self.begin()

    def afterCreateSession(self, session: "Session", coord: "Coordinator") -> None:
        """Called after every session creation, including re-creation during recovery.

        ``session`` is the raw session view (a run through it does not fire hooks).
        """

    def beforeSessionRun(self, runContext: "SessionRunContext") -> Optional["SessionRunArgs"]:
        """Called before each run in registration order; returns what to add, or None."""
        return None

    def afterSessionRun(self, runContext: "SessionRunContext", runValues: "SessionRunValues") -> None:
        """Called after each successful run in registration order (not reversed).

        ``runValues.results`` has exactly the structure of the fetches this hook asked for.
        """

    def end(self, session: "Session") -> None:
        """Called once when the monitored session closes normally or on end of input.

        Not called when it closes because of any other error.
        """

    def __repr__(self) -> str:
        return f"{type(self).__module__}.{type(self).__qualname__}"


class Described:
    """A hook that stands for another one (a bridge wrapper): messages name it by
    :meth:`describe` instead of its own class. Twin of ``org.jhooks.Described``."""

    def describe(self) -> str:
        """The label of the hook this object stands for, e.g. ``com.example.MyHook, Java``."""
        raise NotImplementedError


def hook_name(hook: Any, position: Optional[int] = None) -> str:
    """How messages name a hook: ``hook #i (module.Class)``, or the class alone; a
    :class:`Described` hook by its ``describe()``: ``hook #2 (com.example.MyHook, Java)``, or
    ``hook (com.example.MyHook, Java)`` without a position."""
    if isinstance(hook, Described):
        return f"hook {'' if position is None else f'#{position} '}({hook.describe()})"
    cls = type(hook)
    label = f"{cls.__module__}.{cls.__qualname__}"
    return label if position is None else f"hook #{position} ({label})"
