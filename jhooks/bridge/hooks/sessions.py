"""Session and coordinator views across the bridge.

- :class:`JavaSession`: a Python ``jhooks.Session`` over a Java ``org.jhooks.Session`` (for
  Python hooks in a JVM-driven session): numpy feeds in, numpy results out, in the structure of
  the Python fetches.
- :func:`java_session`: a Java ``org.jhooks.Session`` proxy over a Python session (for Java hooks
  in a Python-driven session): NdArray feeds in, NdArray results out.
- :class:`JavaCoordinator`: a Python ``jhooks.Coordinator`` whose state is a Java
  ``org.jhooks.Coordinator``.
- :class:`JavaCheckpointGuard`: a Python ``CheckpointGuard`` whose state is the Java session's
  ``org.jhooks.CheckpointGuard``; :func:`java_checkpoint_guard` the other way round. So a
  NanTensorHook and the savers of one session share one guard whatever their languages.

A run through either view is a raw run: it fires no hooks. Values are copies (docs/bridge.md).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping
from typing import Any

from jhooks.api.checkpoint_guard import CheckpointGuard
from jhooks.api.run_args import RunOptions, SessionRunArgs
from jhooks.api.session import Coordinator, Session
from jhooks.bridge.backend.choice import current as _backend
from jhooks.bridge.convert import arrays, values
from jhooks.bridge.convert.exceptions import to_java
from jhooks.bridge.process.calls import call_java, from_java, python_errors


class JavaSession(Session):
    """A Python session view of a Java ``org.jhooks.Session`` (see ``jhooks.api.session.Session``)."""

    def __init__(self, java: Any) -> None:
        self.java = java
        self._globalStepName: str | None = None

    def run(self, fetches: Any, feeds: Mapping[str, Any] | None = None, options: RunOptions | None = None) -> Any:
        """Runs ``fetches`` (a name or nest) with numpy ``feeds``; numpy results, same structure.

        Raises SessionRunArgsError naming a fetch or feed of the wrong kind before anything crosses."""
        SessionRunArgs(fetches, feeds or {}, options)
        result = call_java(
            self.java.run, values.fetches_to_java(fetches), values.feeds_to_java(feeds), values.options_to_java(options)
        )
        return values.results_to_python(result, fetches)

    def save(self, prefix: str) -> None:
        call_java(self.java.save, prefix)

    def restore(self, prefix: str) -> None:
        call_java(self.java.restore, prefix)

    def saveableVariables(self) -> dict[str, str]:
        """``{checkpoint key: tensor name}`` of the Java session's ``saveableVariables()``.

        Raises NotImplementedError (the Python twin of Java's UnsupportedOperationException) when
        the Java view cannot list its variables.
        """
        try:
            listing = call_java(self.java.saveableVariables)
        except Exception as e:
            if not _backend().is_instance(e, "java.lang.UnsupportedOperationException"):
                raise
            raise NotImplementedError(str(_backend().unwrap(e).getMessage())) from e
        return {str(entry.getKey()): str(entry.getValue()) for entry in listing.entrySet()}

    def nonFiniteVariables(self) -> list[str]:
        """The Java session's ``nonFiniteVariables()``: the saved float variables holding a NaN or
        an infinity, checked by the Java session's own fused op (nothing crosses but the names).

        Raises NotImplementedError (the Python twin of Java's UnsupportedOperationException) when
        the Java view cannot check its variables.
        """
        try:
            names = call_java(self.java.nonFiniteVariables)
        except Exception as e:
            if not _backend().is_instance(e, "java.lang.UnsupportedOperationException"):
                raise
            raise NotImplementedError(str(_backend().unwrap(e).getMessage())) from e
        return [str(name) for name in names]

    def graphDef(self) -> bytes:
        """The Java session's ``graphDef()``: its graph as a serialized ``GraphDef`` proto.

        Raises NotImplementedError (the Python twin of Java's UnsupportedOperationException) when
        the Java view has no graph.
        """
        return self._bytes(self.java.graphDef)

    def metaGraphDef(self) -> bytes:
        """The Java session's ``metaGraphDef()``: a serialized ``MetaGraphDef`` proto.

        Raises NotImplementedError when the Java view has no graph.
        """
        return self._bytes(self.java.metaGraphDef)

    @staticmethod
    def _bytes(method: Any) -> bytes:
        try:
            data = call_java(method)
        except Exception as e:
            if not _backend().is_instance(e, "java.lang.UnsupportedOperationException"):
                raise
            raise NotImplementedError(str(_backend().unwrap(e).getMessage())) from e
        return _backend().to_bytes(data)

    def globalStepTensorName(self) -> str:
        name = self._globalStepName
        if name is None:
            name = str(call_java(self.java.globalStepTensorName))
            if _fixed_step_name(self.java):  # the JVM driver's view: its name is fixed, asked every run
                self._globalStepName = name
        return name

    def globalStep(self) -> int:
        return int(call_java(self.java.globalStep))

    def checkpointGuard(self) -> CheckpointGuard:
        """The Java session's ``CheckpointGuard`` (its state stays where the Java guard keeps it)."""
        return JavaCheckpointGuard(call_java(self.java.checkpointGuard))

    def __repr__(self) -> str:
        return f"JavaSession({self.java})"


def _fixed_step_name(java: Any) -> bool:
    """Whether the Java session's global step name never changes (``org.jhooks.tf.TfSession``'s,
    the JVM driver's raw session, is set at construction; a subclass could compute it)."""
    return _backend().class_names(java)[0] == "org.jhooks.tf.TfSession"


class _PythonSessionProxy:
    """What a Java ``org.jhooks.Session`` proxy calls; every overload of run arrives here."""

    def __init__(self, session: Any) -> None:
        self.session = session

    @python_errors
    def run(self, fetches: Any, feeds: Any = None, options: Any = None) -> Any:
        py_fetches = values.fetches_to_python(fetches)
        if py_fetches is None:
            return None
        result = self.session.run(py_fetches, values.feeds_to_python(feeds), values.options_to_python(options))
        # copies the hook owns (docs/bridge.md "Ownership"): a view would outlive this call's result
        return values.results_to_java(result, arrays.to_java)

    @python_errors
    def save(self, prefix: Any) -> None:
        self.session.save(str(prefix))

    @python_errors
    def restore(self, prefix: Any) -> None:
        self.session.restore(str(prefix))

    def _optional(self, method: str, missing: str) -> Any:
        """What the Python view's optional ``method()`` returns; a view without it (``missing``
        names what it cannot do), or raising NotImplementedError, gives Java's
        UnsupportedOperationException."""
        backend = _backend()
        unsupported = backend.jclass("java.lang.UnsupportedOperationException")
        call = getattr(self.session, method, None)
        if call is None:
            raise backend.raisable(unsupported(f"{_describe(self.session)} {missing}"))
        try:
            return call()
        except NotImplementedError as e:
            raise backend.raisable(unsupported(str(e))) from None

    @python_errors
    def saveableVariables(self) -> Any:
        """The Python view's ``saveableVariables()`` as a Java map (order kept); a view without
        it, or raising NotImplementedError, gives Java's UnsupportedOperationException."""
        backend = _backend()
        variables = self._optional("saveableVariables", "cannot list its variables; pass variables to Saver")
        out = backend.jclass("java.util.LinkedHashMap")()
        for key, tensor in variables.items():
            out.put(backend.jstring(str(key)), backend.jstring(str(tensor)))
        return out

    @python_errors
    def nonFiniteVariables(self) -> Any:
        """The Python view's ``nonFiniteVariables()`` as a Java list; a view without it, or raising
        NotImplementedError, gives Java's UnsupportedOperationException."""
        backend = _backend()
        out = backend.jclass("java.util.ArrayList")()
        for name in self._optional("nonFiniteVariables", "cannot check its variables"):
            out.add(backend.jstring(str(name)))
        return out

    def _graphBytes(self, method: str) -> Any:
        """The Python view's ``graphDef()`` / ``metaGraphDef()`` bytes as a Java ``byte[]``; a view
        without it, or raising NotImplementedError, gives Java's UnsupportedOperationException."""
        return _backend().array("byte", bytes(self._optional(method, f"has no graph ({method})")))

    @python_errors
    def graphDef(self) -> Any:
        return self._graphBytes("graphDef")

    @python_errors
    def metaGraphDef(self) -> Any:
        return self._graphBytes("metaGraphDef")

    def _noBuffers(self) -> Any:
        backend = _backend()
        unsupported = backend.jclass("java.lang.UnsupportedOperationException")
        return backend.raisable(
            unsupported(
                f"{_describe(self.session)}: no snapshot buffers for Java savers (TensorFlow's monitored session "
                "closes the session after an error without waiting for a Java writer thread, which would write "
                "from it; the Java saver fetches the values instead)"
            )
        )

    @python_errors
    def takeSnapshot(self) -> Any:
        """Java's UnsupportedOperationException: a Java async saver in a Python session fetches
        its snapshot (its writer is not one TF's coordinator joins before closing the session)."""
        raise self._noBuffers()

    @python_errors
    def saveSnapshot(self, prefix: Any) -> None:
        raise self._noBuffers()

    @python_errors
    def nonFiniteSnapshot(self) -> Any:
        raise self._noBuffers()

    @python_errors
    def globalStepTensorName(self) -> str:
        return str(self.session.globalStepTensorName())

    @python_errors
    def globalStep(self) -> int:
        name = str(self.session.globalStepTensorName())
        return _backend().jlong(int(self.session.run(name)))

    @python_errors
    def checkpointGuard(self) -> Any:
        return java_checkpoint_guard(CheckpointGuard.of(self.session))

    def toString(self) -> str:
        return _describe(self.session)


def _describe(session: Any) -> str:
    return f"Python session {type(session).__module__}.{type(session).__qualname__}"


_proxies: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
_proxies_lock = threading.Lock()


def java_session(session: Any) -> Any:
    """A Java ``org.jhooks.Session`` over a Python session; the same proxy for the same session.

    A :class:`JavaSession` is unwrapped to its Java session instead.
    """
    if session is None:
        return None
    if isinstance(session, JavaSession):
        return session.java
    with _proxies_lock:
        try:
            cached = _proxies.get(session)
        except TypeError:  # not weak-referenceable: no caching
            cached = None
        if cached is not None:
            return cached
        backend = _backend()
        java = backend.proxy("org.jhooks.Session", _PythonSessionProxy(session))
        name = _final_global_step_name(session)
        if name is not None:  # Java hooks ask for it every run: answered in Java, no crossing
            java = backend.jclass("org.jhooks.bridge.JavaHookCalls").withGlobalStepTensorName(java, name)
        try:
            _proxies[session] = java
        except TypeError:
            pass
        return java


def _final_global_step_name(session: Any) -> str | None:
    """The global step's name of ``session`` when its graph is finalized (it cannot change), else None."""
    graph = getattr(session, "graph", None)
    if not getattr(graph, "finalized", False):
        return None
    try:
        return str(session.globalStepTensorName())
    except Exception:  # not cached: asked through the proxy each time, which reports the error
        return None


def python_session(session: Any) -> Any:
    """A Python session view of a Java ``org.jhooks.Session``; None stays None."""
    return None if session is None else JavaSession(session)


class JavaCoordinator(Coordinator):
    """A ``jhooks.Coordinator`` whose stop flag and error live in a Java ``org.jhooks.Coordinator``."""

    def __init__(self, java: Any) -> None:
        super().__init__()
        self.java = java

    def requestStop(self, cause: BaseException | None = None) -> None:
        if cause is None:
            self.java.requestStop()
        else:
            self.java.requestStop(to_java(cause))

    def shouldStop(self) -> bool:
        return bool(self.java.shouldStop())

    def error(self) -> BaseException | None:
        error = self.java.error()
        return None if error is None else from_java(_backend().wrap(error))

    def clearStop(self) -> None:
        self.java.clearStop()


class JavaCheckpointGuard(CheckpointGuard):
    """A ``CheckpointGuard`` whose watched losses and NaN step live in a Java
    ``org.jhooks.CheckpointGuard`` (the JVM driver's session owns it)."""

    def __init__(self, java: Any) -> None:
        super().__init__()
        self.java = java

    def watchLoss(self, tensorName: str) -> None:
        call_java(self.java.watchLoss, str(tensorName))

    def watchedLosses(self) -> list[str]:
        return [str(name) for name in call_java(self.java.watchedLosses)]

    def reportNanLoss(self, globalStep: int, lossTensor: str) -> None:
        call_java(self.java.reportNanLoss, _backend().jlong(int(globalStep)), str(lossTensor))

    def nanStep(self) -> int | None:
        step = call_java(self.java.nanStep)
        return int(step.getAsLong()) if step.isPresent() else None

    def nanLoss(self) -> str | None:
        loss = call_java(self.java.nanLoss)
        return str(loss.get()) if loss.isPresent() else None

    def __repr__(self) -> str:
        return f"JavaCheckpointGuard({self.java})"


class _PythonGuardProxy:
    """What a Java ``org.jhooks.CheckpointGuard`` proxy over a Python guard calls."""

    def __init__(self, guard: CheckpointGuard) -> None:
        self.guard = guard

    @python_errors
    def watchLoss(self, tensorName: Any) -> None:
        self.guard.watchLoss(str(tensorName))

    @python_errors
    def watchedLosses(self) -> Any:
        backend = _backend()
        out = backend.jclass("java.util.ArrayList")()
        for name in self.guard.watchedLosses():
            out.add(backend.jstring(name))
        return out

    @python_errors
    def reportNanLoss(self, globalStep: Any, lossTensor: Any) -> None:
        self.guard.reportNanLoss(int(globalStep), str(lossTensor))

    @python_errors
    def nanStep(self) -> Any:
        step = self.guard.nanStep()
        optional = _backend().jclass("java.util.OptionalLong")
        return optional.empty() if step is None else optional.of(_backend().jlong(step))

    @python_errors
    def nanLoss(self) -> Any:
        loss = self.guard.nanLoss()
        optional = _backend().jclass("java.util.Optional")
        return optional.empty() if loss is None else optional.of(_backend().jstring(loss))

    @python_errors
    def allowsSave(self, globalStep: Any) -> bool:
        return bool(self.guard.allowsSave(int(globalStep)))

    def toString(self) -> str:
        return f"Python {self.guard!r}"


# The Java proxy of each Python guard, weakly keyed by the guard.
_guard_proxies: weakref.WeakKeyDictionary[CheckpointGuard, Any] = weakref.WeakKeyDictionary()


def java_checkpoint_guard(guard: CheckpointGuard) -> Any:
    """A Java ``org.jhooks.CheckpointGuard`` sharing ``guard``'s state (the same proxy for the same
    guard); a :class:`JavaCheckpointGuard` is unwrapped to its Java guard."""
    if isinstance(guard, JavaCheckpointGuard):
        return guard.java
    with _proxies_lock:
        cached = _guard_proxies.get(guard)
        if cached is not None:
            return cached
        java = _backend().proxy("org.jhooks.CheckpointGuard", _PythonGuardProxy(guard))
        _guard_proxies[guard] = java
        return java
