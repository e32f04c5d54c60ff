"""Loading the conformance scenarios and checking the data itself (schema plus cross-field rules).

Twin of ``org.jhooks.conformance.Scenarios``. The files live in ``jhooks/conformance/data/``:
``scenario.schema.json`` (JSON Schema draft 2020-12, normative), ``scenario-index.json`` (the
scenario names, so the JVM can list them as classpath resources) and ``scenarios/<name>.json``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

_DATA = "jhooks.conformance"

# Tensor and op names every model recipe defines (docs/conformance.md, "Model recipe").
BASE_NAMES = (
    "global_step:0",
    "counter:0",
    "global_step_read:0",
    "counter_read:0",
    "loss:0",
    "train",
    "global_step",
    "counter",
)
_EVENT = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\.(begin|afterCreateSession|before@(\d+)|after@(\d+)|end|onError)$")
_LISTENER_EVENT = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\.(begin|beforeSave@(\d+)|afterSave@(\d+)|end@(\d+))$")
_RUN_CALLBACKS = ("beforeSessionRun", "afterSessionRun")


def _read(relative: str) -> Any:
    return json.loads(resources.files(_DATA).joinpath("data").joinpath(relative).read_text(encoding="utf-8"))


def schema() -> dict[str, Any]:
    """The scenario JSON Schema (draft 2020-12)."""
    return _read("scenario.schema.json")


def names() -> list[str]:
    """Scenario names from ``scenario-index.json``, in file order."""
    return list(_read("scenario-index.json"))


def load(name: str) -> dict[str, Any]:
    """One scenario by name; FileNotFoundError when there is no such file."""
    return _read(f"scenarios/{name}.json")


def validate(scenario: dict[str, Any]) -> list[str]:
    """Schema violations as readable strings (empty when valid)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in sorted(validator.iter_errors(scenario), key=lambda e: list(map(str, e.absolute_path)))
    ]


def graph_names(model: dict[str, Any]) -> set:
    """Every tensor and op name the recipe builds."""
    out = set(BASE_NAMES)
    if "input" in model:
        out.add("input_next:0")
    if "failAtStep" in model:
        out.add("fail_at")
    for p in model.get("placeholders", []):
        out.update({f"{p['name']}:0", f"{p['name']}_doubled:0", p["name"], f"{p['name']}_doubled"})
    return out


def fetch_leaves(fetch: Any) -> Iterator[str]:
    if isinstance(fetch, str):
        yield fetch
    elif isinstance(fetch, list):
        for f in fetch:
            yield from fetch_leaves(f)
    elif isinstance(fetch, dict):
        for f in fetch["$tuple"] if "$tuple" in fetch else fetch.values():
            yield from fetch_leaves(f)


def _has_tuple(fetch: Any) -> bool:
    if isinstance(fetch, list):
        return any(_has_tuple(f) for f in fetch)
    if isinstance(fetch, dict):
        return "$tuple" in fetch or any(_has_tuple(f) for f in fetch.values())
    return False


