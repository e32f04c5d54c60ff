"""Python hooks and listeners in JVM-driven sessions.

``as_java_hook(hook)`` gives a Java ``org.jhooks.Hook`` (an ``org.jhooks.bridge.PythonHook``
around a JPype proxy; a ``PythonModelDependentHook`` for a ``jhooks.ModelDependentHook``). The
Python hook sees:

- the Java session as a :class:`~jhooks.bridge.hooks.sessions.JavaSession` (numpy in and out);
- a ``SessionRunContext`` whose ``originalArgs`` are the caller's args with numpy feeds and whose
  ``requestStop()`` sets the Java context's flag;
- a :class:`~jhooks.bridge.hooks.sessions.JavaCoordinator` over the Java coordinator;
- ``runValues.results`` as read-only numpy arrays in the structure of the fetches it returned
  (tuples kept): views of the JVM driver's values for large float32/float64/int32/int64 ones (no
  copy; they keep the Java memory alive while referenced), read-only copies otherwise
  (:func:`jhooks.bridge.convert.arrays.view_to_numpy`); ``copy()`` gives a writable array.

Its ``SessionRunArgs`` are translated to Java (NdArray feeds). Any Python exception leaves as an
``org.jhooks.bridge.PythonException``. Java may call from any thread; each call takes the GIL
(on the jep backend through the calling thread's own interpreter, jhooks.bridge.backend.jep_backend).
``as_java_listener`` does the same for ``CheckpointSaverListener``.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from threading import get_ident
from typing import Any

from jhooks.api.errors import HookError
from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener, SaveDecision
from jhooks.api.model import ModelDependentHook
from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues
from jhooks.api.validation import validate_hook
from jhooks.bridge.backend.choice import current as _backend
from jhooks.bridge.convert import arrays, values
from jhooks.bridge.hooks.java_backed import JavaBacked
from jhooks.bridge.hooks.packed_run import PackedLayout, read_array
from jhooks.bridge.hooks.sessions import JavaCoordinator, python_session
from jhooks.bridge.process import gc_link, jvm
from jhooks.bridge.process.calls import from_java, python_errors


def _name(obj: Any) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


class JavaRunContext(SessionRunContext):
    """A Python run context over a Java ``org.jhooks.SessionRunContext``; the stop flag is Java's.

    Made from the context's ``org.jhooks.bridge.RunContextIds`` id; the Java context itself,
    ``originalArgs`` and ``session`` are looked up and translated on first use (most hooks never
    read them), then kept: every Python hook of the run shares this view. The session is the view
    of the last run's when the id says it is the same Java session (no Java call).
    """

    def __init__(self, contextId: int) -> None:  # super().__init__ is replaced by the lazy fields
        self.contextId = contextId
        self.hookFetches: dict = {}  # key of a python hook -> the fetches it returned for this run
        self._java: Any = None
        self._originalArgs: Any = _UNSET
        self._session: Any = _UNSET

    @property
    def java(self) -> Any:
        """The Java ``SessionRunContext``; RuntimeError when it was collected."""
        java = self._java
        if java is None:
            java = self._java = _ids().context(self.contextId)
            if java is None:
                raise RuntimeError(f"the Java run context #{self.contextId} is gone (collected)")
        return java

    @property
    def originalArgs(self) -> Any:
        if self._originalArgs is _UNSET:
            self._originalArgs = values.run_args_to_python(self.java.originalArgs())
        return self._originalArgs

    @originalArgs.setter
    def originalArgs(self, value: Any) -> None:
        self._originalArgs = value

    @property
    def session(self) -> Any:
        if self._session is _UNSET:
            global _last_session
            number = self.contextId >> _session_shift()  # 0: no session
            last = _last_session
            if number and last[0] == number:
                self._session = last[1]  # the same Java session as the last run's: its view (cached name)
            else:
                self._session = python_session(self.java.session())
                _last_session = (number, self._session)
        return self._session

    @session.setter
    def session(self, value: Any) -> None:
        self._session = value

    def requestStop(self) -> None:
        self.java.requestStop()

    @property
    def stopRequested(self) -> bool:
        return bool(self.java.stopRequested())


_UNSET = object()
_NO_VALUES = SessionRunValues(results=None, options=None, runMetadata=None)  # immutable: shared
# the session number (RunContextIds) and Python view of the session of the last run context asked for one
_last_session: tuple[int, Any] = (0, None)

# Python views of the Java run contexts in flight, by org.jhooks.bridge.RunContextIds id, so
# before/after of one run (and all Python hooks of it) share one view.
_VIEWS_MAX = 64
_views: OrderedDict[int, JavaRunContext] = OrderedDict()
_views_lock = threading.Lock()
_context_ids: Any = None


def _ids() -> Any:
    """The Java class ``org.jhooks.bridge.RunContextIds``."""
    global _context_ids
    if _context_ids is None:
        _context_ids = _backend().jclass("org.jhooks.bridge.RunContextIds")
    return _context_ids


_shift: list[int] = []


def _session_shift() -> int:
    """Where the session number starts in a context id (``RunContextIds.SESSION_SHIFT``)."""
    if not _shift:
        _shift.append(int(_ids().SESSION_SHIFT))
    return _shift[0]


_current: dict[int, int] = {}  # thread id -> the context id that last crossed on that thread


def _context_view(context_id: int) -> JavaRunContext:
    _current[get_ident()] = context_id
    view = _views.get(context_id)
    if view is not None:
        return view
    with _views_lock:
        view = _views.get(context_id)
        if view is None:
            view = _views[context_id] = JavaRunContext(int(context_id))
            while len(_views) > _VIEWS_MAX:
                _views.popitem(last=False)
    return view


# Java SessionRunArgs of fetch-only args with one fetch name, by name: immutable in Java (a String
# fetch, no feeds, no options), so shared by every run that returns the same name (most hooks).
_ARGS_MAX = 256
_java_args: dict[str, Any] = {}


def _args_to_java(args: SessionRunArgs) -> Any:
    fetches = args.fetches
    if args.feeds or args.options is not None or not isinstance(fetches, str):
        return values.run_args_to_java(args)
    cached = _java_args.get(fetches)
    if cached is None:
        if len(_java_args) >= _ARGS_MAX:
            _java_args.clear()
        cached = _java_args[fetches] = values.run_args_to_java(args)
    return cached


def _checked(hook: Hook, args: Any) -> SessionRunArgs | None:
    """What ``hook.beforeSessionRun`` returned, when it is args or None; else TypeError."""
    if args is None or isinstance(args, SessionRunArgs):
        return args
    raise TypeError(
        f"{_name(hook)}.beforeSessionRun returned {type(args).__name__} {args!r}; "
        "expected jhooks.SessionRunArgs or None"
    )


def _overrides(hook: Any, callback: str) -> bool:
    """Whether ``hook`` overrides ``callback`` (in its class or on the instance), i.e. the call
    is not ``jhooks.Hook``'s no-op."""
    if callback in getattr(hook, "__dict__", {}):
        return True
    return getattr(type(hook), callback, None) is not getattr(Hook, callback)


