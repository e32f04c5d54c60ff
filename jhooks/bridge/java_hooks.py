"""Java hooks and listeners in Python-driven sessions.

``JavaHook("com.example.MyHook", arg1, ...)`` (or ``JavaHook(java_instance)``) is a Python
``jhooks.Hook`` whose callbacks call a Java ``org.jhooks.Hook``:

- the Java hook sees the Python session as an ``org.jhooks.Session`` (:func:`java_session`), a Java
  ``SessionRunContext`` holding the caller's args translated to Java, and a Java ``Coordinator``;
- what it returns from ``beforeSessionRun`` is translated to a Python ``SessionRunArgs`` (numpy
  feeds); its ``runValues.results`` are NdArray copies in the structure of its fetches;
- ``runContext.requestStop()`` and ``coord.requestStop()`` on the Java side are forwarded to the
  Python run context and coordinator when the callback returns (a stop requested later from
  another Java thread is forwarded at the hook's next callback);
- Java exceptions reach Python as described in :mod:`jhooks.bridge.exceptions`.

A Java ``ModelDependentHook`` becomes a :class:`JavaModelDependentHook`, whose ``modelInstance``
is forwarded to the Java hook. :class:`JavaCheckpointSaverListener` does the same for listeners.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Optional

from jhooks.api.hook import Described, Hook
from jhooks.api.listener import CheckpointSaverListener
from jhooks.api.model import ModelDependentHook, ModelInstance
from jhooks.api.run_args import SessionRunArgs
from jhooks.bridge import jvm, values
from jhooks.bridge.exceptions import call_java, from_java
from jhooks.bridge.sessions import java_session


def java_object(instance_or_class_name: Any, *ctor_args: Any) -> Any:
    """``instance_or_class_name`` itself, or a new instance of the named Java class with ``ctor_args``."""
    import jpype

    jvm.start()
    if isinstance(instance_or_class_name, str):
        cls = jpype.JClass(instance_or_class_name)
        return call_java(cls, *ctor_args)
    if ctor_args:
        raise TypeError(f"constructor arguments {ctor_args!r} given with an existing Java object")
    return instance_or_class_name


# One Java run context per Python run context, shared by all Java hooks of that run.
_contexts: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_contexts_lock = threading.Lock()


def _java_context(runContext: Any) -> Any:
    import jpype

    with _contexts_lock:
        try:
            cached = _contexts.get(runContext)
        except TypeError:
            cached = None
        if cached is not None:
            return cached
        args = runContext.originalArgs
        java_args = values.run_args_to_java(args if args is not None else SessionRunArgs())
        context = jpype.JClass("org.jhooks.SessionRunContext")(java_args, java_session(runContext.session))
        try:
            _contexts[runContext] = context
        except TypeError:
            pass
        return context


class JavaHook(Hook, Described):
    """A Python hook calling a Java ``org.jhooks.Hook`` (see the module docstring)."""

    def __new__(cls, instance_or_class_name: Any, *ctor_args: Any) -> "JavaHook":
        java = java_object(instance_or_class_name, *ctor_args)
        import jpype

        if not isinstance(java, jpype.JClass("org.jhooks.Hook")):
            raise TypeError(f"{java.getClass().getName()} does not implement org.jhooks.Hook")
        if cls is JavaHook and isinstance(java, jpype.JClass("org.jhooks.ModelDependentHook")):
            cls = JavaModelDependentHook
        self = super().__new__(cls)
        self.java = java
        self._coords: list = []  # [(python coordinator, java coordinator)] of the live session
        return self

    def __init__(self, instance_or_class_name: Any, *ctor_args: Any) -> None:
        pass

    @property
    def javaClassName(self) -> str:
        return str(self.java.getClass().getName())

    def describe(self) -> str:
        """``com.example.MyHook, Java``: how driver messages name this hook."""
        return f"{self.javaClassName}, Java"

    def __repr__(self) -> str:
        return f"JavaHook({self.javaClassName})"

    def _sync_stop(self, runContext: Any = None, java_context: Any = None) -> None:
        if runContext is not None and java_context is not None and java_context.stopRequested() \
                and not runContext.stopRequested:
            runContext.requestStop()
        for py_coord, java_coord in self._coords:
            if java_coord.shouldStop() and not py_coord.shouldStop():
                error = java_coord.error()
                py_coord.requestStop(None if error is None else from_java(error))
            elif py_coord.shouldStop() and not java_coord.shouldStop():
                java_coord.requestStop()

    def begin(self) -> None:
        call_java(self.java.begin)

    def beginSession(self) -> None:
        call_java(self.java.beginSession)

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        import jpype

        java_coord = jpype.JClass("org.jhooks.Coordinator")()
        self._coords = [(coord, java_coord)]
        call_java(self.java.afterCreateSession, java_session(session), java_coord)
        self._sync_stop()

    def beforeSessionRun(self, runContext: Any) -> Optional[SessionRunArgs]:
        context = _java_context(runContext)
        try:
            java_args = call_java(self.java.beforeSessionRun, context)
        finally:
            self._sync_stop(runContext, context)
        return values.run_args_to_python(java_args)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        import jpype

        context = _java_context(runContext)
        java_values = jpype.JClass("org.jhooks.SessionRunValues")(
            values.results_to_java(runValues.results), values.options_to_java(runValues.options),
            values.run_metadata_to_java(runValues.runMetadata))
        try:
            call_java(self.java.afterSessionRun, context, java_values)
        finally:
            self._sync_stop(runContext, context)

    def end(self, session: Any) -> None:
        try:
            call_java(self.java.end, java_session(session))
        finally:
            self._sync_stop()


class JavaModelDependentHook(JavaHook, ModelDependentHook):
    """A Java ``org.jhooks.ModelDependentHook``; setting ``modelInstance`` sets it on the Java hook."""

    @property
    def modelInstance(self) -> Optional[ModelInstance]:
        return ModelDependentHook.modelInstance.fget(self)

    @modelInstance.setter
    def modelInstance(self, instance: ModelInstance) -> None:
        ModelDependentHook.modelInstance.fset(self, instance)
        if getattr(self, "_java_model_for", None) is not instance:
            call_java(self.java.setModelInstance, values.model_to_java(instance))
            self._java_model_for = instance


class JavaCheckpointSaverListener(CheckpointSaverListener):
    """A Python listener calling a Java ``org.jhooks.CheckpointSaverListener``."""

    def __init__(self, instance_or_class_name: Any, *ctor_args: Any) -> None:
        import jpype

        self.java = java_object(instance_or_class_name, *ctor_args)
        if not isinstance(self.java, jpype.JClass("org.jhooks.CheckpointSaverListener")):
            raise TypeError(f"{self.java.getClass().getName()} does not implement org.jhooks.CheckpointSaverListener")

    def __repr__(self) -> str:
        return f"JavaCheckpointSaverListener({self.java.getClass().getName()})"

    def begin(self) -> None:
        call_java(self.java.begin)

    def beforeSave(self, session: Any, globalStep: int) -> None:
        import jpype

        call_java(self.java.beforeSave, java_session(session), jpype.JLong(int(globalStep)))

    def afterSave(self, session: Any, globalStep: int) -> bool:
        import jpype

        return bool(call_java(self.java.afterSave, java_session(session), jpype.JLong(int(globalStep))))

    def end(self, session: Any, globalStep: int) -> None:
        import jpype

        call_java(self.java.end, java_session(session), jpype.JLong(int(globalStep)))