def check_consistency(s: dict[str, Any]) -> list[str]:
    """Cross-field problems the schema cannot express; empty when the scenario is consistent."""
    problems: list[str] = []
    model, hooks, expected = s["model"], s["hooks"], s["expected"]
    known = graph_names(model)
    placeholders = {f"{p['name']}:0": p for p in model.get("placeholders", [])}
    hook_names = [h["name"] for h in hooks]
    if len(set(hook_names)) != len(hook_names):
        problems.append(f"hook names are not unique: {hook_names}")
    scripted = {h["name"]: h for h in hooks if "standard" not in h}
    standard = {h["name"]: h for h in hooks if "standard" in h}
    outcome = expected["outcome"]
    bad_name_expected = outcome["kind"] == "error" and outcome.get("type", "GraphName") == "GraphName"
    aborts = sum(
        1 for h in scripted.values() for a in h.get("actions", []) if a.get("raise", {}).get("type") == "Aborted"
    )
    without_hooks = s["caller"].get("withoutHooks", [])
    max_attempts = s["caller"]["maxRuns"] + len(s["driver"].get("recoveryFaults", [])) + aborts

    def check_fetch(where: str, fetch: Any, python_only_ok: bool) -> None:
        for leaf in fetch_leaves(fetch):
            if leaf not in known and not (
                bad_name_expected and any(m in leaf for m in outcome.get("messageContains", []))
            ):
                problems.append(f"{where}: '{leaf}' is not built by the model recipe")
        if _has_tuple(fetch) and not python_only_ok:
            problems.append(f"{where}: a $tuple fetch needs language 'python'")

    def check_feeds(where: str, feeds: dict[str, Any]) -> None:
        for tensor, value in feeds.items():
            p = placeholders.get(tensor)
            if p is None:
                problems.append(f"{where}: feeds '{tensor}', which is not a declared placeholder")
                continue
            if value["dtype"] != p["dtype"] or value["shape"] != p["shape"]:
                problems.append(
                    f"{where}: feed of '{tensor}' is {value['dtype']}{value['shape']}, "
                    f"the placeholder is {p['dtype']}{p['shape']}"
                )
            if len(value["values"]) != math.prod(value["shape"]):
                problems.append(
                    f"{where}: feed of '{tensor}' has {len(value['values'])} values for shape {value['shape']}"
                )

    for name, h in scripted.items():
        python_only = h.get("language", "any") == "python"
        for i, a in enumerate(h.get("actions", [])):
            where = f"hook {name} action {i}"
            cb = a["callback"]
            if ("fetch" in a or "feed" in a) and cb != "beforeSessionRun":
                problems.append(f"{where}: fetch/feed only in beforeSessionRun, not {cb}")
            if "recordResults" in a and cb != "afterSessionRun":
                problems.append(f"{where}: recordResults only in afterSessionRun")
            if "recordOriginalArgs" in a and cb not in _RUN_CALLBACKS:
                problems.append(f"{where}: recordOriginalArgs only in beforeSessionRun/afterSessionRun")
            if "run" in a and cb not in _RUN_CALLBACKS:
                problems.append(f"{where}: 'run' only with beforeSessionRun/afterSessionRun")
            if "run" in a and a["run"] > max_attempts:
                problems.append(f"{where}: run {a['run']} is beyond the {max_attempts} attempts the scenario can make")
            if "session" in a and cb != "afterCreateSession":
                problems.append(f"{where}: 'session' only with afterCreateSession")
            if "recordModelInstance" in a and not h.get("modelDependent", False):
                problems.append(f"{where}: recordModelInstance on a hook that is not modelDependent")
            if a.get("requestStop") == "runContext" and cb not in _RUN_CALLBACKS:
                problems.append(f"{where}: runContext.requestStop() outside beforeSessionRun/afterSessionRun")
            if a.get("requestStop") == "coord" and cb == "begin":
                problems.append(f"{where}: no coordinator exists in begin")
            if "rawRun" in a and cb == "begin":
                problems.append(f"{where}: no session exists in begin")
            if "fetch" in a:
                check_fetch(where, a["fetch"], python_only)
            check_feeds(where, a.get("feed", {}))
            if "rawRun" in a:
                check_fetch(where + " rawRun", a["rawRun"]["fetches"], python_only)
                check_feeds(where + " rawRun", a["rawRun"].get("feeds", {}))
    for name, h in standard.items():
        std = h["standard"]
        if std["type"] == "FinalOpsHook":
            check_fetch(f"hook {name} finalOps", std["finalOps"], False)
            check_feeds(f"hook {name} finalOpsFeeds", std.get("finalOpsFeeds", {}))
        if std["type"] == "NanTensorHook" and std["lossTensor"] not in known:
            problems.append(f"hook {name}: lossTensor '{std['lossTensor']}' is not built by the model recipe")
        if std["type"].endswith("CheckpointSaverHook") and not s["driver"].get("checkpointDir", False):
            problems.append(f"hook {name}: a checkpoint saver needs driver.checkpointDir true")
    caller = s["caller"]
    check_fetch("caller", caller.get("fetches", "train"), False)
    check_feeds("caller", caller.get("feeds", {}))
    for i, w in enumerate(without_hooks):
        check_fetch(f"caller.withoutHooks[{i}]", w["fetches"], False)
        check_feeds(f"caller.withoutHooks[{i}]", w.get("feeds", {}))
        if w["afterRun"] > caller["maxRuns"]:
            problems.append(f"caller.withoutHooks[{i}]: afterRun {w['afterRun']} > caller.maxRuns {caller['maxRuns']}")
    if [w["afterRun"] for w in without_hooks] != sorted(w["afterRun"] for w in without_hooks):
        problems.append("caller.withoutHooks: list the runs in the order the caller makes them (afterRun ascending)")
    if len(expected.get("withoutHooksResults", [])) > len(without_hooks):
        problems.append("more withoutHooksResults than caller.withoutHooks")

    problems += _check_trace(expected["trace"], scripted, s, max_attempts)
    for name, results in expected.get("results", {}).items():
        if name not in scripted:
            problems.append(f"expected.results names '{name}', which is not a scripted hook")
            continue
        events = {e.split(".", 1)[1] for e in expected["trace"] if e.split(".", 1)[0] == name}
        for r in results:
            if r["at"] not in events:
                problems.append(f"expected.results[{name}] at '{r['at']}', but the trace has no {name}.{r['at']}")
    if outcome["kind"] == "conflict":
        for hook in outcome["hooks"]:
            if hook not in scripted:
                problems.append(f"outcome.hooks names '{hook}', which is not a scripted hook")
        if outcome["tensor"] not in placeholders:
            problems.append(f"outcome.tensor '{outcome['tensor']}' is not a placeholder")
    runs = expected.get("callerRuns")
    if isinstance(runs, int):
        if runs > caller["maxRuns"]:
            problems.append(f"callerRuns {runs} > caller.maxRuns {caller['maxRuns']}")
        if len(expected.get("callerResults", [])) > runs:
            problems.append("more callerResults than callerRuns")
        if outcome["kind"] == "normal" and runs != caller["maxRuns"]:
            problems.append("a normal outcome means the caller made maxRuns runs")
    for name, _ in expected.get("finalOpsValues", {}).items():
        if standard.get(name, {}).get("standard", {}).get("type") != "FinalOpsHook":
            problems.append(f"finalOpsValues names '{name}', which is not a FinalOpsHook")
    problems += _check_checkpoints(s, standard)
    problems += _check_hook_end_of_input(scripted, standard, outcome)
    return problems


