"""The shared conformance suite: every scenario under every driver x hook-language combination,
one named test each (``normal_end_hook_order[jvm-driver-python-hooks]``).

Expected failures are listed with a reason in jhooks/conformance/data/xfail-python.json and are
strict: a listed case that passes fails, an unlisted failing case fails. One JVM per pytest process
(jhooks.bridge.process.jvm starts it on first use).
"""

import json

import pytest

from jhooks.conformance import combos, expectations, runner, scenarios

XFAIL = runner.expected_failures()
CASES = runner.all_cases()


@pytest.mark.parametrize("name,combo", [pytest.param(n, c, id=runner.case_id(n, c.id)) for n, c in CASES])
def test_conformance(name, combo):
    result = runner.run_case(name, combo, XFAIL)
    if result.outcome == "skipped":
        pytest.skip(result.detail)
    if result.outcome == "xfailed":
        pytest.xfail(result.detail + "\n" + "\n".join(result.mismatches))
    if result.outcome == "failed":
        pytest.fail(f"{result.id}:\n{result.detail}", pytrace=False)
    assert result.outcome == "passed"


@pytest.mark.parametrize("filename", ["xfail-python.json", "xfail-java.json"])
def test_xfail_lists_name_runnable_cases_with_reasons(filename):
    listed = runner.expected_failures(filename)
    known = {runner.case_id(n, c.id): (n, c) for n, c in CASES}
    for case, reason in listed.items():
        assert case in known, f"{filename}: {case} is no scenario x combination"
        assert isinstance(reason, str) and len(reason) > 20, f"{filename}: {case} needs a reason"
        name, combo = known[case]
        languages, skip = combos.languages(scenarios.load(name), combo)
        assert skip is None, f"{filename}: {case} is skipped ({skip}), so it cannot be an expected failure"
    if filename == "xfail-java.json":
        assert all(case.endswith("[jvm-driver-java-hooks]") for case in listed), (
            "the JUnit suite runs jvm-driver-java-hooks only"
        )


def test_a_listed_case_that_passes_fails_the_run():
    combo = combos.parse("python-driver-python-hooks")
    result = runner.run_case(
        "normal_end_one_hook", combo, {"normal_end_one_hook[python-driver-python-hooks]": "listed on purpose"}
    )
    assert (result.outcome, "remove it from the list" in result.detail) == ("failed", True)


def test_an_unlisted_mismatch_fails_with_a_diff(monkeypatch):
    scenario = scenarios.load("normal_end_hook_order")
    swapped = json.loads(json.dumps(scenario))
    trace = swapped["expected"]["trace"]
    trace[9], trace[10] = trace[10], trace[9]  # h1.after@1 <-> h2.after@1
    monkeypatch.setattr(scenarios, "load", lambda name: swapped)
    result = runner.run_case("normal_end_hook_order", combos.parse("python-driver-python-hooks"), {})
    assert result.outcome == "failed"
    assert result.mismatches[0].startswith("trace: first difference at [9]: expected h2.after@1, got h1.after@1")


def test_mixed_hooks_alternate_from_the_language_foreign_to_the_driver_and_keep_fixed_ones():
    s = {"hooks": [{"name": "a"}, {"name": "b"}, {"name": "c", "language": "java"}, {"name": "d"}]}
    assert combos.languages(s, combos.parse("python-driver-mixed-hooks")) == (
        ["java", "python", "java", "python"],
        None,
    )
    assert combos.languages(s, combos.parse("jvm-driver-mixed-hooks")) == (["python", "java", "java", "java"], None)
    assert combos.languages(s, combos.parse("jvm-driver-python-hooks")) == (None, "hook c must be a Java hook")
    assert (
        combos.languages({**s, "drivers": ["python"]}, combos.parse("jvm-driver-java-hooks"))[1]
        == "the scenario runs on the python driver only"
    )


def test_error_types_match_by_either_languages_name():
    java_aborted = {"types": ["TensorFlowException", "RuntimeException"], "message": "ABORTED: x"}
    assert expectations.is_type("Aborted", java_aborted)
    assert not expectations.is_type("Aborted", {**java_aborted, "message": "x"})
    assert expectations.is_type("ScriptedHook", {"types": ["ScriptedHookError", "RuntimeError"], "message": ""})
    assert not expectations.equal([1, 2.0], [1, 2.5]) and expectations.equal({"a": [0]}, {"a": [0.0]})
