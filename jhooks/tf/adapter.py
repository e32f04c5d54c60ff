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

Hook exceptions propagate unchanged, so e.g. an AbortedError from a callback makes TF recover,
with two exceptions (:func:`hook_failure`, docs/contract.md "End of input"): only an OutOfRange
raised by the caller's own run ends the input, so an ``OutOfRangeError``/``StopIteration`` leaving a
hook callback (raised by the hook, by a raw run through ``runContext.session``, by a listener or a
final op) becomes a :class:`~jhooks.api.errors.HookError` naming the hook and callback, with the
original as ``__cause__`` (TensorFlow's ``with`` block would swallow it as end of input); and a Java
``Error`` (StackOverflowError, OutOfMemoryError) from a Java hook becomes one too.
"""

from __future__ import annotations

from collections.abc import Callable
from threading import get_ident
from typing import Any, NoReturn

import tensorflow as tf

from jhooks.api import nest
from jhooks.api.errors import HookError, HookFeedConflictError, SessionRunArgsError
from jhooks.api.foreign_errors import is_fatal_foreign_error
from jhooks.api.hook import Hook, hook_name
from jhooks.api.model import ModelDependentHook, ModelInstance
from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues
from jhooks.api.validation import validate_hook
from jhooks.tf import names
from jhooks.tf import saver as graph_saver
from jhooks.tf.coordinator import TfCoordinatorView
from jhooks.tf.session_view import TfSessionView

_CONTEXT_ATTR = "_jhooks_run_context"


def hook_failure(hook: str, callback: str, error: BaseException) -> BaseException | None:
    """What leaves hook ``hook``'s ``callback`` instead of ``error``, or None for ``error`` itself.

    - End of input (``tf.errors.OutOfRangeError``, ``StopIteration``): only the caller's own run
      ends the input (docs/contract.md), so a :class:`HookError` saying where it came from.
      TensorFlow's ``with`` block would swallow the original as the end of the caller's input.
    - A Java ``Error`` (StackOverflowError, OutOfMemoryError, ...) from a Java hook: a
      :class:`HookError` naming the hook and callback (the JVM driver does the same).
    - :class:`SessionRunArgsError` (the hook built invalid args, or passed them to a raw run): a
      :class:`HookError` naming the hook, the callback and the value.

    Either way ``__cause__`` is ``error``. Everything else (AbortedError, which TensorFlow
    recovers from, a hook's own exception types) is left unchanged.
    """
    if isinstance(error, HookError):
        return None
    if isinstance(error, (tf.errors.OutOfRangeError, StopIteration)):
        what = f"{type(error).__name__} (end of input): {error}"
        return HookError(
            hook,
            callback,
            f"raised {what}. Only an OutOfRange raised by the caller's own run ends the input; one "
            "raised by a hook, its raw runs, a listener or a final op is an error (docs/contract.md)",
        )
    if isinstance(error, SessionRunArgsError):
        return HookError(hook, callback, f"made invalid SessionRunArgs: {error}")
    if is_fatal_foreign_error(error):
        return HookError(hook, callback, f"raised {error}")
    return None


# Thread -> (hook name, callback, raw TF session) of the jhooks callback running on it, so a hook
# that runs the monitored session (a hooked run) from inside its own callback gets a clear error
# instead of running the hooks again and again until the stack overflows.
_active: dict[int, tuple[Callable[[], str], str, Any]] = {}


def enter_callback(name: Callable[[], str], callback: str, session: Any) -> Any:
    """Marks a hook callback on ``session`` as running on this thread; returns what
    :func:`leave_callback` needs."""
    tid = get_ident()
    outer = _active.get(tid)
    _active[tid] = (name, callback, session)
    return tid, outer


def leave_callback(entered: Any) -> None:
    tid, outer = entered
    if outer is None:
        _active.pop(tid, None)
    else:
        _active[tid] = outer


def check_not_reentrant(session: Any) -> None:
    """Raises HookError naming the hook and callback running on this thread when they run a hooked
    run of their own monitored session (``session``, the raw session TF hands ``before_run``)."""
    if not _active:  # no jhooks callback runs on any thread
        return
    active = _active.get(get_ident())
    if active is not None and active[2] is session:
        raise HookError(
            active[0](),
            active[1],
            "ran the monitored session (a hooked run) from inside its own callback, which would run the "
            "hooks again (re-entrant); use runContext.session or the session given to the callback for a raw run",
        )


def raise_hook_failure(hook: str, callback: str, error: BaseException) -> NoReturn:
    """Raises what :func:`hook_failure` says leaves ``hook``'s ``callback`` for ``error``; call it in
    the ``except`` block that caught ``error``."""
    converted = hook_failure(hook, callback, error)
    if converted is None:
        raise error
    raise converted from error


class TfRunContext(SessionRunContext):
    """The jhooks view of TF's ``SessionRunContext``; one per run, shared by every adapter.

    ``requestStop()`` calls ``run_context.request_stop()``; ``stopRequested`` reads TF's flag.
    ``originalArgs`` is the caller's fetches and feeds as names (TF does not pass the caller's
    options to hooks, so ``originalArgs.options`` is None); converted on first access, ValueError
    if the caller fetched something jhooks cannot name (e.g. a SparseTensor).
    """

    def __init__(self, tfContext: Any, session: TfSessionView) -> None:
        self._tf = tfContext
        self._original: SessionRunArgs | None = None
        self.feeders: dict = {}  # tensor name -> the TfHookAdapter that feeds it in this run
        self._options: tuple[Any, Any] | None = None  # (TF's RunOptions proto, its jhooks RunOptions)
        super().__init__(None, session)  # type: ignore[arg-type]

    @property
    def originalArgs(self) -> SessionRunArgs:
        if self._original is None:
            o = self._tf.original_args
            self._original = names.args_from_tf(o.fetches, o.feed_dict, getattr(o, "options", None))
        return self._original

    @originalArgs.setter
    def originalArgs(self, value: SessionRunArgs | None) -> None:
        self._original = value

    def options(self, proto: Any) -> Any:
        """The jhooks RunOptions of TF's ``proto`` (the same object every hook of the run gets:
        converted once per run; RunOptions are immutable)."""
        converted = self._options
        if converted is None or converted[0] is not proto:
            converted = self._options = (proto, names.options_from_proto(proto))
        return converted[1]

    def requestStop(self) -> None:
        self._tf.request_stop()

    @property
    def stopRequested(self) -> bool:
        return bool(self._tf.stop_requested)


_PLANS_MAX = 64


def _plan_key(args: SessionRunArgs) -> Any:
    """A hashable key for ``args`` when they only fetch names (a str, or a list/tuple of str) with no
    feeds and no options, else None."""
    if args.feeds or args.options is not None:
        return None
    fetches = args.fetches
    if isinstance(fetches, str):
        return fetches
    if isinstance(fetches, (list, tuple)) and all(isinstance(f, str) for f in fetches):
        return (type(fetches), tuple(fetches))
    return None


class TfHookAdapter(tf.compat.v1.train.SessionRunHook):
    """Runs ``hook`` (a jhooks Hook) as a TF SessionRunHook.

    Raises HookValidationError at construction when the hook's callbacks have wrong signatures.
    For a ModelDependentHook, ``modelInstance`` is set here, once, before ``beginSession``; a
    ModelDependentHook without one raises HookError in ``begin()``.

    Values: results are ``np.ndarray`` (TF's numpy scalars become shape-() arrays, as the JVM
    side hands over rank-0 NdArrays), None for targets, in the structure the hook asked for.
    ``runMetadata`` is TF's RunMetadata proto when the hook asked for options, else None.
    """

    def __init__(self, hook: Hook, modelInstance: ModelInstance | None = None) -> None:
        validate_hook(hook)
        self.hook = hook
        self.name = hook_name(hook)
        if modelInstance is not None and isinstance(hook, ModelDependentHook):
            hook.modelInstance = modelInstance
        self._callback = "begin"
        self.createdSession: Any = None  # the raw session of the last after_create_session (for onError)
        self.endFailure: Callable[[BaseException], None] | None = None  # set by OnErrorSession
        self._view: TfSessionView | None = None
        self._asked: SessionRunArgs | None = None
        # TF requests of fetch-only args by fetches, for one finalized graph: a name resolves to the
        # same tensor for the graph's life, so most runs skip resolving the same names again.
        self._plans: dict[Any, tf.compat.v1.train.SessionRunArgs] = {}
        self._plans_graph: Any = None
        # the last fetch-only args object the hook returned (hooks return the same immutable one
        # every run), its plan, and whether its one fetch is a tensor name
        self._lastArgs: SessionRunArgs | None = None
        self._lastPlan: Any = None
        self._lastIsTensor = False

    def _where(self):
        return self.name, self._callback

    def _label(self) -> str:
        return self.name

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
            raise HookError(
                self.name, "beginSession", "is a ModelDependentHook but no ModelInstance was given to the adapter"
            )
        graph_saver.prepare(tf.compat.v1.get_default_graph())
        try:
            self.hook.beginSession()
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.name, "beginSession", e)

    def after_create_session(self, session: Any, coord: Any) -> None:
        self._callback = "afterCreateSession"
        self.createdSession = session
        outer = enter_callback(self._label, "afterCreateSession", session)
        try:
            self.hook.afterCreateSession(self._view_of(session), None if coord is None else TfCoordinatorView(coord))
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.name, "afterCreateSession", e)
        finally:
            leave_callback(outer)

    def before_run(self, run_context: Any) -> tf.compat.v1.train.SessionRunArgs | None:
        check_not_reentrant(run_context.session)
        self._callback = "beforeSessionRun"
        self._asked = None
        ctx = self._context_of(run_context)
        outer = enter_callback(self._label, "beforeSessionRun", run_context.session)
        try:
            args = self.hook.beforeSessionRun(ctx)
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.name, "beforeSessionRun", e)
        finally:
            leave_callback(outer)
        return self._request(run_context, ctx, args)

    def _request(self, run_context: Any, ctx: TfRunContext, args: Any) -> tf.compat.v1.train.SessionRunArgs | None:
        """TF's request for the ``args`` the hook's ``beforeSessionRun`` returned (checked, resolved)."""
        if args is None:
            return None
        graph = run_context.session.graph
        if args is self._lastArgs and graph is self._plans_graph:  # fetch-only: nothing to accept
            self._asked = args
            return self._lastPlan
        self._accept(ctx, args)
        key = _plan_key(args)
        if key is not None and graph.finalized:
            if self._plans_graph is not graph:
                self._plans, self._plans_graph = {}, graph
            plan = self._plans.get(key)
            if plan is None:
                if len(self._plans) >= _PLANS_MAX:
                    self._plans.clear()
                plan = self._plans[key] = tf.compat.v1.train.SessionRunArgs(
                    fetches=names.resolve_fetches(graph, args.fetches, self._where)
                )
            self._asked = args
            if isinstance(args.fetches, str):
                self._lastArgs, self._lastPlan = args, plan
                self._lastIsTensor = nest.is_tensor_name(args.fetches)
            return plan
        request = tf.compat.v1.train.SessionRunArgs(
            fetches=names.resolve_fetches(graph, args.fetches, self._where),
            feed_dict=names.resolve_feeds(graph, args.feeds, self._where),
            options=names.options_to_proto(args.options),
        )
        self._asked = args
        return request

    def _accept(self, ctx: TfRunContext, args: Any) -> None:
        """Checks what ``beforeSessionRun`` returned (not None): a SessionRunArgs whose feeds no other
        jhooks hook of this run feeds (HookError / HookFeedConflictError naming this hook)."""
        if not isinstance(args, SessionRunArgs):
            raise HookError(
                self.name,
                "beforeSessionRun",
                f"returned {type(args).__name__} {args!r}; expected jhooks.SessionRunArgs or None",
            )
        for tensor in args.feeds:
            first = ctx.feeders.setdefault(tensor, self)
            if first is not self:
                raise HookFeedConflictError(tensor, first.name, self.name)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        self._callback = "afterSessionRun"
        ctx = self._context_of(run_context)
        values = self._values(run_values.results, ctx.options(run_values.options), run_values.run_metadata)
        outer = enter_callback(self._label, "afterSessionRun", run_context.session)
        try:
            self.hook.afterSessionRun(ctx, values)
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.name, "afterSessionRun", e)
        finally:
            leave_callback(outer)

    def _values(self, results: Any, options: Any, run_metadata: Any) -> SessionRunValues:
        """The hook's SessionRunValues from what TF gave it (``results`` in TF's structure)."""
        asked = self._asked
        if asked is None:
            results = None
        elif asked is self._lastArgs:  # one name, its kind known
            results = names.to_array(results) if self._lastIsTensor else None
        else:
            results = names.normalize_results(asked.fetches, results)
        metadata = run_metadata if asked is not None and asked.options is not None else None
        return SessionRunValues(results=results, options=options, runMetadata=metadata)

    def end(self, session: Any) -> None:
        self._callback = "end"
        outer = enter_callback(self._label, "end", session)
        try:
            self.hook.end(self._view_of(session))
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            converted = hook_failure(self.name, "end", e)
            if converted is not None:
                converted.__cause__ = e
            if self.endFailure is not None:  # TF closes the raw session before the error leaves close()
                self.endFailure(e if converted is None else converted)
            if converted is None:
                raise
            raise converted from e
        finally:
            leave_callback(outer)

    def on_error(self, error: BaseException) -> None:
        """The hook's ``onError(session view, error)`` if it got ``afterCreateSession``; the view is
        None once TF closed the raw session. Raises what the hook raises (:class:`OnErrorSession`
        attaches it to ``error``)."""
        session = self.createdSession
        if session is None:
            return
        self._callback = "onError"
        view = None if getattr(session, "_closed", False) else self._view_of(session)
        outer = enter_callback(self._label, "onError", session)
        try:
            self.hook.onError(view, error)
        finally:
            leave_callback(outer)

    def __repr__(self) -> str:
        return f"TfHookAdapter({self.name})"
