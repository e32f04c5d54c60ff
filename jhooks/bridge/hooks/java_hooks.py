"""Java hooks and listeners in Python-driven sessions.

``JavaHook("com.example.MyHook", arg1, ..., name=value)`` (plain Python values converted to the
constructor's parameter types, keyword arguments by Java parameter name: jhooks.bridge.hooks.construct),
or ``JavaHook(java_instance)``, is a Python ``jhooks.Hook`` whose callbacks call a Java
``org.jhooks.Hook``:

- the Java hook sees the Python session as an ``org.jhooks.Session`` (:func:`java_session`), a Java
  ``SessionRunContext`` holding the caller's args translated to Java, and a Java ``Coordinator``;
- what it returns from ``beforeSessionRun`` is translated to a Python ``SessionRunArgs`` (numpy
  feeds); its ``runValues.results`` are read-only NdArray views of the numpy results in the
  structure of its fetches, valid during the callback (copy to keep; strings are copies; see
  :func:`jhooks.bridge.convert.arrays.view_to_java`);
- ``runContext.requestStop()`` and ``coord.requestStop()`` on the Java side are forwarded to the
  Python run context and coordinator when the callback returns (a stop requested later from
  another Java thread is forwarded at the hook's next callback);
- Java exceptions reach Python as described in :mod:`jhooks.bridge.convert.exceptions`.

A Java ``ModelDependentHook`` becomes a :class:`JavaModelDependentHook`, whose ``modelInstance``
is forwarded to the Java hook. :class:`JavaCheckpointSaverListener` does the same for listeners.
"""

from __future__ import annotations

import struct
import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from jhooks.api.foreign_errors import register_fatal_error_test
from jhooks.api.hook import Described, Hook
from jhooks.api.listener import CheckpointSaverListener, SaveDecision
from jhooks.api.model import ModelDependentHook, ModelInstance
from jhooks.api.run_args import RunOptions, SessionRunArgs
from jhooks.bridge.backend.choice import current as _backend
from jhooks.bridge.convert import arrays, values
from jhooks.bridge.convert.exceptions import to_java
from jhooks.bridge.hooks import construct
from jhooks.bridge.hooks.java_backed import JavaBacked
from jhooks.bridge.hooks.packed_run import PackedLayout
from jhooks.bridge.hooks.sessions import java_session
from jhooks.bridge.process import gc_link, jvm
from jhooks.bridge.process.calls import call_java, from_java

# Java classes here use TensorFlow's natives (JVM sessions, checkpoints): a JVM without them is refused up front.
NATIVE_PACKAGE = "org.jhooks.tf."


def java_object(instance_or_class_name: Any, *ctor_args: Any, kind: str = "org.jhooks.Hook", **ctor_kwargs: Any) -> Any:
    """``instance_or_class_name`` itself, or a new instance of the named Java class built from
    ``ctor_args``/``ctor_kwargs``: plain Python values converted to a public constructor's (or the
    static ``builder()``'s) parameter types, keyword arguments by Java parameter name
    (jhooks.bridge.hooks.construct; its JavaArgumentsError, a TypeError, names the candidates).

    A named class must implement ``kind``, checked before its constructor runs (TypeError). Starts
    the JVM (hooks-only when the natives cannot be loaded safely, jhooks.bridge.process.jvm); a
    class in ``org.jhooks.tf`` raises TensorFlowRuntimeError there, as does a constructor that calls
    TensorFlow natives."""
    if isinstance(instance_or_class_name, str) and instance_or_class_name.startswith(NATIVE_PACKAGE):
        jvm.require_natives(instance_or_class_name)
    else:
        jvm.start()
    if isinstance(instance_or_class_name, str):
        cls = jvm.find_class(instance_or_class_name)
        if not _backend().is_subclass(cls, kind):
            raise TypeError(f"{instance_or_class_name} does not implement {kind}; it was not constructed")
        try:
            return _construct(instance_or_class_name, cls, ctor_args, ctor_kwargs)
        except BaseException as e:
            _raise_if_missing_natives(instance_or_class_name, "<init>", e)
            raise
    if ctor_args or ctor_kwargs:
        raise TypeError(f"constructor arguments {ctor_args!r} {ctor_kwargs!r} given with an existing Java object")
    return instance_or_class_name


