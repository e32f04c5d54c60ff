"""``to_tf_hooks``: jhooks hooks as TF SessionRunHooks; consecutive hooks that offer the same batch
factory (:mod:`jhooks.tf.hook_batch`: the bridge's Java hooks) become one :class:`TfHookGroup`.

Each hook of a group keeps its own :class:`TfHookAdapter` (name, callbacks other than the per-run
ones). The group's per-run callbacks are one batch call each (more when hooks return new args, see
below), and its :class:`~jhooks.tf.run_plan.RunPlan` checks, resolves and merges what the hooks ask
for. Observable behaviour is that of the separate adapters in TensorFlow's hook loop: callbacks run
in order; an exception in hook k stops the loop there and propagates as from hook k's own adapter
(:func:`jhooks.tf.adapter.hook_failure`); a hooked run of the session from inside a callback is
refused (:func:`jhooks.tf.adapter.check_not_reentrant`); a hook's ``beforeSessionRun`` args are
checked (feed conflicts with any earlier jhooks hook of the run, names, feed values) before the next
hook is called, except args a hook returned again, which passed before. The group's one TF request is
the hooks' requests merged by :class:`jhooks.merger.RunMerger` (fetches de-duplicated, feeds united,
RunOptions merged) and each hook gets its own structure back (``MergedRun.hookResults``). One
difference (docs/python-driver.md): TensorFlow checks the group's feeds against earlier TF-native
hooks' feeds when the whole group has returned, so such a conflict is raised after the group's later
hooks' ``beforeSessionRun``, not right after the hook that fed the tensor.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import tensorflow as tf

from jhooks.api.model import ModelInstance
from jhooks.api.run_args import SessionRunValues
from jhooks.tf.adapter import TfHookAdapter, check_not_reentrant, enter_callback, leave_callback, raise_hook_failure
from jhooks.tf.hook_batch import BeforeResult, HookBatch, HookBatchFactory, factory_of
from jhooks.tf.run_plan import RunPlan, plan_for


class TfHookGroup(tf.compat.v1.train.SessionRunHook):
    """Runs ``members`` (the adapters of consecutive hooks) as one TF SessionRunHook whose per-run
    callbacks ``batch`` makes (see the module docstring)."""

    def __init__(self, members: list[TfHookAdapter], batch: HookBatch) -> None:
        self.members = members
        self.batch = batch
        self._plan: RunPlan | None = None  # the fast path on the session's graph

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
        members, batch = self.members, self.batch
        for m in members:
            m.calling("beforeSessionRun")
        members[0].run_started()
        ctx = members[0].context_of(run_context)
        plan = plan_for(self._plan, run_context.session.graph, members, merge=True)
        if plan is not self._plan:
            if self._plan is not None:
                batch.forget()  # another graph: no args a hook returned before count as checked
            self._plan = plan
        plan.start()
        count = len(members)
        start = 0
        while start < count:
            try:
                got: BeforeResult = batch.beforeSessionRun(ctx, start)
            except BaseException as e:  # noqa: B902 - re-raised as from the hook that raised it
                raise_hook_failure(self._member(start).name, "beforeSessionRun", e)
            index = got.index
            try:
                if got.repeated:
                    for i in range(start, min(index, count)):
                        if got.repeated >> i & 1:
                            plan.repeat(ctx, i)
                if index < count and got.args is not None:
                    plan.accept(ctx, index, got.args)  # before the next hook is called
            except BaseException:
                batch.forget()  # these args were not accepted: every hook's cross anew next time
                raise
            start = index + 1
        return plan.request()

    def after_run(self, run_context: Any, run_values: Any) -> None:
        outer = enter_callback(lambda: self._member().name, "afterSessionRun", run_context.session)
        try:
            self._after_run(run_context, run_values)
        finally:
            leave_callback(outer)
        self.members[0].run_finished(run_context)

    def _after_run(self, run_context: Any, run_values: Any) -> None:
        members = self.members
        for m in members:
            m.calling("afterSessionRun")
        ctx = members[0].context_of(run_context)
        values: list[SessionRunValues] = []
        try:
            if self._plan is not None:
                self._plan.values(ctx, run_values, values)
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


def to_tf_hooks(hooks: Iterable[Any], modelInstance: ModelInstance | None = None) -> list[Any]:
    """``hooks`` in the same order, jhooks Hooks wrapped in TfHookAdapter, TF hooks unchanged.

    Two or more consecutive hooks whose ``batchFactory()`` is the same factory
    (:class:`jhooks.tf.hook_batch.Batchable`: plain :class:`jhooks.bridge.JavaHook` s) become one
    :class:`TfHookGroup`, whose per-run callbacks are one batch call each; what the hooks and the
    caller observe is unchanged but for the module docstring's one difference (docs/bridge.md,
    "Crossing costs").

    Raises HookValidationError for an object that is neither (naming it).
    """
    out: list[Any] = []
    run: list[Any] = []
    run_batch: HookBatchFactory | None = None

    def flush() -> None:
        if len(run) > 1 and run_batch is not None:
            out.append(TfHookGroup([TfHookAdapter(h, modelInstance) for h in run], run_batch(list(run))))
        else:
            out.extend(TfHookAdapter(h, modelInstance) for h in run)
        run.clear()

    for h in hooks:
        batch = None if isinstance(h, tf.compat.v1.train.SessionRunHook) else factory_of(h)
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
