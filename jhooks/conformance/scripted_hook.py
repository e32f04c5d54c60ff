"""Scripted recording hooks driven by a scenario's hook JSON (twin of org.jhooks.conformance.ScriptedHook).

Each callback appends ``<name>.<event>`` to a shared :class:`Recorder` on entry (``begin``,
``afterCreateSession``, ``before@n``, ``after@n``, ``end``; ``n`` is the hook's own count of
``beforeSessionRun`` calls, so a retried attempt counts again), then applies the actions for that
callback in a fixed phase order: recordModelInstance, recordOriginalArgs, rawRun, fetch/feed (one
SessionRunArgs), results (afterSessionRun: when the hook asked for something in that run or a
recordResults action applies), requestStop, raise. The event and result strings are identical in
both languages; docs/conformance.md describes them.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, Protocol

from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener, SaveDecision
from jhooks.api.model import ModelDependentHook
from jhooks.api.run_args import SessionRunArgs
from jhooks.conformance import values

_PHASES = ("recordModelInstance", "recordOriginalArgs", "rawRun", "args", "results", "requestStop", "raise")


class ScriptedHookError(RuntimeError):
    """The error a scripted hook raises on request (Java: ScriptedHookException)."""


class Recording(Protocol):
    """What scripted hooks and listeners record into: a :class:`Recorder`, or
    ``jhooks.conformance.recording.JavaBackedRecorder`` when Java hooks share the trace."""

    def event(self, hook: str, label: str) -> None: ...

    def result(self, hook: str, at: str, what: str, value: Any) -> None: ...

    def listenerEvent(self, listener: str, label: str) -> None: ...

    def saved(self, globalStep: int) -> None: ...


class Recorder:
    """The shared, thread-safe record of one scenario run: hook trace, results, listener trace."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.trace: list[str] = []
        self.results: dict[str, list[dict[str, Any]]] = {}
        self.listenerTrace: list[str] = []
        self.saves: list[int] = []

    def event(self, hook: str, label: str) -> None:
        with self._lock:
            self.trace.append(f"{hook}.{label}")

    def result(self, hook: str, at: str, what: str, value: Any) -> None:
        with self._lock:
            self.results.setdefault(hook, []).append({"at": at, "what": what, "value": value})

    def listenerEvent(self, listener: str, label: str) -> None:
        with self._lock:
            self.listenerTrace.append(f"{listener}.{label}")

    def saved(self, globalStep: int) -> None:
        """A checkpoint saver finished a save at ``globalStep`` (see standard_hooks.SaveRecorder)."""
        with self._lock:
            self.saves.append(int(globalStep))

    def snapshot(self) -> dict[str, Any]:
        """Copies of trace, results, listenerTrace and saves."""
        with self._lock:
            return {
                "trace": list(self.trace),
                "results": {k: list(v) for k, v in self.results.items()},
                "listenerTrace": list(self.listenerTrace),
                "saves": list(self.saves),
            }


def _error(spec: Mapping[str, Any]) -> BaseException:
    if spec["type"] in ("Aborted", "OutOfRange"):
        import tensorflow as tf  # only scenarios that abort or end the input need TensorFlow here

        kind = tf.errors.AbortedError if spec["type"] == "Aborted" else tf.errors.OutOfRangeError
        err: BaseException = kind(None, None, spec["message"])
    else:
        err = ScriptedHookError(spec["message"])
    if "cause" in spec:
        err.__cause__ = _error(spec["cause"])
    return err