def _construct(class_name: str, cls: Any, args: tuple, kwargs: dict) -> Any:
    if not kwargs and not all(construct.is_plain(a) for a in args):
        # what only JPype's own matching converts (a Python callable for a functional interface, ...)
        return call_java(cls, *args)
    return construct.new_java_object(class_name, cls, args, kwargs)


def _raise_if_missing_natives(java_class: str, callback: str, error: BaseException) -> None:
    """Raises TensorFlowRuntimeError (caused by ``error``) naming the hook and callback when
    ``error`` is a TensorFlow native call that this hooks-only JVM cannot make; else returns."""
    if jvm.mode() == jvm.HOOKS_ONLY and jvm.is_missing_natives(error):
        # Keep the Java original as the cause, also when the hook's error was already converted.
        java_error = error if hasattr(error, "getCause") or error.__cause__ is None else error.__cause__
        raise jvm.hooks_only_error(None, java_class, callback, java_error) from java_error


class _Java:
    """Java classes the per-run paths use, looked up once (after the JVM started)."""

    context: Any = None
    values_class: Any = None
    calls: Any = None
    group: Any = None
    coordinator: Any = None
    packed: PackedLayout | None = None

    @classmethod
    def load(cls) -> None:
        backend = _backend()
        cls.context = backend.jclass("org.jhooks.SessionRunContext")
        cls.values_class = backend.jclass("org.jhooks.SessionRunValues")
        cls.calls = backend.jclass("org.jhooks.bridge.JavaHookCalls")
        cls.group = backend.jclass("org.jhooks.bridge.JavaHookGroup")
        cls.coordinator = backend.jclass("org.jhooks.Coordinator")
        cls.packed = PackedLayout.of(backend.jclass("org.jhooks.bridge.PackedRun"))


class _JavaRunContexts:
    """The Java ``SessionRunContext`` of each Python run in flight, shared by every Java hook and
    group of the run: kept by the run's jhooks context in a map this object owns (nothing is set on
    the context); the last one is found without a lookup. A group that made the run's Java context
    itself is kept instead, and asked for it only when a single Java hook of the run needs it."""

    def __init__(self) -> None:
        self._last: tuple[Any, Any] = (None, None)
        self._all: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def known(self, runContext: Any) -> Any:
        """The Java context of ``runContext``, the group that made it, or None."""
        last = self._last
        if last[0] is runContext:
            return last[1]
        with self._lock:
            try:
                return self._all.get(runContext)
            except TypeError:  # not weak-referenceable: shared through the last one only
                return None

    def keep(self, runContext: Any, context_or_group: Any) -> None:
        """Records the Java context of ``runContext``, or the group that made it."""
        with self._lock:
            try:
                self._all[runContext] = context_or_group
            except TypeError:
                pass
            self._last = (runContext, context_or_group)

    def of(self, runContext: Any) -> Any:
        """The Java context of ``runContext``, made over its original args and session the first time."""
        known = self.known(runContext)
        if isinstance(known, JavaHookGroup):
            known = known.java.context()
            self.keep(runContext, known)
        elif known is None:
            known = _Java.context(_java_original_args(runContext.originalArgs), java_session(runContext.session))
            self.keep(runContext, known)
        return known


_run_contexts = _JavaRunContexts()


# Java SessionRunArgs of callers' args that are immutable in Java too (a single fetch name or
# none, no feeds), by (fetches, options): most runs repeat the same caller args.
_ARGS_MAX = 64
_original_args: dict = {}


def _java_original_args(args: SessionRunArgs | None) -> Any:
    if args is None:
        args = SessionRunArgs()
    if (
        args.feeds
        or not (args.fetches is None or isinstance(args.fetches, str))
        or not (args.options is None or isinstance(args.options, RunOptions))
    ):
        return values.run_args_to_java(args)
    key = (args.fetches, args.options)
    cached = _original_args.get(key)
    if cached is None:
        if len(_original_args) >= _ARGS_MAX:
            _original_args.clear()
        cached = _original_args[key] = values.run_args_to_java(args)
    return cached


