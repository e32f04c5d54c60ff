"""The extension point through which ``to_tf_hooks`` runs consecutive hooks as one TF hook.

A hook offers a batch by a method ``batchFactory()`` (:class:`Batchable`) that returns a factory
``(hooks) ->`` :class:`HookBatch`, or None to be called alone; two or more consecutive hooks whose
factories are the same object become one :class:`~jhooks.tf.TfHookGroup` driving one batch. The
bridge's plain ``JavaHook`` offers its Java hook group this way (one crossing into Java per per-run
callback for the whole group; docs/bridge.md, "Crossing costs"); this package knows nothing of Java.
Twin of ``org.jhooks.tf.HookBatch``, through which the JVM ``MonitoredSession`` drives groups of
Python hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues


@dataclass(frozen=True, slots=True)
class BeforeResult:
    """What :meth:`HookBatch.beforeSessionRun` reached (twin of ``org.jhooks.tf.HookBatch.Before``).

    ``index``: the hook that returned new args, or the batch size when none did; ``args``: those
    args, or None. ``repeated``: bit ``i`` set when hook ``i`` (between the call's ``start`` and
    ``index``) returned again the args it returned last time, which the group accepted then: they
    are not returned again, the group uses the ones it accepted.
    """

    index: int
    args: SessionRunArgs | None = None
    repeated: int = 0


class HookBatch(Protocol):
    """Makes the per-run callbacks of a fixed list of hooks, in order, in one call each.

    What the hooks and the caller observe is what separate adapters would do: callbacks in order; an
    exception stops the loop at the hook that raised it (:meth:`position`) and leaves as from that
    hook; args a hook returns are checked before the next hook is called.
    """

    def beforeSessionRun(self, runContext: SessionRunContext, start: int) -> BeforeResult:
        """Calls hooks ``start, start + 1, ...`` until one returns args that are not repeated."""
        ...

    def afterSessionRun(self, runContext: SessionRunContext, runValues: Sequence[SessionRunValues]) -> None:
        """Calls the first ``len(runValues)`` hooks, hook i with ``runValues[i]``."""
        ...

    def position(self) -> int:
        """The index of the hook being called, or of the one whose callback raised."""
        ...

    def forget(self) -> None:
        """Forgets the args hooks returned before (the group refused some, or the graph changed):
        no hook's args count as repeated in the next call."""
        ...


HookBatchFactory = Callable[[list[Any]], HookBatch]


class Batchable(Protocol):
    """A hook whose per-run callbacks a :class:`HookBatch` can make together with its neighbours'
    (twin of ``org.jhooks.tf.HookBatch.Batchable``)."""

    def batchFactory(self) -> HookBatchFactory | None:
        """The factory of the batch this hook may join, or None to be called alone."""
        ...


def factory_of(hook: Any) -> HookBatchFactory | None:
    """The batch factory ``hook`` offers (:class:`Batchable`), or None."""
    offer = getattr(hook, "batchFactory", None)
    return offer() if callable(offer) else None
