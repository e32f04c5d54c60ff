"""Compares an observation (what a runner saw) with a scenario's ``expected``; twin of
org.jhooks.conformance.Expectations. Each mismatch is one readable line (a diff for sequences).

An observation is a dict: trace, results, listenerTrace, saves, callerRuns, callerResults, withoutHooksResults,
outcome (kind; error: see error_descriptions; which for conflicts), finalOpsValues, stateFile,
checkpointValues (step -> variable -> value), stepsOnDisk (steps with checkpoint files), graph (nodes of
graph.pbtxt or None, the graph events in order), subdirs
(sub-directory -> stateFile, checkpointValues, stepsOnDisk) and, on the JVM driver, hookPositions (hook name ->
its 1-based place in the driver's hook list, as JVM messages name hooks).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

ERROR_TYPES = {
    "ScriptedHook": {"ScriptedHookError", "ScriptedHookException"},
    "InvalidArgument": {"InvalidArgumentError", "TFInvalidArgumentException"},
    "NanLoss": {"NanLossDuringTrainingError", "NanLossDuringTrainingException"},
    "OutOfRange": {"OutOfRangeError", "TFOutOfRangeException"},
    "Aborted": {"AbortedError"},
    "GraphName": {"GraphNameError", "GraphNameException"},
    "Hook": {"HookError", "HookException"},
}


def equal(a: Any, b: Any) -> bool:
    """JSON equality; numbers by value (1 == 1.0, float32 rounding tolerated), bools not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    return a == b


def is_type(kind: str, error: Mapping[str, Any]) -> bool:
    for t in error["types"]:
        if t in ERROR_TYPES[kind]:
            return True
        if kind == "Aborted" and t == "TensorFlowException" and error["message"].startswith("ABORTED"):
            return True
    return False


def _summary(error: Any) -> str:
    return "" if not error else f"{error['types'][0]}: {error['message']}"


def compare(scenario: Mapping[str, Any], observation: Mapping[str, Any]) -> list[str]:
    """Every mismatch; empty when the observation conforms."""
    out: list[str] = []
    exp = scenario["expected"]
    _sequence("trace", exp["trace"], observation["trace"], out)
    _outcome(exp["outcome"], observation, out)
    if "callerRuns" in exp:
        want, got = exp["callerRuns"], observation["callerRuns"]
        ok = got == want if isinstance(want, int) else want.get("min", got) <= got <= want.get("max", got)
        if not ok:
            out.append(f"callerRuns: expected {want}, got {got}")
    if "callerResults" in exp:
        _same("callerResults", exp["callerResults"], observation["callerResults"], out)
    if "withoutHooksResults" in exp:
        _same("withoutHooksResults", exp["withoutHooksResults"], observation["withoutHooksResults"], out)
    if "results" in exp:
        for hook in scenario["hooks"]:
            if "standard" not in hook:
                name = hook["name"]
                _same(f"results[{name}]", exp["results"].get(name, []), observation["results"].get(name, []), out)
    for name, want in exp.get("finalOpsValues", {}).items():
        _same(f"finalOpsValues[{name}]", want, observation["finalOpsValues"].get(name), out)
    if "checkpoints" in exp:
        _checkpoints(exp["checkpoints"], observation, out)
    return out