# Java SessionRunValues without results or metadata, by options: immutable, so shared.
_EMPTY_VALUES_MAX = 16
_empty_values: dict = {}


def _java_values(runValues: Any) -> Any:
    empty = runValues.results is None and runValues.runMetadata is None
    if empty and (runValues.options is None or isinstance(runValues.options, RunOptions)):
        cached = _empty_values.get(runValues.options)
        if cached is None:
            cached = _Java.values_class(None, values.options_to_java(runValues.options), None)
            if len(_empty_values) >= _EMPTY_VALUES_MAX:
                _empty_values.clear()
            _empty_values[runValues.options] = cached
        return cached
    return _Java.values_class(
        values.results_to_java(runValues.results),
        values.options_to_java(runValues.options),
        values.run_metadata_to_java(runValues.runMetadata),
    )


_CONTEXT_STOP, _COORDINATOR_STOP, _HAS_ARGS, _CALLS_REPEATED = 1, 2, 4, 8  # JavaHookCalls flags


def _one_name(args: SessionRunArgs) -> bool:
    """Args a Java hook group remembers per hook (``JavaHookGroup.beforeSessionRun``'s repeated)."""
    return isinstance(args.fetches, str) and not args.feeds and args.options is None


class JavaHook(Hook, Described, JavaBacked):
    """A Python hook calling a Java ``org.jhooks.Hook`` (see the module docstring).

    ``beforeSessionRun``/``afterSessionRun`` that the Java class does not override (the
    ``org.jhooks.Hook`` default no-op; checked once by reflection) are not called across the
    bridge; the coordinator's stop flag is still synced at them.
    """

    java: Any  # the org.jhooks.Hook
    _calls: Any  # its org.jhooks.bridge.JavaHookCalls
    _callsBefore: bool
    _callsAfter: bool
    _coords: list[tuple[Any, Any]]  # (python coordinator, java coordinator) of the live session
    _lastArgs: SessionRunArgs | None  # the one-name args the Java hook last returned, translated

    def __new__(cls, instance_or_class_name: Any, *ctor_args: Any, **ctor_kwargs: Any) -> JavaHook:
        java = java_object(instance_or_class_name, *ctor_args, **ctor_kwargs)
        backend = _backend()
        if not backend.is_instance(java, "org.jhooks.Hook"):
            raise TypeError(f"{java.getClass().getName()} does not implement org.jhooks.Hook")
        if cls is JavaHook and backend.is_instance(java, "org.jhooks.ModelDependentHook"):
            cls = JavaModelDependentHook
        if _Java.calls is None:
            _Java.load()
        gc_link.freeze_startup_objects()
        self = super().__new__(cls)
        self.java = java
        self._calls = _Java.calls(java)
        self._callsBefore = bool(_Java.calls.overrides(java, "beforeSessionRun"))
        self._callsAfter = bool(_Java.calls.overrides(java, "afterSessionRun"))
        self._coords = []
        self._lastArgs = None  # the one-name args Java last returned
        return self

    def __init__(self, instance_or_class_name: Any, *ctor_args: Any, **ctor_kwargs: Any) -> None:
        pass

    @property
    def javaClassName(self) -> str:
        return str(self.java.getClass().getName())

    def describe(self) -> str:
        """``com.example.MyHook, Java``: how driver messages name this hook."""
        return f"{self.javaClassName}, Java"

    def batchFactory(self) -> Callable[[list[Any]], JavaHookGroup] | None:
        """How ``jhooks.tf.to_tf_hooks`` batches consecutive Java hooks (``jhooks.tf.hook_batch``):
        :class:`JavaHookGroup` for a :func:`groupable` hook, else None."""
        return JavaHookGroup if groupable(self) else None

    def __repr__(self) -> str:
        return f"JavaHook({self.javaClassName})"

    def _sync_stop(self, runContext: Any = None, java_context: Any = None) -> None:
        if (
            runContext is not None
            and java_context is not None
            and java_context.stopRequested()
            and not runContext.stopRequested
        ):
            runContext.requestStop()
        for py_coord, java_coord in self._coords:
            if java_coord.shouldStop() and not py_coord.shouldStop():
                error = java_coord.error()
                py_coord.requestStop(None if error is None else from_java(error))
            elif py_coord.shouldStop() and not java_coord.shouldStop():
                java_coord.requestStop()

    def _sync_flags(self, flags: int, runContext: Any, java_context: Any) -> None:
        """What :meth:`_sync_stop` does, from the flags a JavaHookCalls call returned."""
        if flags & (_CONTEXT_STOP | _COORDINATOR_STOP):
            self._sync_stop(runContext, java_context)
            return
        for py_coord, java_coord in self._coords:
            if py_coord.shouldStop():
                java_coord.requestStop()

    def _call(self, callback: str, method: Any, *args: Any) -> Any:
        try:
            return call_java(method, *args)
        except BaseException as e:
            _raise_if_missing_natives(self.javaClassName, callback, e)
            raise

    def begin(self) -> None:
        self._call("begin", self.java.begin)

    def beginSession(self) -> None:
        self._call("beginSession", self.java.beginSession)

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        """Calls the Java hook with a Java coordinator mirrored to ``coord``; with ``coord`` None
        (as some TensorFlow code passes to hooks) the Java hook gets null, as a Python hook would."""
        if coord is None:
            self._coords = []
            self._calls.setCoordinator(None)
            call_java(self.java.afterCreateSession, java_session(session), None)
            return
        java_coord = _Java.coordinator()
        self._coords = [(coord, java_coord)]
        self._calls.setCoordinator(java_coord)
        self._call("afterCreateSession", self.java.afterCreateSession, java_session(session), java_coord)
        self._sync_stop()

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs | None:
        """The Java hook's ``beforeSessionRun``; with ``runContext`` None (as TensorFlow's tests call
        hooks that do not read it, e.g. a GlobalStepWaiterHook for step 0) the Java hook gets null."""
        if not self._callsBefore:
            self._sync_flags(self._calls.flags(None), runContext, None)
            return None
        if runContext is None:
            args = self._call("beforeSessionRun", self.java.beforeSessionRun, None)
            self._sync_stop()
            return values.run_args_to_python(args)
        context = _run_contexts.of(runContext)
        try:
            flags = call_java(self._calls.beforeSessionRun, context)
        except BaseException as e:
            self._sync_stop(runContext, context)
            _raise_if_missing_natives(self.javaClassName, "beforeSessionRun", e)
            raise
        self._sync_flags(flags, runContext, context)
        if not flags & _HAS_ARGS:
            return None
        if flags & _CALLS_REPEATED:  # the one-name args it returned last time: translated then
            return self._lastArgs
        args = values.run_args_to_python(self._calls.takeArgs())
        self._lastArgs = args if args is not None and _one_name(args) else None
        return args

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        """The Java hook's ``afterSessionRun``; None for ``runContext`` or ``runValues`` is null."""
        if not self._callsAfter:
            self._sync_flags(self._calls.flags(None), runContext, None)
            return
        if runContext is None or runValues is None:
            java_values = None if runValues is None else _java_values(runValues)
            java_context = None if runContext is None else _run_contexts.of(runContext)
            self._call("afterSessionRun", self.java.afterSessionRun, java_context, java_values)
            self._sync_stop(runContext, java_context)
            return
        context = _run_contexts.of(runContext)
        java_values = _java_values(runValues)
        try:
            flags = call_java(self._calls.afterSessionRun, context, java_values)
        except BaseException as e:
            self._sync_stop(runContext, context)
            _raise_if_missing_natives(self.javaClassName, "afterSessionRun", e)
            raise
        self._sync_flags(flags, runContext, context)

    def end(self, session: Any) -> None:
        try:
            self._call("end", self.java.end, java_session(session))
        finally:
            self._sync_stop()

    def onError(self, session: Any, error: BaseException) -> None:
        """The Java hook's ``onError`` with the Java view of ``session`` (null for None) and
        ``error`` as Java sees it (its twin, or a PythonException carrying it)."""
        self._call("onError", self.java.onError, None if session is None else java_session(session), to_java(error))


