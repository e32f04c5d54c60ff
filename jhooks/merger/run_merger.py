"""RunMerger and MergedRun (twins of org.jhooks.merger), after TF's ``_HookedSession.run``.

Fetches are de-duplicated (tensorflow-java rejects a name fetched twice); feeds are united with two
distinct conflict errors raised before anything runs; options merge by ``RunOptions.merge``. Add
each hook's args in registration order: a two-hook conflict is raised at the hook that causes it,
so later hooks' ``beforeSessionRun`` is not called, as in TensorFlow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jhooks.api import nest
from jhooks.api.errors import CallerFeedConflictError, HookFeedConflictError
from jhooks.api.run_args import RunOptions, SessionRunArgs


class MergedRun:
    """Unique tensor fetches and targets, united feeds, merged options, and the way back."""

    def __init__(
        self,
        tensorFetches: list[str],
        targets: list[str],
        feeds: dict[str, Any],
        options: RunOptions | None,
        callerFetches: Any,
        hookFetches: list[Any],
    ) -> None:
        self.tensorFetches = tensorFetches
        self.targets = targets
        self.feeds = feeds
        self.options = options
        self._caller_fetches = callerFetches
        self._hook_fetches = hookFetches

    @property
    def hookCount(self) -> int:
        return len(self._hook_fetches)

    def callerResults(self, valueOf: Callable[[str], Any]) -> Any:
        """The caller's structure with ``valueOf(tensorName)`` leaves and None for targets."""
        return _rebuild(self._caller_fetches, valueOf)

    def hookResults(self, position: int, valueOf: Callable[[str], Any]) -> Any:
        """The structure the hook at ``position`` asked for, or None if it asked for nothing."""
        return _rebuild(self._hook_fetches[position], valueOf)


def _rebuild(structure: Any, valueOf: Callable[[str], Any]) -> Any:
    return nest.map_structure(structure, lambda n: valueOf(n) if nest.is_tensor_name(n) else None)


class RunMerger:
    """Use one per run: ``add`` each hook's args in registration order, then ``finish``."""

    def __init__(self, callerArgs: SessionRunArgs) -> None:
        self._caller = callerArgs
        self._hook_args: list[SessionRunArgs | None] = []
        self._hook_feeds: dict[str, Any] = {}
        self._feeder_of: dict[str, str] = {}
        self._hook_options: RunOptions | None = None

    def add(self, hookName: str, args: SessionRunArgs | None) -> None:
        """Raises HookFeedConflictError when the hook feeds a tensor another hook feeds."""
        if args is not None:
            for tensor, value in args.feeds.items():
                first = self._feeder_of.get(tensor)
                if first is not None:
                    raise HookFeedConflictError(tensor, first, hookName)
                self._feeder_of[tensor] = hookName
                self._hook_feeds[tensor] = value
            self._hook_options = RunOptions.merge(self._hook_options, args.options)
        self._hook_args.append(args)

    def finish(self) -> MergedRun:
        """Raises CallerFeedConflictError when a hook feeds a tensor the caller feeds."""
        for tensor, hook in self._feeder_of.items():
            if tensor in self._caller.feeds:
                raise CallerFeedConflictError(tensor, hook)
        feeds = dict(self._caller.feeds)
        feeds.update(self._hook_feeds)
        tensors: dict[str, None] = {}
        targets: dict[str, None] = {}
        structures = [self._caller.fetches] + [a.fetches for a in self._hook_args if a is not None]
        for structure in structures:
            for name in nest.flatten(structure):
                (tensors if nest.is_tensor_name(name) else targets)[name] = None
        return MergedRun(
            list(tensors),
            list(targets),
            feeds,
            RunOptions.merge(self._caller.options, self._hook_options),
            self._caller.fetches,
            [None if a is None else a.fetches for a in self._hook_args],
        )
