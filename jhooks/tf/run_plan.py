"""RunPlan: the per-run fast path of one TF hook made of jhooks hooks, on one graph.

A :class:`~jhooks.tf.TfHookAdapter` (one hook) and a :class:`~jhooks.tf.TfHookGroup` (consecutive
hooks run by one :class:`~jhooks.tf.hook_batch.HookBatch`) each keep one plan per graph. The plan
owns what makes every run after the first cheap, and nothing else keeps any of it:

- the graph's tensors and ops by jhooks name (for a finalized graph, whose names resolve to the
  same objects for its life; a graph still being built is resolved again every run);
- each hook's args as last accepted: type-checked, names resolved, feed values checked. A hook that
  returns fetch-only args with the same names again (the same object, as
  :meth:`jhooks.SessionRunArgs.of` gives, or equal ones) is not checked again; a batch reports such
  hooks without returning their args (:attr:`~jhooks.tf.hook_batch.BeforeResult.repeated`). Args
  with feeds are checked every run (their values change);
- the TF request of the last run, reused while no hook's args need checking (each asks for
  nothing, or for the same fetch-only names, as then); for a group, the merged run it was made
  from (:class:`jhooks.merger.RunMerger`: fetches de-duplicated, feeds united, options merged),
  which gives each hook its own structure back.

A plan with one member and no merging (an adapter's) asks TF for the hook's own structure, as
TensorFlow's own hooks do.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import is_
from typing import Any, Protocol

import tensorflow as tf

from jhooks.api import nest
from jhooks.api.run_args import SessionRunArgs, SessionRunValues
from jhooks.merger import MergedRun, RunMerger
from jhooks.tf import names


class Member(Protocol):
    """What a plan needs of each hook's adapter (:class:`~jhooks.tf.TfHookAdapter`)."""

    name: str

    def where(self) -> tuple[str, str]:
        """The hook and its current callback, for the errors of a name or value that fails."""
        ...

    def check_args(self, ctx: Any, args: Any) -> None:
        """Raises what :meth:`~jhooks.tf.TfHookAdapter.check_args` raises for ``args``."""
        ...


def _key(args: SessionRunArgs) -> Any:
    """A value key for fetch-only args (one name, or a list/tuple of names), else None."""
    if args.feeds or args.options is not None:
        return None
    fetches = args.fetches
    if type(fetches) is str:
        return fetches
    if isinstance(fetches, (list, tuple)) and all(type(f) is str for f in fetches):
        return (type(fetches), tuple(fetches))
    return None