def groupable(hook: Any) -> bool:
    """Whether ``hook`` is a JavaHook whose per-run callbacks :class:`JavaHookGroup` may make: exactly
    a JavaHook or JavaModelDependentHook (no Python subclass), no callback patched onto the instance."""
    return (
        type(hook) in (JavaHook, JavaModelDependentHook)
        and "beforeSessionRun" not in vars(hook)
        and "afterSessionRun" not in vars(hook)
    )


class JavaHookGroup:
    """The per-run callbacks of consecutive :class:`JavaHook` s, one Java call
    (``org.jhooks.bridge.JavaHookGroup``) for the whole group instead of one per hook: the
    ``jhooks.tf.hook_batch.HookBatch`` that ``jhooks.tf.to_tf_hooks`` drives as one TF hook
    (``jhooks.tf.TfHookGroup``).

    Everything observable is as if each hook's own ``beforeSessionRun``/``afterSessionRun`` had been
    called in order: the same Java calls, stop requests forwarded (coordinators synced per hook),
    a Java exception converted by :func:`call_java` and raised from the hook that threw, later
    hooks not called. The group makes the run's Java context itself at its first call of a run
    (unless another Java hook of the run made it first) and reads its results as
    :class:`~jhooks.bridge.hooks.packed_run.PackedResult`. See docs/bridge.md, "Crossing costs".
    """

    def __init__(self, hooks: list) -> None:
        if not all(groupable(h) for h in hooks):
            raise TypeError(f"only plain JavaHooks can be grouped, not {hooks!r}")
        # imported here: importing jhooks.tf imports TensorFlow, and a group exists only in a TF session
        from jhooks.tf.hook_batch import BeforeResult

        self._before_result = BeforeResult
        self.hooks = list(hooks)
        self.java = _Java.group([h._calls for h in self.hooks])
        self._layout: PackedLayout = _Java.packed  # type: ignore[assignment]  # loaded with the hooks
        self._after = [h._callsAfter for h in self.hooks]
        self._run: Any = None  # the run context whose Java context the Java group holds
        # per hook: the Python args of the one-name args it last returned (as Java remembers them)
        self._repeat: list[SessionRunArgs | None] = [None] * len(self.hooks)
        self._value_of: dict[tuple[int, ...], Any] = {}  # Java int[] of afterSessionRunPacked, by content

    def forget(self) -> None:
        """After a failed check of returned args, or another graph: every hook's args cross anew."""
        self._repeat = [None] * len(self.hooks)
        self.java.forget()

    def _coordinator_stop(self) -> bool:
        """Whether the session's coordinator (shared by the group's hooks) should stop."""
        return any(py_coord.shouldStop() for py_coord, _ in self.hooks[0]._coords)

    def _sync(self, stops: int, runContext: Any, start: int, stop: int) -> None:
        """Forwards the stop requests of Java hooks ``start..stop-1`` to Python (:meth:`JavaHook._sync_stop`)."""
        if stops:
            context = self.java.context()
            for h in self.hooks[start:stop]:
                h._sync_stop(runContext, context)

    def position(self) -> int:
        """The index of the hook being called, or of the one that raised (``JavaHookGroup.position()``)."""
        return int(self.java.position())

    def _failed(self, runContext: Any, start: int, callback: str, error: BaseException) -> None:
        position = int(self.java.position())
        context = self.java.context()
        for h in self.hooks[start : position + 1]:
            h._sync_stop(runContext, context)
        _raise_if_missing_natives(self.hooks[position].javaClassName, callback, error)

    def _call_before(self, runContext: Any, start: int) -> Any:
        """``beforeSessionRun`` of the Java group from hook ``start``: in the run's Java context,
        which the group makes at the run's first call unless another Java hook of the run made it."""
        stop = self._coordinator_stop()
        if self._run is runContext:
            return self.java.beforeSessionRun(None, None, start, stop)
        known = _run_contexts.known(runContext)
        if known is not None and not isinstance(known, JavaHookGroup):
            result = self.java.beforeSessionRunIn(known, start, stop)
        elif known is not None:
            result = self.java.beforeSessionRunIn(known.java.context(), start, stop)
        else:
            result = self.java.beforeSessionRun(
                _java_original_args(runContext.originalArgs), java_session(runContext.session), start, stop
            )
            _run_contexts.keep(runContext, self)
        self._run = runContext
        return result

    def beforeSessionRun(self, runContext: Any, start: int = 0) -> Any:
        """Calls ``beforeSessionRun`` from hook ``start`` on until one returns new args; returns a
        ``jhooks.tf.hook_batch.BeforeResult``: that hook's index and args (Python SessionRunArgs),
        or the group's size and None; ``repeated`` marks the hooks before it that returned the
        one-name args they returned last time (not translated again)."""
        try:
            result = self._layout.read(call_java(self._call_before, runContext, start))
        except BaseException as e:
            self._failed(runContext, start, "beforeSessionRun", e)
            raise
        index = result.index
        self._sync(result.stops, runContext, start, min(index + 1, len(self.hooks)))
        if not result.has_args:
            return self._before_result(index, None, result.repeated)
        args = values.run_args_to_python(self.java.takeArgs())
        if index < self._layout.max_repeated:
            self._repeat[index] = args if args is not None and _one_name(args) else None
        return self._before_result(index, args, result.repeated)

    def _packed_values(self, runValues: list) -> tuple[bytes, list[int]] | None:
        """The run's values in ``PackedRun``'s values layout, and each hook's index into them (-1: no
        results), when every hook's are one small array or none, with the same options and no
        metadata (a group's usual run); else None."""
        options = runValues[0].options
        data = bytearray()
        value_of: list[int] = []
        index_of: dict[int, int] = {}  # id of an array -> its index (hooks of one array share it)
        for v in runValues:
            if v.runMetadata is not None or v.options is not options:
                return None
            results = v.results
            if results is None:
                value_of.append(-1)
                continue
            if type(results) is not np.ndarray:
                return None
            at = index_of.get(id(results))
            if at is None:
                packed = arrays.packed_small(results)
                if packed is None:
                    return None
                at = index_of[id(results)] = len(index_of)
                data += struct.pack("<i", len(packed))
                data += packed
            value_of.append(at)
        return bytes(data), value_of

    def afterSessionRun(self, runContext: Any, runValues: list) -> None:
        """Calls ``afterSessionRun`` on the first ``len(runValues)`` hooks, hook i with
        ``runValues[i]``: in one crossing with the values packed when they allow it
        (:meth:`_packed_values`), else translated to Java in order; when translating hook m's
        fails, hooks before m are called first (as without grouping), then the error is raised."""
        to = len(runValues)
        packed = self._packed_values(runValues) if to else None
        if packed is not None:
            options = values.options_to_java(runValues[0].options)
            key = tuple(packed[1])
            value_of = self._value_of.get(key)
            if value_of is None:  # most runs share their results alike: the Java int[] made once (Java only reads it)
                if len(self._value_of) >= 8:
                    self._value_of.clear()
                value_of = self._value_of[key] = _backend().array("int", key)
            try:
                result = self._layout.read(
                    call_java(
                        self.java.afterSessionRunPacked,
                        packed[0] or None,
                        value_of,
                        options,
                        to,
                        self._coordinator_stop(),
                    )
                )
            except BaseException as e:
                self._failed(runContext, 0, "afterSessionRun", e)
                raise
            self._sync(result.stops, runContext, 0, to)
            return
        each: list = []
        error = None
        last = last_java = None
        # hooks given the same array (one tensor fetched by several) share one read-only Java value
        same: dict[tuple[int, int, int], Any] = {}
        for i in range(to):
            if not self._after[i]:
                each.append(None)
                continue
            v = runValues[i]
            if v is last:  # the same values for several hooks (none fetched): translated once
                each.append(last_java)
                continue
            key = (id(v.results), id(v.options), id(v.runMetadata))
            shared_java = same.get(key) if isinstance(v.results, np.ndarray) else None
            if shared_java is not None:
                last, last_java = v, shared_java
                each.append(shared_java)
                continue
            try:
                last = v
                last_java = _java_values(last)
                each.append(last_java)
            except BaseException as e:
                error, to = e, i
                break
            if isinstance(v.results, np.ndarray):
                same[key] = last_java
        if to == 0:
            raise error  # type: ignore[misc]  # the first hook's values failed: nothing was called
        try:
            result = self._layout.read(call_java(self.java.afterSessionRun, each, to, self._coordinator_stop()))
        except BaseException as e:
            self._failed(runContext, 0, "afterSessionRun", e)
            raise
        self._sync(result.stops, runContext, 0, to)
        if error is not None:
            raise error