def _check_hook_end_of_input(scripted: dict[str, Any], standard: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    """An OutOfRange raised by a hook or a listener is an error, never the end of the caller's input
    (docs/contract.md, "End of input")."""
    raisers = [
        n for n, h in scripted.items() for a in h.get("actions", []) if a.get("raise", {}).get("type") == "OutOfRange"
    ]
    raisers += [
        f"{n}/{listener['name']}"
        for n, h in standard.items()
        for listener in h["standard"].get("listeners", [])
        if "raiseInAfterSave" in listener
    ]
    if raisers and outcome["kind"] == "endOfInput":
        return [f"{', '.join(raisers)} raise OutOfRange: that is an error, not end of input"]
    return []


def _check_trace(trace: list[str], scripted: dict[str, Any], s: dict[str, Any], max_attempts: int) -> list[str]:
    problems: list[str] = []
    state: dict[str, dict[str, Any]] = {}
    chief = s["driver"].get("isChief", True)
    for i, event in enumerate(trace):
        m = _EVENT.match(event)
        if not m:
            problems.append(f"trace[{i}] '{event}' is not an event")
            continue
        hook, callback = m.group(1), m.group(2)
        if hook not in scripted:
            problems.append(f"trace[{i}] '{event}': '{hook}' is not a scripted hook")
            continue
        if scripted[hook].get("chiefOnly") and not chief:
            problems.append(f"trace[{i}] '{event}': chief-only hook on a non-chief")
        st = state.setdefault(hook, {"begun": False, "sessions": 0, "last_before": 0, "open": None, "ended": False})
        if callback == "onError":  # once, last, after the hook got a session (an end may precede it)
            if st.get("erred"):
                problems.append(f"trace[{i}]: second {hook}.onError")
            if st["sessions"] == 0:
                problems.append(f"trace[{i}] '{event}' before any {hook}.afterCreateSession")
            st["erred"] = True
            continue
        if st.get("erred"):
            problems.append(f"trace[{i}] '{event}' after {hook}.onError")
        if st["ended"]:
            problems.append(f"trace[{i}] '{event}' after {hook}.end")
        if callback == "begin":
            if st["begun"]:
                problems.append(f"trace[{i}]: second {hook}.begin")
            st["begun"] = True
        elif not st["begun"]:
            problems.append(f"trace[{i}] '{event}' before {hook}.begin")
        if callback == "afterCreateSession":
            st["sessions"] += 1
            st["open"] = None
        elif m.group(3):
            n = int(m.group(3))
            if n != st["last_before"] + 1:
                problems.append(f"trace[{i}] '{event}': expected {hook}.before@{st['last_before'] + 1}")
            if n > max_attempts:
                problems.append(f"trace[{i}] '{event}': beyond {max_attempts} attempts")
            if st["sessions"] == 0:
                problems.append(f"trace[{i}] '{event}' before any {hook}.afterCreateSession")
            st["last_before"], st["open"] = n, n
        elif m.group(4):
            n = int(m.group(4))
            if st["open"] != n:
                problems.append(f"trace[{i}] '{event}' does not follow {hook}.before@{n} of the same session")
            st["open"] = None
        elif callback == "end":
            st["ended"] = True
    return problems


def _check_checkpoints(s: dict[str, Any], standard: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    ck = s["expected"].get("checkpoints")
    savers = [h for h in standard.values() if h["standard"]["type"].endswith("CheckpointSaverHook")]
    if ck is None:
        if savers:
            problems.append("a scenario with a checkpoint saver must state expected.checkpoints")
        return problems
    if not savers:
        problems.append("expected.checkpoints without a checkpoint saver hook")
        return problems
    saves = ck.get("saves", [])
    for step in ck.get("values", {}):
        if int(step) not in saves:
            problems.append(f"checkpoints.values has step {step}, which is not among the saves {saves}")
    state = ck.get("stateFile")
    basename = savers[0]["standard"].get("checkpointBasename", "model.ckpt")
    if saves and state:
        if state["modelCheckpointPath"] != f"{basename}-{saves[-1]}":
            problems.append(f"stateFile.modelCheckpointPath should name the last save {basename}-{saves[-1]}")
        if state["allModelCheckpointPaths"][-1:] != [state["modelCheckpointPath"]]:
            problems.append("stateFile.allModelCheckpointPaths must end with modelCheckpointPath")
    if not saves and state is not None:
        problems.append("no saves but a state file")
    listeners = {l["name"] for h in savers for l in h["standard"].get("listeners", [])}
    # a listener raising in afterSave at step s saw that save, which the runner's recorder (last) did not
    raised_at = {
        l["raiseInAfterSave"]["atStep"]
        for h in savers
        for l in h["standard"].get("listeners", [])
        if "raiseInAfterSave" in l
    }
    # a save a listener skipped got every beforeSave but no afterSave (docs/standard-hooks.md, "Listener veto")
    skipped = {step for h in savers for l in h["standard"].get("listeners", []) for step in l.get("skipSaveAt", [])}
    # end's step is the last step: not saved when skipped, or refused after a NaN loss ("No poisoned checkpoints")
    watched = any(h["standard"]["type"] == "NanTensorHook" for h in standard.values())
    nan_at = s["model"].get("nanLossAtStep") if watched else None
    for i, event in enumerate(ck.get("listenerTrace", [])):
        m = _LISTENER_EVENT.match(event)
        if not m or m.group(1) not in listeners:
            problems.append(f"checkpoints.listenerTrace[{i}] '{event}' names no listener of a saver hook")
            continue
        allowed = {*saves, *raised_at}
        if m.group(3):
            allowed |= skipped
        if m.group(5) and nan_at is not None and int(m.group(5)) >= nan_at:
            allowed.add(int(m.group(5)))
        if m.group(5):
            allowed |= skipped
        step = m.group(3) or m.group(4) or m.group(5)
        if step and int(step) not in allowed:
            problems.append(f"checkpoints.listenerTrace[{i}] '{event}': step not among the saves {saves}")
    if nan_at is not None:
        for step in saves:
            if step >= nan_at:
                problems.append(
                    f"checkpoints.saves has step {step}: the loss was NaN in the run that made step {nan_at}"
                )
    for step in skipped & set(saves):
        problems.append(f"checkpoints.saves has step {step}, which a listener skips")
    return problems