class _HookProxy:
    """What the Java proxy of a Python hook calls (``org.jhooks.bridge.PythonHookTarget``)."""

    def __init__(self, hook: Hook, to_bytes: Callable[[Any], bytes]) -> None:
        self.hook = hook
        self.key = next(_keys)  # how a PythonHookGroup.Maker finds it (_GroupMaker)
        self._to_bytes = to_bytes  # the backend's, bound once
        self.callsBefore = _overrides(hook, "beforeSessionRun")  # as Java is told: checked once, now
        self.callsAfter = _overrides(hook, "afterSessionRun")
        _members[self.key] = self

    @python_errors
    def begin(self) -> None:
        self.hook.begin()

    @python_errors
    def beginSession(self) -> None:
        self.hook.beginSession()

    @python_errors
    def afterCreateSession(self, session: Any, coord: Any) -> None:
        self.hook.afterCreateSession(python_session(session), None if coord is None else JavaCoordinator(coord))

    @python_errors
    def beforeSessionRun(self, contextId: Any) -> Any:
        return self._before(_context_view(contextId))

    def _before(self, view: JavaRunContext) -> Any:
        args = self.hook.beforeSessionRun(view)
        if args is None:
            view.hookFetches[self.key] = None
            return None
        if not isinstance(args, SessionRunArgs):
            _checked(self.hook, args)  # raises
        view.hookFetches[self.key] = args.fetches
        return _args_to_java(args)

    @python_errors
    def beforeSessionRunNext(self) -> Any:
        # the context whose id follows the one that last crossed on this thread: a new run's
        return self._before(_context_view(_current[get_ident()] + 1))

    @python_errors
    def beforeSessionRunSameContext(self) -> Any:
        # this thread's context crossed before (its id in _current): its view is usually cached
        view = _views.get(_current[get_ident()])
        if view is None:
            view = _context_view(_current[get_ident()])
        args = self.hook.beforeSessionRun(view)  # _before, inlined: every hook of a run but the first
        if args is None:
            view.hookFetches[self.key] = None
            return None
        if not isinstance(args, SessionRunArgs):
            _checked(self.hook, args)  # raises
        view.hookFetches[self.key] = args.fetches
        return _args_to_java(args)

    @python_errors
    def afterSessionRunSameContext(self, runValues: Any) -> None:
        _after_unwrapped(self, _current[get_ident()], runValues)

    @python_errors
    def afterSessionRunPacked(self, packedResults: Any) -> None:
        """One small array of results, packed by org.jhooks.bridge.NumpyArrays.packed (no options, no
        metadata): read without calling back into Java; read-only, as view_to_numpy gives it."""
        view = _context_view(_current[get_ident()])
        results = read_array(self._to_bytes(packedResults))
        self.hook.afterSessionRun(view, SessionRunValues(results=results, options=None, runMetadata=None))

    @python_errors
    def afterSessionRun(self, contextId: Any, runValues: Any) -> None:
        view = _context_view(contextId)
        fetches = view.hookFetches.get(self.key)
        py_values = SessionRunValues(
            results=values.results_to_python(runValues.results(), fetches, arrays.view_to_numpy),
            options=values.options_to_python(runValues.options()),
            runMetadata=values.run_metadata_to_python(runValues.runMetadata()),
        )
        self.hook.afterSessionRun(view, py_values)

    @python_errors
    def end(self, session: Any) -> None:
        self.hook.end(python_session(session))

    @python_errors
    def onError(self, session: Any, error: Any) -> None:
        # still in flight on the JVM: its Java stack note is added when it finally crosses
        error = _backend().wrap(error)
        self.hook.onError(None if session is None else python_session(session), from_java(error, note=False))

    @python_errors
    def close(self) -> None:
        close = getattr(self.hook, "close", None)
        if callable(close):
            close()

    def toString(self) -> str:
        return _name(self.hook) + " (Python)"