# ModelDependentHook's property, whose checks JavaModelDependentHook.modelInstance extends
_BASE_MODEL_INSTANCE: property = vars(ModelDependentHook)["modelInstance"]


class JavaModelDependentHook(JavaHook, ModelDependentHook):
    """A Java ``org.jhooks.ModelDependentHook``; setting ``modelInstance`` sets it on the Java hook."""

    @property
    def modelInstance(self) -> ModelInstance | None:
        return _BASE_MODEL_INSTANCE.__get__(self)

    @modelInstance.setter
    def modelInstance(self, instance: ModelInstance) -> None:
        _BASE_MODEL_INSTANCE.__set__(self, instance)
        if getattr(self, "_java_model_for", None) is not instance:
            call_java(self.java.setModelInstance, values.model_to_java(instance))
            self._java_model_for = instance


class JavaCheckpointSaverListener(CheckpointSaverListener, JavaBacked):
    """A Python listener calling a Java ``org.jhooks.CheckpointSaverListener``."""

    def __init__(self, instance_or_class_name: Any, *ctor_args: Any, **ctor_kwargs: Any) -> None:
        self.java = java_object(
            instance_or_class_name, *ctor_args, kind="org.jhooks.CheckpointSaverListener", **ctor_kwargs
        )
        backend = _backend()
        if not backend.is_instance(self.java, "org.jhooks.CheckpointSaverListener"):
            raise TypeError(f"{self.java.getClass().getName()} does not implement org.jhooks.CheckpointSaverListener")
        self._jlong = backend.jlong  # bound once

    def __repr__(self) -> str:
        return f"JavaCheckpointSaverListener({self.java.getClass().getName()})"

    def begin(self) -> None:
        call_java(self.java.begin)

    def beforeSave(self, session: Any, globalStep: int) -> None:
        call_java(self.java.beforeSave, java_session(session), self._jlong(int(globalStep)))

    def decideSave(self, session: Any, globalStep: int) -> SaveDecision:
        """The Java listener's ``decideSave`` (its default calls ``beforeSave``); null is SAVE."""
        decision = call_java(self.java.decideSave, java_session(session), self._jlong(int(globalStep)))
        return SaveDecision.SAVE if decision is None else SaveDecision(str(decision.name()))

    def afterSave(self, session: Any, globalStep: int) -> bool:
        return bool(call_java(self.java.afterSave, java_session(session), self._jlong(int(globalStep))))

    def end(self, session: Any, globalStep: int) -> None:
        call_java(self.java.end, java_session(session), self._jlong(int(globalStep)))


def _is_fatal_java_error(error: BaseException) -> bool:
    """Whether ``error`` is a Java ``Error`` (StackOverflowError, OutOfMemoryError, ...)."""
    backend = _backend()
    java = backend.java_error(error)
    return java is not None and backend.is_instance(java, "java.lang.Error")


# how the TensorFlow adapter tells a Java Error from a Java hook (jhooks.api.foreign_errors)
register_fatal_error_test(_is_fatal_java_error)
