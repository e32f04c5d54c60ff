"""TfHookAdapter: any jhooks Hook as a ``tf.compat.v1.train.SessionRunHook``.

TensorFlow drives (MonitoredSession, MonitoredTrainingSession, SingularMonitoredSession): its
recovery, end-of-input, stop and error handling are unchanged; the adapter only translates
callbacks and types. Mapping (docs/contract.md, "Names"):

- ``begin()`` -> ``hook.beginSession()`` (after preparing the graph's checkpoint saver)
- ``after_create_session(session, coord)`` -> ``afterCreateSession(TfSessionView, TfCoordinatorView)``
- ``before_run(run_context)`` -> ``beforeSessionRun(SessionRunContext)``; the returned jhooks
  SessionRunArgs become TF SessionRunArgs resolved against the session's graph
- ``after_run(run_context, run_values)`` -> ``afterSessionRun(SessionRunContext, SessionRunValues)``
- ``end(session)`` -> ``end(TfSessionView)``

Hook exceptions propagate unchanged, so e.g. an AbortedError from a callback makes TF recover.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional

import tensorflow as tf

from jhooks.api.errors import HookError, HookFeedConflictError
from jhooks.api.hook import Hook, hook_name
from jhooks.api.model import ModelDependentHook, ModelInstance
from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues
from jhooks.api.validation import validate_hook
from jhooks.tf import names, saver as graph_saver
from jhooks.tf.coordinator import TfCoordinatorView
from jhooks.tf.session_view import TfSessionView

_CONTEXT_ATTR = "_jhooks_run_context"


class TfRunContext(SessionRunContext):
    """The jhooks view of TF's ``SessionRunContext``; one per run, shared by every adapter.

    ``requestStop()`` calls ``run_context.request_stop()``; ``stopRequested`` reads TF's flag.
    ``originalArgs`` is the caller's fetches and feeds as names (TF does not pass the caller's
    options to hooks, so ``originalArgs.options`` is None); converted on first access, ValueError
    if the caller fetched something jhooks cannot name (e.g. a SparseTensor).
    """

    def __init__(self, tfContext: Any, session: TfSessionView) -> None:
        self._tf = tfContext
        self._original: Optional[SessionRunArgs] = None
        self.feeders: dict = {}  # tensor name -> the TfHookAdapter that feeds it in this run
        super().__init__(None, session)  # type: ignore[arg-type]

    @property
    def originalArgs(self) -> SessionRunArgs:  # type: ignore[override]
        if self._original is None:
            o = self._tf.original_args
            self._original = names.args_from_tf(o.fetches, o.feed_dict, getattr(o, "options", None))
        return self._original

    @originalArgs.setter
    def originalArgs(self, value: Optional[SessionRunArgs]) -> None:
        self._original = value

    def requestStop(self) -> None:
        self._tf.request_stop()

    @property
    def stopRequested(self) -> bool:
        return bool(self._tf.stop_requested)


class TfHookAdapter(tf.compat.v1.train.SessionRunHook):
    """Runs ``hook`` (a jhooks Hook) as a TF SessionRunHook.

    Raises HookValidationError at construction when the hook's callbacks have wrong signatures.
    For a ModelDependentHook, ``modelInstance`` is set here, once, before ``beginSession``; a
    ModelDependentHook without one raises HookError in ``begin()``.

    Values: results are ``np.ndarray`` (TF's numpy scalars become shape-() arrays, as the JVM
    side hands over rank-0 NdArrays), None for targets, in the structure the hook asked for.
    ``runMetadata`` is TF's RunMetadata proto when the hook asked for options, else None.
    """

    def __init__(self, hook: Hook, modelInstance: Optional[ModelInstance] = None) -> None:
        validate_hook(hook)
        self.hook = hook
        self.name = hook_name(hook)
        if modelInstance is not None and isinstance(hook, ModelDependentHook):
            hook.modelInstance = modelInstance
        self._callback = "begin"
        self._view: Optional[TfSessionView] = None
        self._asked: Optional[SessionRunArgs] = None

    def _where(self):
        return self.name, self._callback

    def _view_of(self, session: Any) -> TfSessionView:
        if self._view is None or self._view.rawSession is not session:
            self._view = TfSessionView(session, self._where)
        return self._view

    def _context_of(self, runContext: Any) -> TfRunContext:
        ctx = getattr(runContext, _CONTEXT_ATTR, None)
        if ctx is None:
            ctx = TfRunContext(runContext, self._view_of(runContext.session))
            setattr(runContext, _CONTEXT_ATTR, ctx)
        return ctx

    def begin(self) -> None:
        self._callback = "beginSession"
        if isinstance(self.hook, ModelDependentHook) and self.hook.modelInstance is None:
            raise HookError(self.name, "beginSession",
                            "is a ModelDependentHook but no ModelInstance was given to the adapter")
        graph_saver.prepare(tf.compat.v1.get_default_graph())
        self.hook.beginSession()

    def after_create_session(self, session: Any, coord: Any) -> None:
        self._callback = "afterCreateSession"
        self.hook.afterCreateSession(self._view_of(session), TfCoordinatorView(coord))

    def before_run(self, run_context: Any) -> Optional[tf.compat.v1.train.SessionRunArgs]:
        self._callback = "beforeSessionRun"
        self._asked = None
        ctx = self._context_of(run_context)
        return self._request(run_context, ctx, self.hook.beforeSessionRun(ctx))

    def _request(self, run_context: Any, ctx: TfRunContext, args: Any) -> Optional[tf.compat.v1.train.SessionRunArgs]:
        """TF's request for the ``args`` the hook's ``beforeSessionRun`` returned (checked, resolved)."""
        if args is None:
            return None
        if not isinstance(args, SessionRunArgs):
            raise HookError(self.name, "beforeSessionRun",
                            f"returned {type(args).__name__} {args!r}; expected jhooks.SessionRunArgs or None")
        for tensor in args.feeds:
            first = ctx.feeders.setdefault(tensor, self)
            if first is not self:
                raise HookFeedConflictError(tensor, first.name, self.name)
        graph = run_context.session.graph
        request = tf.compat.v1.train.SessionRunArgs(
            fetches=names.resolve_fetches(graph, args.fetches, self._where),
            feed_dict=names.resolve_feeds(graph, args.feeds, self._where),
            options=names.options_to_proto(args.options))
        self._asked = args
        return request

    def after_run(self, run_context: Any, run_values: Any) -> None:
        self._callback = "afterSessionRun"
        values = self._values(run_values.results, names.options_from_proto(run_values.options),
                              run_values.run_metadata)
        self.hook.afterSessionRun(self._context_of(run_context), values)

    def _values(self, results: Any, options: Any, run_metadata: Any) -> SessionRunValues:
        """The hook's SessionRunValues from what TF gave it (``results`` in TF's structure)."""
        asked = self._asked
        results = None if asked is None else names.normalize_results(asked.fetches, results)
        metadata = run_metadata if asked is not None and asked.options is not None else None
        return SessionRunValues(results=results, options=options, runMetadata=metadata)

    def end(self, session: Any) -> None:
        self._callback = "end"
        self.hook.end(self._view_of(session))

    def __repr__(self) -> str:
        return f"TfHookAdapter({self.name})"


def to_tf_hooks(hooks: Iterable[Any], modelInstance: Optional[ModelInstance] = None) -> List[Any]:
    """``hooks`` in the same order, jhooks Hooks wrapped in TfHookAdapter, TF hooks unchanged.

    Two or more consecutive Java hooks (:class:`jhooks.bridge.JavaHook`) become one
    :class:`TfJavaHookGroup`, whose per-run callbacks cross into Java once for the group; what the
    hooks and the caller observe is unchanged (docs/bridge.md, "Crossing costs").

    Raises HookValidationError for an object that is neither (naming it).
    """
    out: List[Any] = []
    run: List[Any] = []

    def flush() -> None:
        if len(run) > 1:
            from jhooks.tf.group import TfJavaHookGroup

            out.append(TfJavaHookGroup(run, modelInstance))
        else:
            out.extend(TfHookAdapter(h, modelInstance) for h in run)
        run.clear()

    for h in hooks:
        if _groupable(h):
            run.append(h)
            continue
        flush()
        if isinstance(h, tf.compat.v1.train.SessionRunHook):
            out.append(h)
        else:
            out.append(TfHookAdapter(h, modelInstance))
    flush()
    return out


def _groupable(hook: Any) -> bool:
    import sys

    java_hooks = sys.modules.get("jhooks.bridge.java_hooks")  # no JavaHook exists unless it is imported
    return java_hooks is not None and java_hooks.groupable(hook)