def _checkpoints(want: Mapping[str, Any], obs: Mapping[str, Any], out: list[str]) -> None:
    if "saves" in want:
        _same("checkpoints.saves", want["saves"], obs["saves"], out)
    if "stateFile" in want:
        _same("checkpoints.stateFile", want["stateFile"], obs["stateFile"], out)
    got = obs["checkpointValues"]
    for step, variables in want.get("values", {}).items():
        if step not in got:
            out.append(f"checkpoints.values: no checkpoint of step {step} on disk (have {sorted(got)})")
            continue
        for var, value in variables.items():
            _same(f"checkpoints.values[{step}][{var}]", value, got[step].get(var), out)
    if "listenerTrace" in want:
        _sequence("checkpoints.listenerTrace", want["listenerTrace"], obs["listenerTrace"], out)
    if "stepsOnDisk" in want:
        _same("checkpoints.stepsOnDisk", want["stepsOnDisk"], obs["stepsOnDisk"], out)
    if "graph" in want:
        graph = obs["graph"]
        if graph["nodes"] is None:
            out.append("checkpoints.graph.nodes: no graph.pbtxt in the checkpoint dir")
        else:
            missing = [n for n in want["graph"]["nodes"] if n not in graph["nodes"]]
            if missing:
                out.append(f"checkpoints.graph.nodes: graph.pbtxt has no node {', '.join(missing)}")
        _same("checkpoints.graph.events", want["graph"]["events"], graph["events"], out)
    for name, sub in want.get("subdirs", {}).items():
        got = obs.get("subdirs", {}).get(name)
        if got is None:
            out.append(f"checkpoints.subdirs[{name}]: no such sub-directory with a state file")
            continue
        for key in ("stateFile", "stepsOnDisk"):
            if key in sub:
                _same(f"checkpoints.subdirs[{name}].{key}", sub[key], got[key], out)
        for step, variables in sub.get("values", {}).items():
            if step not in got["checkpointValues"]:
                out.append(f"checkpoints.subdirs[{name}].values: no checkpoint of step {step}")
                continue
            for var, value in variables.items():
                _same(
                    f"checkpoints.subdirs[{name}].values[{step}][{var}]",
                    value,
                    got["checkpointValues"][step].get(var),
                    out,
                )


def _outcome(want: Mapping[str, Any], obs: Mapping[str, Any], out: list[str]) -> None:
    got = obs["outcome"]
    error = got.get("error")
    if want["kind"] != got["kind"]:
        out.append(f"outcome: expected {want['kind']}, got {got['kind']} {_summary(error)}".rstrip())
        return
    if want["kind"] == "error":
        _error("outcome", want, error, out)
    elif want["kind"] == "conflict":
        if want["which"] != got.get("which"):
            out.append(f"outcome.which: expected {want['which']}, got {got.get('which')} {_summary(error)}")
        _contains("outcome message", error["message"], want["tensor"], out)
        positions = obs.get("hookPositions") or {}
        for hook in want["hooks"]:
            if hook in positions:
                _contains("outcome message", error["message"], f"hook #{positions[hook]} ", out)


def _error(where: str, want: Mapping[str, Any], error: Mapping[str, Any], out: list[str]) -> None:
    if "type" in want and not is_type(want["type"], error):
        out.append(f"{where}: expected a {want['type']} error, got {_summary(error)}")
    for part in want.get("messageContains", []):
        _contains(f"{where} message", error["message"], part, out)
    for part in want.get("stackContains", []):
        _contains(f"{where} stack", error["stack"], part, out)
    if "cause" in want:
        if "cause" not in error:
            out.append(f"{where}: expected a cause, got none on {_summary(error)}")
        else:
            _error(f"{where}.cause", want["cause"], error["cause"], out)


def _contains(where: str, text: str, part: str, out: list[str]) -> None:
    if part not in text:
        out.append(f"{where} lacks {part!r}: {text[:400]}{'...' if len(text) > 400 else ''}")


def _sequence(where: str, want: list[Any], got: list[Any], out: list[str]) -> None:
    if not equal(want, got):
        i = 0
        while i < len(want) and i < len(got) and equal(want[i], got[i]):
            i += 1
        w = want[i] if i < len(want) else "<end>"
        g = got[i] if i < len(got) else "<end>"
        out.append(f"{where}: first difference at [{i}]: expected {w}, got {g}\n  expected {want}\n  got      {got}")


def _same(where: str, want: Any, got: Any, out: list[str]) -> None:
    if not equal(want, got):
        out.append(f"{where}:\n  expected {want}\n  got      {got}")