class _Scripted:
    """The scripted behaviour; mixed into a Hook or a ModelDependentHook."""

    def _setup(self, spec: Mapping[str, Any], recorder: Recording) -> None:
        self.name: str = spec["name"]
        self._actions: list[Mapping[str, Any]] = list(spec.get("actions", []))
        self._recorder = recorder
        self._runs = 0
        self._sessions = 0
        self._coord: Any = None
        self._asked: dict[int, bool] = {}
        self._first_model: Any = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"

    # ---- callbacks -------------------------------------------------------------------------
    def begin(self) -> None:
        self._callback("begin", "begin", session=None, context=None)

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        self._sessions += 1
        self._coord = coord
        self._callback("afterCreateSession", "afterCreateSession", session=session, context=None)

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs | None:
        self._runs += 1
        return self._callback(
            "beforeSessionRun", f"before@{self._runs}", session=runContext.session, context=runContext
        )

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        self._callback(
            "afterSessionRun",
            f"after@{self._runs}",
            session=runContext.session,
            context=runContext,
            runValues=runValues,
        )

    def end(self, session: Any) -> None:
        self._callback("end", "end", session=session, context=None)

    def onError(self, session: Any, error: BaseException) -> None:
        self._callback("onError", "onError", session=session, context=None)

    # ---- actions ---------------------------------------------------------------------------
    def _applies(self, action: Mapping[str, Any], callback: str) -> bool:
        if action["callback"] != callback:
            return False
        if "run" in action and action["run"] != self._runs:
            return False
        return "session" not in action or action["session"] == self._sessions

    def _callback(self, callback: str, label: str, session: Any, context: Any, runValues: Any = None) -> Any:
        self._recorder.event(self.name, label)
        actions = [a for a in self._actions if self._applies(a, callback)]
        args: SessionRunArgs | None = None
        for phase in _PHASES:
            if phase == "results":
                if callback == "afterSessionRun" and (
                    self._asked.pop(self._runs, False) or any("recordResults" in a for a in actions)
                ):
                    self._record(label, "results", values.to_json(runValues.results))
                continue
            if phase == "args":
                if callback == "beforeSessionRun":
                    args = self._args(actions)
                    self._asked[self._runs] = args is not None
                continue
            for a in actions:
                if phase in a:
                    self._apply(phase, a, label, session, context)
        return args

    def _args(self, actions: list[Mapping[str, Any]]) -> SessionRunArgs | None:
        fetches, feeds, any_args = None, {}, False
        for a in actions:
            if "fetch" in a:
                fetches, any_args = values.fetch_structure(a["fetch"]), True
            if "feed" in a:
                feeds.update(values.feeds(a["feed"]))
                any_args = True
        return SessionRunArgs(fetches=fetches, feeds=feeds) if any_args else None

    def _apply(self, phase: str, action: Mapping[str, Any], label: str, session: Any, context: Any) -> None:
        if phase == "recordModelInstance":
            model = self._model()
            if self._first_model is None:
                self._first_model = model
            value = (
                None
                if model is None
                else {"endpoints": dict(model.endpoints), "sameAsFirst": model is self._first_model}
            )
            self._record(label, "modelInstance", value)
        elif phase == "recordOriginalArgs":
            original = context.originalArgs
            self._record(
                label,
                "originalArgs",
                {"fetches": values.structure_to_json(original.fetches), "feeds": sorted(original.feeds)},
            )
        elif phase == "rawRun":
            raw = action["rawRun"]
            result = session.run(values.fetch_structure(raw["fetches"]), values.feeds(raw.get("feeds", {})))
            self._record(label, "rawRun", values.to_json(result))
        elif phase == "requestStop":
            if action["requestStop"] == "coord":
                self._coord.requestStop()
            else:
                context.requestStop()
        elif phase == "raise":
            raise _error(action["raise"])

    def _record(self, at: str, what: str, value: Any) -> None:
        self._recorder.result(self.name, at, what, value)

    def _model(self) -> Any:
        return None


class ScriptedHook(_Scripted, Hook):
    """A plain jhooks Hook scripted by a scenario's hook JSON."""

    def __init__(self, spec: Mapping[str, Any], recorder: Recording) -> None:
        self._setup(spec, recorder)


class ScriptedModelDependentHook(_Scripted, ModelDependentHook):
    """A ModelDependentHook scripted by a scenario's hook JSON; records its modelInstance on request."""

    def __init__(self, spec: Mapping[str, Any], recorder: Recording) -> None:
        self._setup(spec, recorder)

    def _model(self) -> Any:
        return self.modelInstance


class ScriptedListener(CheckpointSaverListener):
    """A CheckpointSaverListener recording ``<name>.begin``, ``beforeSave@step``, ``afterSave@step``,
    ``end@step``; ``beforeSave`` returns ``SaveDecision.SKIP`` at the steps of ``skipSaveAt``;
    ``afterSave`` returns True at ``stopAfterSaveAt`` and raises at ``raiseInAfterSave.atStep``."""

    def __init__(self, spec: Mapping[str, Any], recorder: Recording) -> None:
        self.name = spec["name"]
        self._skip_at = {int(step) for step in spec.get("skipSaveAt", [])}
        self._stop_at = spec.get("stopAfterSaveAt")
        self._raise = spec.get("raiseInAfterSave")
        self._recorder = recorder

    def begin(self) -> None:
        self._recorder.listenerEvent(self.name, "begin")

    def beforeSave(self, session: Any, globalStep: int) -> SaveDecision | None:
        self._recorder.listenerEvent(self.name, f"beforeSave@{int(globalStep)}")
        return SaveDecision.SKIP if int(globalStep) in self._skip_at else None

    def afterSave(self, session: Any, globalStep: int) -> bool:
        self._recorder.listenerEvent(self.name, f"afterSave@{int(globalStep)}")
        if self._raise is not None and int(globalStep) == self._raise["atStep"]:
            raise _error(self._raise["raise"])
        return self._stop_at is not None and int(globalStep) == self._stop_at

    def end(self, session: Any, globalStep: int) -> None:
        self._recorder.listenerEvent(self.name, f"end@{int(globalStep)}")


def make_hook(spec: Mapping[str, Any], recorder: Recording) -> _Scripted:
    """The scripted hook for one scenario hook entry (not for ``standard`` entries)."""
    if "standard" in spec:
        raise ValueError(f"hook {spec['name']!r} is a standard hook ({spec['standard']['type']}), not scripted")
    cls = ScriptedModelDependentHook if spec.get("modelDependent", False) else ScriptedHook
    return cls(spec, recorder)
