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

import threading
import weakref
from collections.abc import Callable
from threading import get_ident
from typing import Any, NoReturn, cast

import tensorflow as tf

from jhooks.api import session_exit
from jhooks.api.errors import HookError, HookFeedConflictError, SessionRunArgsError
from jhooks.api.foreign_errors import is_fatal_foreign_error
from jhooks.api.hook import Hook, hook_name
from jhooks.api.model import ModelDependentHook, ModelInstance
from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues
from jhooks.api.validation import validate_hook
from jhooks.tf import names
from jhooks.tf import saver as graph_saver
from jhooks.tf.coordinator import TfCoordinatorView
from jhooks.tf.run_plan import RunPlan, plan_for
from jhooks.tf.session_view import TfSessionView


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


class _RunContexts:
    """The jhooks view of each TF run context in flight, shared by every adapter and group of the
    run: kept by the TF object in maps jhooks owns, nothing is set on TensorFlow's object. The last
    one is found without a lookup (a run calls every hook with it in turn)."""

    def __init__(self) -> None:
        self._last: tuple[Any, TfRunContext | None] = (None, None)
        self._all: weakref.WeakKeyDictionary[Any, TfRunContext] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def of(self, runContext: Any, view: Callable[[], TfSessionView]) -> TfRunContext:
        """The view of ``runContext``, made with the session view ``view()`` the first time."""
        last = self._last
        if last[0] is runContext and last[1] is not None:
            return last[1]
        with self._lock:
            try:
                ctx = self._all.get(runContext)
            except TypeError:  # not weak-referenceable: shared through the last one only
                ctx = None
            if ctx is None:
                ctx = TfRunContext(runContext, view())
                try:
                    self._all[runContext] = ctx
                except TypeError:
                    pass
            self._last = (runContext, ctx)
        return ctx


_run_contexts = _RunContexts()


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
        self._plan: RunPlan | None = None  # the fast path of this hook on the session's graph
        self._asked = False  # the hook asked for something in the current run
        self._exit: session_exit.Entry | None = None  # the session's entry for the process's exit

    # What TfHookGroup uses of its members' adapters.

    def where(self) -> tuple[str, str]:
        """The hook's name and the callback TF is making (what errors about its names say)."""
        return self.name, self._callback

    def run_started(self) -> None:
        """A run of the session starts (:mod:`jhooks.api.session_exit`: the exit waits for it)."""
        if self._exit is not None:
            self._exit.started()

    def run_finished(self, run_context: Any) -> None:
        """The run is over; if the process's exit asked the open sessions to stop, TF's
        ``run_context.request_stop()``, so the loop ends and the session's close runs every
        hook's ``end()``."""
        if self._exit is not None and self._exit.finished():
            run_context.request_stop()

    def calling(self, callback: str) -> None:
        """TF is about to make ``callback`` of this hook (through a group)."""
        self._callback = callback

    def context_of(self, runContext: Any) -> TfRunContext:
        """The jhooks run context of TF's ``runContext``, shared by every jhooks hook of the run."""
        return _run_contexts.of(runContext, lambda: self._view_of(runContext.session))

    def check_args(self, ctx: TfRunContext, args: Any) -> None:
        """Checks what ``beforeSessionRun`` returned (not None): a SessionRunArgs whose feeds no
        other jhooks hook of this run feeds (HookError / HookFeedConflictError naming this hook)."""
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

    def _label(self) -> str:
        return self.name

    def _view_of(self, session: Any) -> TfSessionView:
        if self._view is None or self._view.rawSession is not session:
            self._view = TfSessionView(session, self.where)
        return self._view

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
        self._exit = session_exit.opened(self, lambda: bool(getattr(session, "_closed", False)))
        outer = enter_callback(self._label, "afterCreateSession", session)
        try:
            self.hook.afterCreateSession(self._view_of(session), None if coord is None else TfCoordinatorView(coord))
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.name, "afterCreateSession", e)
        finally:
            leave_callback(outer)

    def before_run(self, run_context: Any) -> tf.compat.v1.train.SessionRunArgs | None:
        if run_context is None:
            self._before_run_without_context()
            return None
        check_not_reentrant(run_context.session)
        self._callback = "beforeSessionRun"
        self._asked = False
        self.run_started()
        ctx = self.context_of(run_context)
        outer = enter_callback(self._label, "beforeSessionRun", run_context.session)
        try:
            args = self.hook.beforeSessionRun(ctx)
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.name, "beforeSessionRun", e)
        finally:
            leave_callback(outer)
        if args is None:
            return None
        plan = self._plan = plan_for(self._plan, run_context.session.graph, (self,), merge=False)
        plan.start()
        plan.accept(ctx, 0, args)
        self._asked = True
        return plan.request()

    def _before_run_without_context(self) -> None:
        """``before_run(None)``, as TensorFlow's tests call a hook that does not read its context
        (a GlobalStepWaiterHook for step 0): the hook gets None; asking for anything without a run
        to add it to is a HookError naming the hook."""
        self._callback = "beforeSessionRun"
        self._asked = False
        try:
            args = self.hook.beforeSessionRun(cast(Any, None))  # the hooks' API types it; TF's callers pass None
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.name, "beforeSessionRun", e)
        if args is not None:
            raise HookError(self.name, "beforeSessionRun", f"returned {args!r} for before_run(None), which has no run")

    def after_run(self, run_context: Any, run_values: Any) -> None:
        self._callback = "afterSessionRun"
        ctx = self.context_of(run_context)
        if self._asked and self._plan is not None:
            values = self._plan.value(ctx, run_values)
        else:
            values = SessionRunValues(options=ctx.options(run_values.options))
        outer = enter_callback(self._label, "afterSessionRun", run_context.session)
        try:
            self.hook.afterSessionRun(ctx, values)
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.name, "afterSessionRun", e)
        finally:
            leave_callback(outer)
        self.run_finished(run_context)

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
            session_exit.closed(self)
            self._exit = None

    def on_error(self, error: BaseException) -> None:
        """The hook's ``onError(session view, error)`` if it got ``afterCreateSession``; the view is
        None once TF closed the raw session. Raises what the hook raises (:class:`OnErrorSession`
        attaches it to ``error``)."""
        session = self.createdSession
        session_exit.closed(self)
        self._exit = None
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
