"""``to_tf_hooks``: jhooks hooks as TF SessionRunHooks; consecutive hooks whose per-run callbacks one
batch can make (the bridge's Java hooks) become one :class:`TfHookGroup`.

A hook joins a batch by a method ``_jhooks_batch()`` that returns a factory ``(hooks) ->``
:class:`HookBatch` (hooks with the same factory may share a batch) or None. The bridge's plain
``JavaHook`` returns ``jhooks.bridge.java_hooks.JavaHookGroup``, which crosses into Java once per
per-run callback for the whole batch (docs/bridge.md, "Crossing costs"); this module knows nothing
of Java.

Each hook of a group keeps its own :class:`TfHookAdapter` (name, run context, args checks, values).
Observable behaviour is that of the separate adapters in TensorFlow's hook loop: callbacks run in
order; an exception in hook k stops the loop there and propagates as from hook k's own adapter
(:func:`jhooks.tf.adapter.hook_failure`); a hooked run of the session from inside a callback is
refused (:func:`jhooks.tf.adapter.check_not_reentrant`); a hook's
``beforeSessionRun`` args are checked (feed conflicts with any earlier jhooks hook of the run,
names, feed values) before the next hook is called. The group's one TF request is the hooks'
requests merged by :class:`jhooks.merger.RunMerger` (fetches de-duplicated, feeds united, RunOptions
merged) and each hook gets its own structure back (``MergedRun.hookResults``). One difference
(docs/python-driver.md): TensorFlow checks the group's feeds against earlier TF-native hooks'
feeds when the whole group has returned, so such a conflict is raised after the group's later hooks'
``beforeSessionRun``, not right after the hook that fed the tensor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

import tensorflow as tf

from jhooks.api import nest
from jhooks.api.model import ModelInstance
from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues
from jhooks.merger import MergedRun, RunMerger
from jhooks.tf import names
from jhooks.tf.adapter import TfHookAdapter, check_not_reentrant, enter_callback, leave_callback, raise_hook_failure


class HookBatch(Protocol):
    """Makes the per-run callbacks of a fixed list of hooks, in order, in one call each."""

    def beforeSessionRun(self, runContext: SessionRunContext, start: int) -> tuple:
        """Calls hooks ``start, start + 1, ...`` until one returns args: ``(its index, its args)``,
        or ``(number of hooks, None)``. An exception stops at the hook that raised it.

        A batch may add a third item, ``repeated``: ``(i, args)`` of hooks before the index that
        returned the same args as before (the same object, already checked on this graph once),
        which it went past without returning; they are checked and merged in order here. Such a
        batch has ``forgetRepeats()``, called when a check fails or the graph changes."""
        ...

    def afterSessionRun(self, runContext: SessionRunContext, runValues: list[SessionRunValues]) -> None:
        """Calls the first ``len(runValues)`` hooks, hook i with ``runValues[i]``."""
        ...

    def position(self) -> int:
        """The index of the hook being called, or of the one whose callback raised."""
        ...


class TfHookGroup(tf.compat.v1.train.SessionRunHook):
    """Runs ``members`` (the adapters of consecutive hooks) as one TF SessionRunHook whose per-run
    callbacks ``batch`` makes (see the module docstring)."""

    def __init__(self, members: list[TfHookAdapter], batch: HookBatch) -> None:
        self.members = members
        self.batch = batch
        self._merged: MergedRun | None = None
        self._positions: list[int] = []  # member index -> its position in the merged run, or -1
        # For one finalized graph: jhooks name -> TF tensor or op (a name resolves to the same one
        # for the graph's life), and the last request made only of repeated args: (the args, by
        # member, identical objects), merged run, positions, TF request.
        self._graph: Any = None
        self._names: dict[str, Any] = {}
        self._plan: tuple | None = None

    def begin(self) -> None:
        for m in self.members:
            m.begin()

    def after_create_session(self, session: Any, coord: Any) -> None:
        for m in self.members:
            m.after_create_session(session, coord)

    def _member(self, start: int = 0) -> TfHookAdapter:
        """The member being called (or that raised), as the batch says."""
        return self.members[min(max(int(self.batch.position()), start), len(self.members) - 1)]

    def before_run(self, run_context: Any) -> tf.compat.v1.train.SessionRunArgs | None:
        check_not_reentrant(run_context.session)
        outer = enter_callback(lambda: self._member().name, "beforeSessionRun", run_context.session)
        try:
            return self._before_run(run_context)
        finally:
            leave_callback(outer)

    def _before_run(self, run_context: Any) -> tf.compat.v1.train.SessionRunArgs | None:
        members = self.members
        count = len(members)
        for m in members:
            m._callback = "beforeSessionRun"
            m._asked = None
        self._merged = None
        ctx = members[0]._context_of(run_context)
        graph = run_context.session.graph
        if graph is not self._graph or not graph.finalized:
            if self._graph is not None:
                self._forget()
            self._graph, self._names, self._plan = (graph if graph.finalized else None), {}, None
        resolved = self._names if graph.finalized else {}  # jhooks name -> TF tensor or op
        merger: RunMerger | None = None
        added = 0
        positions = self._positions = [-1] * count
        unchecked: list[tuple[int, SessionRunArgs]] = []  # repeated args, checked lazily (in order)
        fresh = False  # some hook returned new args this run
        start = 0
        while start < count:
            try:
                got = self.batch.beforeSessionRun(ctx, start)
            except BaseException as e:  # noqa: B902 - re-raised as from the hook that raised it
                raise_hook_failure(self._member(start).name, "beforeSessionRun", e)
            index, args = got[0], got[1]
            if len(got) > 2:
                unchecked.extend(got[2])
            if index < count and args is not None:
                # new args are checked before the next hook is called (repeated ones pass again)
                unchecked.append((index, args))
                fresh = True
                merger, added = self._check(ctx, graph, unchecked, merger, positions, resolved, added)
                unchecked = []
            start = index + 1
        if unchecked and not fresh:  # only repeated args: the last such request, if the same
            plan = self._plan
            if (
                plan is not None
                and len(plan[0]) == len(unchecked)
                and all(i == j and x is y for (i, x), (j, y) in zip(unchecked, plan[0]))
            ):
                for i, x in unchecked:
                    members[i]._asked = x
                self._merged, self._positions = plan[1], plan[2]
                return plan[3]
        repeated_only = list(unchecked) if not fresh else None
        if unchecked:
            merger, added = self._check(ctx, graph, unchecked, merger, positions, resolved, added)
        if merger is None:
            return None
        merged = self._merged = merger.finish()
        fetches = [resolved[n] for n in merged.tensorFetches] + [resolved[n] for n in merged.targets]
        feeds = {resolved[n]: value for n, value in merged.feeds.items()}
        request = None
        if fetches or feeds or merged.options is not None:
            request = tf.compat.v1.train.SessionRunArgs(
                fetches=fetches or None, feed_dict=feeds or None, options=names.options_to_proto(merged.options)
            )
        if repeated_only and graph.finalized:
            self._plan = (repeated_only, merged, positions, request)
        return request

    def _check(
        self,
        ctx: Any,
        graph: tf.Graph,
        pending: list[tuple[int, SessionRunArgs]],
        merger: RunMerger | None,
        positions: list[int],
        resolved: dict[str, Any],
        added: int,
    ) -> tuple[RunMerger | None, int]:
        """Checks, resolves and merges the args members returned (``(member, args)`` in order)."""
        for i, args in pending:
            m = self.members[i]
            try:
                m._accept(ctx, args)
                checked = _resolve(graph, m, args, resolved)
            except BaseException:
                self._forget()  # these args were not accepted: every hook's cross anew next time
                raise
            if merger is None:
                merger = RunMerger(SessionRunArgs())  # TensorFlow merges the caller's args
            merger.add(m.name, checked)
            positions[i] = added
            added += 1
            m._asked = args
        return merger, added

    def _forget(self) -> None:
        self._plan = None
        forget = getattr(self.batch, "forgetRepeats", None)
        if forget is not None:
            forget()

    def after_run(self, run_context: Any, run_values: Any) -> None:
        outer = enter_callback(lambda: self._member().name, "afterSessionRun", run_context.session)
        try:
            self._after_run(run_context, run_values)
        finally:
            leave_callback(outer)

    def _after_run(self, run_context: Any, run_values: Any) -> None:
        members = self.members
        ctx = members[0]._context_of(run_context)
        merged = self._merged
        value_of: Callable[[str], Any] | None = None
        if merged is not None and run_values.results is not None:
            # each fetched value made a numpy array once: hooks asking for the same tensor share it
            value_of = {n: names.to_array(v) for n, v in zip(merged.tensorFetches, run_values.results)}.__getitem__
        options = names.options_from_proto(run_values.options)
        values: list[SessionRunValues] = []
        unasked = None  # one SessionRunValues for every hook that asked for nothing (none is kept)
        try:
            for i, m in enumerate(members):
                m._callback = "afterSessionRun"
                if m._asked is None:
                    if unasked is None:
                        unasked = m._values(None, options, run_values.run_metadata)
                    values.append(unasked)
                    continue
                got = None
                if merged is not None and value_of is not None:
                    got = merged.hookResults(self._positions[i], value_of)
                values.append(m._values(got, options, run_values.run_metadata))
        except BaseException:
            if values:
                self._after(ctx, values)  # the hooks before the failing one, as unbatched
            raise
        self._after(ctx, values)

    def _after(self, ctx: Any, values: list[SessionRunValues]) -> None:
        try:
            self.batch.afterSessionRun(ctx, values)
        except BaseException as e:  # noqa: B902 - re-raised as from the hook that raised it
            raise_hook_failure(self._member().name, "afterSessionRun", e)

    def end(self, session: Any) -> None:
        for m in self.members:
            m.end(session)

    def __repr__(self) -> str:
        return f"TfHookGroup({', '.join(m.name for m in self.members)})"


def _resolve(graph: tf.Graph, member: TfHookAdapter, args: SessionRunArgs, resolved: dict[str, Any]) -> SessionRunArgs:
    """``args`` with feed values checked as TF's session checks them; every name resolved into
    ``resolved``. Raises GraphNameError naming ``member`` for a bad name or feed value."""
    where = member._where
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


def to_tf_hooks(hooks: Iterable[Any], modelInstance: ModelInstance | None = None) -> list[Any]:
    """``hooks`` in the same order, jhooks Hooks wrapped in TfHookAdapter, TF hooks unchanged.

    Two or more consecutive hooks with the same batch factory (``_jhooks_batch()``: plain
    :class:`jhooks.bridge.JavaHook` s) become one :class:`TfHookGroup`, whose per-run callbacks
    are one batch call each; what the hooks and the caller observe is unchanged but for the
    module docstring's one difference (docs/bridge.md, "Crossing costs").

    Raises HookValidationError for an object that is neither (naming it).
    """
    out: list[Any] = []
    run: list[Any] = []
    run_batch: Callable[[list[Any]], HookBatch] | None = None

    def flush() -> None:
        if len(run) > 1 and run_batch is not None:
            out.append(TfHookGroup([TfHookAdapter(h, modelInstance) for h in run], run_batch(list(run))))
        else:
            out.extend(TfHookAdapter(h, modelInstance) for h in run)
        run.clear()

    for h in hooks:
        batch = None if isinstance(h, tf.compat.v1.train.SessionRunHook) else _batch_of(h)
        if batch is not None and batch is run_batch:
            run.append(h)
            continue
        flush()
        run_batch = batch
        if batch is not None:
            run.append(h)
        elif isinstance(h, tf.compat.v1.train.SessionRunHook):
            out.append(h)
        else:
            out.append(TfHookAdapter(h, modelInstance))
    flush()
    return out


def _batch_of(hook: Any) -> Callable[[list[Any]], HookBatch] | None:
    offer = getattr(hook, "_jhooks_batch", None)
    return offer() if callable(offer) else None