# afterSessionRunSameContext runs the plain body (its own python_errors already guards it).
_after_unwrapped: Callable[..., Any] = vars(_HookProxy)["afterSessionRun"].__wrapped__


# Every Python hook made by as_java_hook, by its key, while it lives: how the Python side of a
# PythonHookGroup finds its hooks (_GroupMaker.group).
_keys = itertools.count(1)
_members: weakref.WeakValueDictionary[int, _HookProxy] = weakref.WeakValueDictionary()
_factory: Any = None  # the one org.jhooks.bridge.PythonHookGroup.Factory of this process


def _group_factory() -> Any:
    """The ``PythonHookGroup.Factory`` every Python hook offers, so the JVM ``MonitoredSession``
    drives consecutive Python hooks as one :class:`_GroupProxy` (docs/bridge.md, "Crossing costs")."""
    global _factory
    if _factory is None:
        backend = _backend()
        layout = PackedLayout.of(backend.jclass("org.jhooks.bridge.PackedRun"))
        maker = backend.proxy("org.jhooks.bridge.PythonHookGroup$Maker", _GroupMaker(layout))
        _factory = backend.jclass("org.jhooks.bridge.PythonHookGroup$Factory")(maker)
    return _factory


class _GroupMaker:
    """What ``org.jhooks.bridge.PythonHookGroup.Maker`` calls: the Python side of a group."""

    def __init__(self, layout: PackedLayout) -> None:
        self._layout = layout

    @python_errors
    def group(self, keys: Any) -> Any:
        members = []
        for key in keys:
            member = _members.get(int(key))
            if member is None:
                raise RuntimeError(f"no live Python hook has the key {int(key)} (PythonHookGroup.Maker)")
            members.append(member)
        backend = _backend()
        return backend.proxy("org.jhooks.bridge.PythonHookGroupTarget", _GroupProxy(members, self._layout, backend))