class RunPlan:
    """The fast path of ``members`` (in order) on ``graph``; see the module docstring.

    Per run: :meth:`start`, then each member's :meth:`accept` (new args) or :meth:`repeat` (its
    accepted args again) in order, then :meth:`request` for TF, and after the run :meth:`values`.
    """

    def __init__(self, graph: tf.Graph, members: Sequence[Member], merge: bool) -> None:
        self.graph = graph
        self._members = members
        self._merge = merge
        count = len(members)
        self._final = graph.finalized  # names resolve to the same objects for the graph's life
        self._names: dict[str, Any] = {}  # jhooks name -> TF tensor or op
        self.asked: list[SessionRunArgs | None] = [None] * count  # this run's args, by member
        self._accepted: list[SessionRunArgs | None] = [None] * count  # each member's, as last accepted
        self._checked: list[SessionRunArgs | None] = [None] * count  # ... with feed values checked
        self._keys: list[Any] = [None] * count  # ... their value keys (_key)
        self._tensor: list[bool] = [False] * count  # ... whether their one fetch names a tensor
        self._fresh = False  # some member's args were checked this run: no request is reused
        # The last request, made of fetch-only args only: (asked, merged run, positions, request).
        self._last: tuple[list, MergedRun | None, list[int], Any] | None = None
        self._merged: MergedRun | None = None
        self._positions: list[int] = []  # member -> its position in the merged run, or -1

    def start(self) -> None:
        """A new run: no member has asked for anything yet."""
        self.asked = [None] * len(self._members)
        self._fresh = False
        if not self._final:
            self._final = self.graph.finalized
            if not self._final:  # names may still change: resolve anew, reuse no request
                self._names = {}
                self._last = None

    def accept(self, ctx: Any, i: int, args: Any) -> None:
        """Member ``i`` returned ``args`` (not None): checked (a SessionRunArgs, feeds no other jhooks
        hook of the run feeds, names in the graph, feed values fit) unless they fetch the same names
        as the args it had accepted, without feeds or options (the same request, on a finalized
        graph). Raises HookError, HookFeedConflictError or GraphNameError naming the member."""
        if self._final and type(args) is SessionRunArgs:
            key = _key(args)
            if key is not None and key == self._keys[i]:
                self.asked[i] = self._accepted[i]  # the object the last request was made of
                return
        self._check(ctx, i, args)

    def repeat(self, ctx: Any, i: int) -> None:
        """Member ``i`` returned again the args it had accepted (a batch's repeated args)."""
        args = self._accepted[i]
        if args is None:
            raise RuntimeError(f"{self._members[i].name}: a batch repeated args that were never accepted")
        if self._final and self._keys[i] is not None:
            self.asked[i] = args
            return
        self._check(ctx, i, args)

    def _check(self, ctx: Any, i: int, args: Any) -> None:
        member = self._members[i]
        member.check_args(ctx, args)
        checked = self._resolve(member, args)
        self._accepted[i], self._checked[i], self._keys[i] = args, checked, _key(args)
        self._tensor[i] = type(args.fetches) is str and nest.is_tensor_name(args.fetches)
        self.asked[i] = args
        self._fresh = True

    def _resolve(self, member: Member, args: SessionRunArgs) -> SessionRunArgs:
        """``args`` with feed values checked as TF's session checks them; every name resolved into
        the plan. Raises GraphNameError naming ``member`` for a bad name or feed value."""
        graph, resolved, where = self.graph, self._names, member.where
        for name in nest.flatten(args.fetches):
            if name not in resolved:
                resolved[name] = names.resolve_fetch(graph, name, where)
        if not args.feeds:
            return args
        feeds = {}
        for name, value in args.feeds.items():
            ((tensor, checked),) = names.resolve_feeds(graph, {name: value}, where).items()  # type: ignore[union-attr]
            resolved[name] = tensor
            feeds[name] = checked
        return SessionRunArgs(args.fetches, feeds, args.options)

    def request(self) -> tf.compat.v1.train.SessionRunArgs | None:
        """TF's request for this run's args (None when no member asked for anything). The last
        run's when no member's args needed checking: every member asked for nothing, or for the
        same fetch-only names, as then."""
        last = self._last
        if not self._fresh and last is not None and all(map(is_, self.asked, last[0])):
            self._merged, self._positions = last[1], last[2]
            return last[3]
        request = self._merged_request() if self._merge else self._own_request()
        reusable = self._final and all(a is None or self._keys[i] is not None for i, a in enumerate(self.asked))
        self._last = (self.asked, self._merged, self._positions, request) if reusable else None
        return request

    def _own_request(self) -> tf.compat.v1.train.SessionRunArgs | None:
        args, checked = self.asked[0], self._checked[0]
        if args is None or checked is None:
            return None
        resolved = self._names
        feeds = {resolved[n]: value for n, value in checked.feeds.items()}
        return tf.compat.v1.train.SessionRunArgs(
            fetches=nest.map_structure(args.fetches, resolved.__getitem__),
            feed_dict=feeds or None,
            options=names.options_to_proto(args.options),
        )

    def _merged_request(self) -> tf.compat.v1.train.SessionRunArgs | None:
        merger: RunMerger | None = None
        positions = [-1] * len(self.asked)
        added = 0
        for i, args in enumerate(self.asked):
            if args is None:
                continue
            if merger is None:
                merger = RunMerger(SessionRunArgs())  # TensorFlow merges the caller's args
            merger.add(self._members[i].name, self._checked[i])
            positions[i] = added
            added += 1
        self._positions = positions
        if merger is None:
            self._merged = None
            return None
        merged = self._merged = merger.finish()
        resolved = self._names
        fetches = [resolved[n] for n in merged.tensorFetches] + [resolved[n] for n in merged.targets]
        feeds = {resolved[n]: value for n, value in merged.feeds.items()}
        if not (fetches or feeds or merged.options is not None):
            return None
        return tf.compat.v1.train.SessionRunArgs(
            fetches=fetches or None, feed_dict=feeds or None, options=names.options_to_proto(merged.options)
        )

    def value(self, ctx: Any, runValues: Any) -> SessionRunValues:
        """The SessionRunValues of a plan of one member that does not merge (an adapter's), which
        asked for something this run: results in its structure, as :meth:`values` says."""
        args = self.asked[0]
        if args is None:
            return SessionRunValues(options=ctx.options(runValues.options))
        if args is self._accepted[0] and type(args.fetches) is str:  # one name, its kind known
            results = names.to_array(runValues.results) if self._tensor[0] else None
        else:
            results = names.normalize_results(args.fetches, runValues.results)
        return SessionRunValues(
            results=results,
            options=ctx.options(runValues.options),
            runMetadata=runValues.run_metadata if args.options is not None else None,
        )

    def values(self, ctx: Any, runValues: Any, out: list[SessionRunValues]) -> None:
        """Appends each member's SessionRunValues for TF's ``runValues`` to ``out``, in order (so
        when one cannot be made, ``out`` holds those of the members before it).

        Results are numpy arrays (TF's numpy scalars become shape-() arrays) in the structure the
        member asked for, None for targets and for a member that asked for nothing; every fetched
        tensor is one array, shared by the members that asked for it. ``runMetadata`` is TF's
        RunMetadata proto for a member that asked for options, else None.
        """
        if not self._merge:
            out.append(self.value(ctx, runValues))
            return
        options = ctx.options(runValues.options)
        metadata = runValues.run_metadata
        merged = self._merged
        value_of = None
        if merged is not None and runValues.results is not None:
            value_of = {n: names.to_array(v) for n, v in zip(merged.tensorFetches, runValues.results)}.__getitem__
        unasked = None  # one SessionRunValues for every member that asked for nothing
        for i, args in enumerate(self.asked):
            if args is None:
                if unasked is None:
                    unasked = SessionRunValues(results=None, options=options, runMetadata=None)
                out.append(unasked)
                continue
            results = None
            if merged is not None and value_of is not None:
                results = merged.hookResults(self._positions[i], value_of)
            meta = metadata if args.options is not None else None
            out.append(SessionRunValues(results=results, options=options, runMetadata=meta))


def plan_for(plan: RunPlan | None, graph: tf.Graph, members: Sequence[Member], merge: bool) -> RunPlan:
    """``plan`` when it is the plan of ``graph``, else a new one (another graph: nothing carries over)."""
    if plan is not None and plan.graph is graph:
        return plan
    return RunPlan(graph, members, merge)
