"""`Hook`: the five callbacks around a monitored session (twin of org.jhooks.Hook).

Mirrors TensorFlow's ``tf.compat.v1.train.SessionRunHook`` with camelCase names; the lifecycle
and exception rules are in docs/contract.md.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from jhooks.api.callbacks import CALLBACKS, PatchedCallback

if TYPE_CHECKING:
    from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues
    from jhooks.api.session import Coordinator, Session


class Hook:
    """Base class for jhooks hooks; every callback is a no-op by default.

    Drivers call :meth:`beginSession`, whose default calls :meth:`begin` (TensorFlow's name), so a
    hook may override either.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is not None and not hasattr(init, "__jhooks_aliases__"):
            cls.__init__ = _snake_case_aliases(init)  # type: ignore[method-assign]

    def begin(self) -> None:
        """Called once before the session is created; the graph may still be extended here."""

    def beginSession(self) -> None:
        """Called by drivers once before the first session exists. The default calls begin()."""
        self.begin()

    def afterCreateSession(self, session: Session, coord: Coordinator | None) -> None:
        """Called after every session creation, including re-creation during recovery.

        ``session`` is the raw session view (a run through it does not fire hooks). ``coord`` may
        be None (some TensorFlow code passes none, and TensorFlow's hooks accept it).
        """

    def beforeSessionRun(self, runContext: SessionRunContext) -> SessionRunArgs | None:
        """Called before each run in registration order; returns what to add, or None."""
        return None

    def afterSessionRun(self, runContext: SessionRunContext, runValues: SessionRunValues) -> None:
        """Called after each successful run in registration order (not reversed).

        ``runValues.results`` has exactly the structure of the fetches this hook asked for.
        """

    def end(self, session: Session) -> None:
        """Called once when the monitored session closes normally or on end of input.

        Not called when it closes because of any other error.
        """

    def onError(self, session: Session | None, error: BaseException) -> None:
        """Called once when the monitored session fails, before its raw session closes (no-op).

        Every hook that got ``afterCreateSession`` (in any session of this monitored session, even
        if its own ``afterCreateSession`` raised) gets it exactly once, in registration order, when
        a run or a hook callback (``afterCreateSession``, ``beforeSessionRun``, ``afterSessionRun``,
        ``end``) fails with anything but end of input, and recovery does not retry it. ``session``
        is the raw session view (runs through it fire no hooks), None when no session is open.
        What ``onError`` raises is attached to ``error`` as a note (``__notes__``; the exception
        objects in ``jhooks.api.suppressed.suppressed(error)``) and ``error`` still propagates.
        Twin of Java's ``Hook.onError``; TensorFlow has no such callback (TF #17951, #36803): under
        TF's monitored sessions use :class:`jhooks.tf.OnErrorSession` (docs/python-driver.md).
        A hook that starts a thread in ``afterCreateSession`` can stop it here.
        """

    def __repr__(self) -> str:
        return f"{type(self).__module__}.{type(self).__qualname__}"

    def __setattr__(self, name: str, value: Any) -> None:
        # A callback assigned on the instance escapes the registration check of its class; it is
        # checked at its first call instead (jhooks.api.callbacks.PatchedCallback)
        if name in CALLBACKS:
            value = PatchedCallback(self, name, value)
        super().__setattr__(name, value)

    def __getattr__(self, name: str) -> Any:
        # Only reached for names the hook does not have: TensorFlow calling a jhooks hook that was
        # not wrapped gets the fix instead of a bare "no attribute 'after_create_session'".
        if name in _TF_CALLBACKS:
            raise AttributeError(
                f"{type(self).__module__}.{type(self).__qualname__} is a jhooks hook, not a TensorFlow "
                f"SessionRunHook (TensorFlow looked up {name}): pass hooks=jhooks.tf.to_tf_hooks([...], "
                "modelInstance) to TensorFlow's monitored session",
                name=name,
                obj=self,
            )
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self)


def camel_to_snake(name: str) -> str:
    """TensorFlow's spelling of a jhooks parameter: ``everyNIter`` → ``every_n_iter``."""
    return re.sub(r"([A-Z])", r"_\1", name).lower()


def _snake_case_aliases(init: Callable[..., None]) -> Callable[..., None]:
    """``init`` also taking TensorFlow's snake_case spelling of its camelCase keyword parameters
    (``StopAtStepHook(last_step=10)`` is ``lastStep=10``); both spellings at once is a TypeError
    naming them. ``init`` itself when it has no camelCase parameter."""
    try:
        params = inspect.signature(init).parameters
    except (TypeError, ValueError):
        return init
    aliases = {
        camel_to_snake(p.name): p.name
        for p in params.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and camel_to_snake(p.name) != p.name
    }
    aliases = {snake: camel for snake, camel in aliases.items() if snake not in params}
    if not aliases:
        return init

    @functools.wraps(init)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> None:
        if kwargs and not aliases.keys().isdisjoint(kwargs):
            for snake in aliases.keys() & kwargs.keys():
                camel = aliases[snake]
                if camel in kwargs:
                    raise TypeError(
                        f"{type(self).__name__}() got both {snake!r} (TensorFlow's spelling) and {camel!r}; give one"
                    )
                kwargs[camel] = kwargs.pop(snake)
        init(self, *args, **kwargs)

    wrapper.__jhooks_aliases__ = aliases  # type: ignore[attr-defined]
    return wrapper


# TensorFlow's SessionRunHook callbacks that jhooks names differently (begin and end are the same)
_TF_CALLBACKS = frozenset({"after_create_session", "before_run", "after_run"})


class Described:
    """A hook that stands for another one (a bridge wrapper): messages name it by
    :meth:`describe` instead of its own class. Twin of ``org.jhooks.Described``."""

    def describe(self) -> str:
        """The label of the hook this object stands for, e.g. ``com.example.MyHook, Java``."""
        raise NotImplementedError


def hook_name(hook: Any, position: int | None = None) -> str:
    """How messages name a hook: ``hook #i (module.Class)``, or the class alone; a
    :class:`Described` hook by its ``describe()``: ``hook #2 (com.example.MyHook, Java)``, or
    ``hook (com.example.MyHook, Java)`` without a position."""
    if isinstance(hook, Described):
        return f"hook {'' if position is None else f'#{position} '}({hook.describe()})"
    cls = type(hook)
    label = f"{cls.__module__}.{cls.__qualname__}"
    return label if position is None else f"hook #{position} ({label})"
