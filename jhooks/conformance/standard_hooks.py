"""The Python standard hook (jhooks.hooks) for a scenario hook entry with ``standard``; twin of
org.jhooks.conformance.StandardHooks. Checkpoint savers get the scenario's ScriptedListeners, a
BestCheckpointsListener for ``bestCheckpoints``, then a :class:`SaveRecorder`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from jhooks.api.listener import CheckpointSaverListener
from jhooks.conformance import values
from jhooks.conformance.scripted_hook import ScriptedListener


class SaveRecorder(CheckpointSaverListener):
    """The runner's own listener, added last to every saver: records each finished save's step."""

    def __init__(self, recorder: Any) -> None:
        self._recorder = recorder

    def afterSave(self, session: Any, globalStep: int) -> bool:
        self._recorder.saved(int(globalStep))
        return False


def create(spec: Mapping[str, Any], checkpointDir: str | None, recorder: Any) -> Any:
    """The standard hook for ``spec`` (a scenario hook entry); ValueError for an unknown type."""
    from jhooks import hooks

    s = spec["standard"]
    kind = s["type"]
    if kind == "StopAtStepHook":
        return hooks.StopAtStepHook(numSteps=s.get("numSteps"), lastStep=s.get("lastStep"))
    if kind == "GlobalStepWaiterHook":
        return hooks.GlobalStepWaiterHook(s["waitUntilStep"], pollSecs=s.get("pollSecs", 0.5))
    if kind == "StopIfNoImprovementHook":
        return hooks.StopIfNoImprovementHook(
            s["metric"],
            mode=s.get("mode", "min"),
            patience=s.get("patience", 1),
            minDelta=s.get("minDelta", 0.0),
            everyNSteps=s.get("everyNSteps", 1),
        )
    if kind == "ProfilerHook":
        if checkpointDir is None:
            raise ValueError(f"hook {spec['name']!r}: a ProfilerHook writes into the driver's checkpointDir")
        return hooks.ProfilerHook(
            saveSteps=s["saveSteps"],
            outputDir=os.path.join(checkpointDir, "profile"),
            showDataflow=s.get("showDataflow", True),
            showMemory=s.get("showMemory", False),
        )
    if kind == "NanTensorHook":
        return hooks.NanTensorHook(s["lossTensor"], failOnNanLoss=s["failOnNanLoss"])
    if kind == "FinalOpsHook":
        feeds = values.feeds(s["finalOpsFeeds"]) if "finalOpsFeeds" in s else None
        return hooks.FinalOpsHook(values.fetch_structure(s["finalOps"]), feeds)
    if kind in ("CheckpointSaverHook", "AsyncCheckpointSaverHook"):
        if checkpointDir is None:
            raise ValueError(f"hook {spec['name']!r}: a {kind} needs the driver's checkpointDir")
        listeners: list[Any] = [ScriptedListener(l, recorder) for l in s.get("listeners", [])]
        if "bestCheckpoints" in s:
            best = s["bestCheckpoints"]
            listeners.append(
                hooks.BestCheckpointsListener(
                    checkpointDir,
                    best["metric"],
                    mode=best.get("mode", "min"),
                    keep=best.get("keep", 1),
                    subdir=best.get("subdir", "best"),
                    checkpointBasename=s.get("checkpointBasename", "model.ckpt"),
                )
            )
        listeners.append(SaveRecorder(recorder))
        cls = hooks.CheckpointSaverHook if kind == "CheckpointSaverHook" else hooks.AsyncCheckpointSaverHook
        return cls(
            checkpointDir,
            saveSteps=s["saveSteps"],
            checkpointBasename=s.get("checkpointBasename", "model.ckpt"),
            listeners=listeners,
        )
    raise ValueError(f"hook {spec['name']!r}: unknown standard hook {kind!r}")


def final_ops_values(hook: Any) -> Any:
    """A FinalOpsHook's finalOpsValues as recorded JSON (None: never ran)."""
    return values.to_json(hook.finalOpsValues())