class _GroupProxy:
    """What the Java proxy of a group of consecutive Python hooks calls
    (``org.jhooks.bridge.PythonHookGroupTarget``, driven by ``org.jhooks.bridge.PythonHookGroup``):
    each per-run callback of the whole group in one crossing, every hook called exactly as its own
    :class:`_HookProxy` would call it (callbacks it does not override skipped, its args checked and
    translated alike, the same views and values); an exception stops the loop at that hook
    (:meth:`position`). Used from one thread at a time (its session's)."""

    def __init__(self, members: list[_HookProxy], layout: PackedLayout, backend: Any) -> None:
        self._hooks = [m.hook for m in members]
        self._before = [m.callsBefore for m in members]
        self._after = [m.callsAfter for m in members]
        self._layout = layout
        self._to_bytes = backend.to_bytes
        self._position = 0
        self._args: Any = None  # the Java args of the hook the last beforeSessionRun stopped at
        self._fetches: list[Any] = [None] * len(members)  # per hook: the fetches of its args this run
        self._last: list[str | None] = [None] * len(members)  # per hook: its last one-name args' fetch
        self._repeatable = min(len(members), layout.max_repeated)
        self._has_args, self._index_shift = layout.has_args, layout.index_shift  # PackedRun's layout
        self._repeated_shift = layout.repeated_shift
        self._next: int | None = None  # what beforeSessionRunNext last returned (or implied)

    @python_errors
    def beforeSessionRun(self, contextId: Any, start: Any) -> int:
        return self._before_run(_context_view(contextId), int(start))

    @python_errors
    def beforeSessionRunNext(self) -> int | None:
        # hook 0 on, in the context whose id follows the one that last crossed on this thread (a new
        # run's); None: the result this method returned last (every run of hooks repeating their args)
        result = self._before_run(_context_view(_current[get_ident()] + 1), 0)
        if result == self._next:
            return None
        self._next = result
        return result

    @python_errors
    def beforeSessionRunSameContext(self, start: Any) -> int:
        contextId = _current[get_ident()]
        view = _views.get(contextId)
        return self._before_run(_context_view(contextId) if view is None else view, int(start))

    def _before_run(self, view: JavaRunContext, start: int) -> int:
        hooks, calls, fetches, last = self._hooks, self._before, self._fetches, self._last
        self._position = start
        repeated = 0
        for i in range(start, len(hooks)):
            if not calls[i]:
                continue
            self._position = i
            hook = hooks[i]
            args = hook.beforeSessionRun(view)
            if args is None:
                fetches[i] = None
                continue
            if not isinstance(args, SessionRunArgs):
                _checked(hook, args)  # raises
            fetched = fetches[i] = args.fetches
            if i < self._repeatable:
                one = fetched if type(fetched) is str and not args.feeds and args.options is None else None
                if one is not None and one == last[i]:
                    repeated |= 1 << i
                    continue
                last[i] = one
            self._args = _args_to_java(args)
            return self._has_args | i << self._index_shift | repeated << self._repeated_shift
        return len(hooks) << self._index_shift | repeated << self._repeated_shift

    @python_errors
    def takeArgs(self) -> Any:
        args, self._args = self._args, None
        return args

    @python_errors
    def afterSessionRun(self, contextId: Any, runValues: Any) -> None:
        self._position = 0
        view = _context_view(contextId)
        for i in range(len(runValues)):
            if not self._after[i]:
                continue
            self._position = i
            java = runValues[i]
            py_values = SessionRunValues(
                results=values.results_to_python(java.results(), self._fetches[i], arrays.view_to_numpy),
                options=values.options_to_python(java.options()),
                runMetadata=values.run_metadata_to_python(java.runMetadata()),
            )
            self._hooks[i].afterSessionRun(view, py_values)

    @python_errors
    def afterSessionRunPacked(self, packedValues: Any) -> None:
        """Every hook's results none or one small array, packed by ``PackedRun.values`` (no options,
        no metadata): read without calling back into Java; read-only, as view_to_numpy gives them."""
        self._position = 0
        contextId = _current[get_ident()]
        view = _views.get(contextId)
        if view is None:
            view = _context_view(contextId)
        results = self._layout.values(self._to_bytes(packedValues), len(self._hooks))
        last: Any = None
        last_values = _NO_VALUES
        for i, hook in enumerate(self._hooks):
            if not self._after[i]:
                continue
            self._position = i
            result = results[i]
            if result is not last:  # hooks given one array share its (immutable) values
                last, last_values = result, SessionRunValues(results=result, options=None, runMetadata=None)
            hook.afterSessionRun(view, last_values)

    def position(self) -> int:
        return self._position

    def forget(self) -> None:
        self._last = [None] * len(self._hooks)
        self._next = None


