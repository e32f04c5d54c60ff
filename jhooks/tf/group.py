"""TfJavaHookGroup: consecutive Java hooks as one TF SessionRunHook that crosses into Java once per
per-run callback (docs/bridge.md, "Crossing costs").

Each hook keeps its own :class:`TfHookAdapter` (name, run context, args checks, values); only the
calls into Java are batched by :class:`jhooks.bridge.java_hooks.JavaHookGroup`. Observable
behaviour is that of the separate adapters in TensorFlow's hook loop:

- callbacks run in order; an exception in hook k stops the loop there and propagates unchanged;
- ``beforeSessionRun`` args are checked (feed conflicts with any earlier jhooks hook of the run,
  names, feed values) right after the hook returned them, before the next hook is called;
- the group's TF request merges the hooks' requests as TensorFlow's ``_HookedSession`` would:
  fetches per hook (each hook gets its own results), feeds, RunOptions merged in hook order.
"""

from __future__ import annotations

import sys
from typing import Any, List, Optional

import tensorflow as tf

from jhooks.api.model import ModelInstance
from jhooks.api.run_args import RunOptions
from jhooks.bridge.java_hooks import JavaHookGroup
from jhooks.tf import names
from jhooks.tf.adapter import TfHookAdapter


def _tf_hook_feeds() -> dict:
    """The feeds of the hooks TensorFlow's ``_HookedSession._call_hook_before_run`` (TF 2.18) has
    called so far in this run; empty when the group is not driven by it."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "_call_hook_before_run" and isinstance(frame.f_locals.get("hook_feeds"), dict):
            return frame.f_locals["hook_feeds"]
        frame = frame.f_back
    return {}


class TfJavaHookGroup(tf.compat.v1.train.SessionRunHook):
    """Runs ``hooks`` (two or more plain :class:`jhooks.bridge.JavaHook`) as one TF SessionRunHook."""

    def __init__(self, hooks: List[Any], modelInstance: Optional[ModelInstance] = None) -> None:
        self.members = [TfHookAdapter(h, modelInstance) for h in hooks]
        self.calls = JavaHookGroup(hooks)

    def begin(self) -> None:
        for m in self.members:
            m.begin()

    def after_create_session(self, session: Any, coord: Any) -> None:
        for m in self.members:
            m.after_create_session(session, coord)

    def before_run(self, run_context: Any) -> Optional[tf.compat.v1.train.SessionRunArgs]:
        members = self.members
        for m in members:
            m._callback = "beforeSessionRun"
            m._asked = None
        ctx = members[0]._context_of(run_context)
        fetches: dict = {}
        feeds: dict = {}
        options: Optional[RunOptions] = None
        asked_options = False
        start = 0
        while start < len(members):
            index, args = self.calls.beforeSessionRun(ctx, start)
            if index >= len(members):
                break
            request = members[index]._request(run_context, ctx, args)
            if request is not None:
                if request.fetches is not None:
                    fetches[index] = request.fetches
                if request.feed_dict:
                    # TensorFlow checks each hook's feeds against earlier hooks' right after that
                    # hook's before_run; with the group it would see them only after the group.
                    earlier = _tf_hook_feeds()
                    clash = (feeds.keys() | earlier.keys()) & request.feed_dict.keys()
                    if clash:
                        raise RuntimeError(f"Same tensor is fed by two hooks. Conflict(s): {list(clash)}")
                    feeds.update(request.feed_dict)
                if args.options is not None:
                    options = RunOptions.merge(options, args.options)
                    asked_options = True
            start = index + 1
        if not fetches and not feeds and not asked_options:
            return None
        return tf.compat.v1.train.SessionRunArgs(fetches=fetches or None, feed_dict=feeds or None,
                                                 options=names.options_to_proto(options))

    def after_run(self, run_context: Any, run_values: Any) -> None:
        members = self.members
        ctx = members[0]._context_of(run_context)
        results = run_values.results
        options = names.options_from_proto(run_values.options)
        values: list = []
        unasked = None  # one SessionRunValues for every hook that asked for nothing (none is kept)
        try:
            for i, m in enumerate(members):
                m._callback = "afterSessionRun"
                if m._asked is None:
                    if unasked is None:
                        unasked = m._values(None, options, run_values.run_metadata)
                    values.append(unasked)
                    continue
                got = results.get(i) if results is not None else None
                values.append(m._values(got, options, run_values.run_metadata))
        except BaseException:
            if values:
                self.calls.afterSessionRun(ctx, values)  # the hooks before the failing one, as unbatched
            raise
        self.calls.afterSessionRun(ctx, values)

    def end(self, session: Any) -> None:
        for m in self.members:
            m.end(session)

    def __repr__(self) -> str:
        return f"TfJavaHookGroup({', '.join(m.name for m in self.members)})"
