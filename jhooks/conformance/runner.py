"""Runs conformance scenarios under driver x hook-language combinations and judges them.

``run_case(name, combo)`` runs ONE scenario under one combination (see jhooks.conformance.combos)
and returns a :class:`CaseResult`: ``passed``, ``failed`` (with the mismatches), ``xfailed``
(failed and listed in ``data/xfail-python.json`` with a reason) or ``skipped`` (the combination
does not apply). Expected-failure lists are strict: a listed case that passes is ``failed``.
Case ids are ``<scenario>[<combo>]``, e.g. ``normal_end_hook_order[jvm-driver-python-hooks]``.

The Python driver needs TensorFlow; any Java hook or the JVM driver starts the one JVM of the
process (jhooks.bridge.process.jvm). See docs/conformance.md, "Runners".
"""

from __future__ import annotations

import json
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from jhooks.conformance import combos, driver, expectations, python_driver, scenarios
from jhooks.conformance.combos import Combo

XFAIL_FILE = "xfail-python.json"


@dataclass
class CaseResult:
    scenario: str
    combo: str
    outcome: str  # passed | failed | xfailed | skipped
    detail: str = ""
    mismatches: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return case_id(self.scenario, self.combo)


def case_id(scenario: str, combo: Any) -> str:
    return f"{scenario}[{combo}]"


def expected_failures(filename: str = XFAIL_FILE) -> dict[str, str]:
    """``{"<scenario>[<combo>]": reason}`` from ``jhooks/conformance/data/<filename>``."""
    text = resources.files("jhooks.conformance").joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    return json.loads(text)


def observe(
    scenario: Mapping[str, Any],
    combo: Combo,
    languages: Sequence[str],
    workdir: str,
    sessionFactory: Any = None,
    extraHooks: Callable[[str], Iterable[Any]] | None = None,
) -> dict[str, Any]:
    """Runs the scenario once and returns the observation (see jhooks.conformance.expectations).

    ``extraHooks(side)`` gives hooks added after the scenario's: for ``side`` ``"python"`` jhooks
    hooks for a Python-side driver (a Java hook as ``jhooks.bridge.JavaHook``), for ``"java"``
    ``org.jhooks.Hook`` objects for the JVM driver (a Python hook through ``as_java_hook``).
    ``sessionFactory`` applies to Python-side drivers.
    """
    if combo.driver == "jvm":
        from jhooks.conformance import jvm_driver

        return jvm_driver.run(scenario, languages, workdir, extraHooks)
    the_driver = driver.get(combo.driver)
    if "java" in languages:
        from jhooks.conformance.jars import start_jvm
        from jhooks.conformance.recording import JavaBackedRecorder

        start_jvm()
        recorder: Any = JavaBackedRecorder()
    else:
        from jhooks.conformance.scripted_hook import Recorder

        recorder = Recorder()
    extra = list(extraHooks("python")) if extraHooks is not None else []
    return python_driver.run(scenario, languages, workdir, recorder, sessionFactory, extra, the_driver)


def skip_reason(scenario: Mapping[str, Any], combo: Combo, sessionFactory: Any = None) -> str | None:
    """Why ``combo`` does not run ``scenario`` (a fixed hook language, the scenario's drivers, a
    driver that does not recover and the scenario's recovery faults, a session factory on the JVM
    driver), or None."""
    _, skip = combos.languages(scenario, combo)
    if skip is not None:
        return skip
    if combo.driver == "jvm":
        if sessionFactory is not None:
            return "a Python session factory applies to the Python-side drivers only"
        return None
    if needs_recovery(scenario) and not driver.get(combo.driver).recovers:
        return f"the {combo.driver} driver does not recover from AbortedError"
    return None


def needs_recovery(scenario: Mapping[str, Any]) -> bool:
    """Whether the scenario's expectations rest on recovering from AbortedError: it has
    ``recoveryFaults``, or a hook raises ``Aborted``."""
    if scenario["driver"].get("recoveryFaults"):
        return True
    return '"type": "Aborted"' in json.dumps(scenario["hooks"])


def run_case(
    name: str,
    combo: Combo,
    xfail: Mapping[str, str] | None = None,
    sessionFactory: Any = None,
    extraHooks: Callable[[str], Iterable[Any]] | None = None,
    check: Callable[[dict[str, Any]], list[str]] | None = None,
) -> CaseResult:
    """Runs and judges one case; ``check(observation)`` may add mismatches (CLI user hooks), listed
    first. A failed case's ``detail`` is its mismatches, one or more lines each; the first line names
    the first mismatch (a runner crash: ``the runner failed: <type>: <message>``, then the traceback)."""
    xfail = expected_failures() if xfail is None else xfail
    scenario = scenarios.load(name)
    languages, _ = combos.languages(scenario, combo)
    skip = skip_reason(scenario, combo, sessionFactory)
    if skip is not None:
        return CaseResult(name, combo.id, "skipped", skip)
    assert languages is not None, "combos.languages gives languages or a reason to skip"
    workdir = tempfile.mkdtemp(prefix="jhooks-conformance-")
    try:
        observation = observe(scenario, combo, languages, workdir, sessionFactory, extraHooks)
        # the user's hook raising is the likely cause of any other mismatch: it comes first
        mismatches = check(observation) if check is not None else []
        mismatches += expectations.compare(scenario, observation)
    except Exception as e:  # noqa: BLE001 - a runner crash is a failure of this case, reported whole
        mismatches = [f"the runner failed: {type(e).__name__}: {e}\n" + traceback.format_exc()]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    cid = case_id(name, combo.id)
    if cid in xfail:
        if not mismatches:
            return CaseResult(
                name, combo.id, "failed", f"listed in {XFAIL_FILE} ({xfail[cid]}) but passes: remove it from the list"
            )
        return CaseResult(name, combo.id, "xfailed", xfail[cid], mismatches)
    if mismatches:
        return CaseResult(name, combo.id, "failed", "\n".join(mismatches), mismatches)
    return CaseResult(name, combo.id, "passed")


def all_cases(combo_list: Sequence[Combo] = combos.ALL) -> list[tuple]:
    """(scenario name, combo) for every scenario and combination, scenario-major."""
    return [(n, c) for n in scenarios.names() for c in combo_list]