class _ModelSink:
    """What the Java ``Consumer<ModelInstance>`` of a Python ModelDependentHook calls."""

    def __init__(self, hook: ModelDependentHook) -> None:
        self.hook = hook

    @python_errors
    def accept(self, model: Any) -> None:
        self.hook.modelInstance = values.model_to_python(model)


def as_java_hook(hook: Hook) -> Any:
    """A Java ``org.jhooks.Hook`` calling the Python ``hook``; a ``JavaHook`` gives its Java hook.

    ``beforeSessionRun``/``afterSessionRun`` that ``hook`` does not override (checked now, on its
    class and instance) are not called across the bridge: they are ``jhooks.Hook``'s no-ops.
    Raises ``jhooks.HookValidationError`` for a hook that cannot be registered (validate_hook).
    """
    if isinstance(hook, JavaBacked) and isinstance(hook, Hook):
        return hook.java
    validate_hook(hook)
    jvm.ensure_running()
    backend = _backend()
    gc_link.freeze_startup_objects()
    target = _HookProxy(hook, backend.to_bytes)
    proxy = backend.proxy("org.jhooks.bridge.PythonHookTarget", target)
    before, after, key = target.callsBefore, target.callsAfter, backend.jlong(target.key)
    factory = _group_factory()
    if isinstance(hook, ModelDependentHook):
        consumer = backend.proxy("java.util.function.Consumer", _ModelSink(hook))
        return backend.jclass("org.jhooks.bridge.PythonModelDependentHook")(
            proxy, _name(hook), consumer, before, after, factory, key
        )
    return backend.jclass("org.jhooks.bridge.PythonHook")(proxy, _name(hook), before, after, factory, key)


class _ListenerProxy:
    def __init__(self, listener: CheckpointSaverListener) -> None:
        self.listener = listener

    @python_errors
    def begin(self) -> None:
        self.listener.begin()

    @python_errors
    def beforeSave(self, session: Any, globalStep: Any) -> None:
        self.listener.beforeSave(python_session(session), int(globalStep))

    @python_errors
    def decideSave(self, session: Any, globalStep: Any) -> Any:
        """The Python listener's decision as a Java ``org.jhooks.SaveDecision``."""
        decide = getattr(self.listener, "decideSave", None)
        if decide is None:  # a listener not derived from jhooks.CheckpointSaverListener
            decide = CheckpointSaverListener.decideSave.__get__(self.listener)
        decision = decide(python_session(session), int(globalStep))
        if not isinstance(decision, SaveDecision):  # on a Python saver: HookError naming the saver too
            raise HookError(
                f"CheckpointSaverListener {self.listener!r}",
                "beforeSave",
                f"returned {type(decision).__name__} {decision!r} for step {int(globalStep)} to a Java saver; "
                "expected None or jhooks.SaveDecision",
            )
        return getattr(_backend().jclass("org.jhooks.SaveDecision"), decision.name)

    @python_errors
    def afterSave(self, session: Any, globalStep: Any) -> bool:
        return bool(self.listener.afterSave(python_session(session), int(globalStep)))

    @python_errors
    def end(self, session: Any, globalStep: Any) -> None:
        self.listener.end(python_session(session), int(globalStep))


def as_java_listener(listener: CheckpointSaverListener) -> Any:
    """A Java ``org.jhooks.CheckpointSaverListener`` calling the Python ``listener``; a
    ``JavaCheckpointSaverListener`` gives its Java listener."""
    if isinstance(listener, JavaBacked) and isinstance(listener, CheckpointSaverListener):
        return listener.java
    jvm.ensure_running()
    backend = _backend()
    proxy = backend.proxy("org.jhooks.CheckpointSaverListener", _ListenerProxy(listener))
    return backend.jclass("org.jhooks.bridge.PythonCheckpointSaverListener")(proxy, _name(listener))
