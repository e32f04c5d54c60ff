"""The conformance data checks itself: every scenario matches the schema and is consistent."""

import json
from pathlib import Path

import jsonschema
import pytest

from jhooks.conformance import scenarios

DATA = Path(scenarios.__file__).parent / "data"


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(scenarios.schema())


def test_index_lists_exactly_the_scenario_files():
    files = sorted(p.stem for p in (DATA / "scenarios").glob("*.json"))
    assert sorted(scenarios.names()) == files
    assert len(set(scenarios.names())) == len(scenarios.names())


def test_suite_has_at_least_40_scenarios():
    assert len(scenarios.names()) >= 40


@pytest.mark.parametrize("name", scenarios.names())
def test_scenario_matches_schema(name):
    assert scenarios.validate(scenarios.load(name)) == []


@pytest.mark.parametrize("name", scenarios.names())
def test_scenario_is_consistent(name):
    scenario = scenarios.load(name)
    assert scenario["name"] == name
    assert scenarios.check_consistency(scenario) == []


def _broken(name, mutate):
    scenario = json.loads(json.dumps(scenarios.load(name)))
    mutate(scenario)
    return scenario


@pytest.mark.parametrize(
    "name, mutate, problem",
    [
        (
            "normal_end_hook_order",
            lambda s: s["expected"]["trace"].insert(6, "h9.begin"),
            "'h9' is not a scripted hook",
        ),
        (
            "normal_end_hook_order",
            lambda s: s["expected"]["trace"].remove("h2.before@1"),
            "does not follow h2.before@1",
        ),
        ("normal_end_one_hook", lambda s: s["expected"]["trace"].insert(0, "h1.begin"), "second h1.begin"),
        ("results_single_fetch", lambda s: s["hooks"][0]["actions"][0].update(fetch="nope:0"), "'nope:0' is not built"),
        ("results_single_fetch", lambda s: s["hooks"][0]["actions"][0].update(run=9), "beyond the 2 attempts"),
        (
            "results_single_fetch",
            lambda s: s["expected"]["results"]["h1"].append({"at": "after@7", "what": "results", "value": 0}),
            "trace has no h1.after@7",
        ),
        (
            "feed_hook_placeholder",
            lambda s: s["hooks"][0]["actions"][0]["feed"]["x:0"].update(values=[1.0]),
            "has 1 values",
        ),
        ("results_tuple_fetch_python", lambda s: s["hooks"][0].update(language="java"), "needs language 'python'"),
        ("chief_only_hooks_on_non_chief", lambda s: s["expected"]["trace"].insert(1, "c1.begin"), "chief-only hook"),
        (
            "checkpoint_saver_every_2_steps",
            lambda s: s["expected"]["checkpoints"]["values"].update({"3": {}}),
            "step 3",
        ),
        (
            "checkpoint_saver_listener_skip",
            lambda s: s["expected"]["checkpoints"]["saves"].insert(2, 2),
            "which a listener skips",
        ),
        (
            "checkpoint_saver_listener_skip",
            lambda s: s["expected"]["checkpoints"]["listenerTrace"].insert(12, "l1.afterSave@2"),
            "'l1.afterSave@2': step not among the saves",
        ),
        (
            "nan_no_poisoned_checkpoint_timer_save",
            lambda s: s["expected"]["checkpoints"]["saves"].append(3),
            "the loss was NaN in the run that made step 3",
        ),
        (
            "run_without_hooks_fires_no_hooks",
            lambda s: s["caller"]["withoutHooks"][2].update(fetches="nope:0"),
            "caller.withoutHooks[2]: 'nope:0' is not built",
        ),
        (
            "run_without_hooks_fires_no_hooks",
            lambda s: s["caller"]["withoutHooks"][1]["feeds"]["x:0"].update(values=[1.0]),
            "caller.withoutHooks[1]: feed of 'x:0' has 1 values",
        ),
        (
            "run_without_hooks_fires_no_hooks",
            lambda s: s["caller"]["withoutHooks"][2].update(afterRun=3),
            "afterRun 3 > caller.maxRuns 2",
        ),
        (
            "run_without_hooks_fires_no_hooks",
            lambda s: s["caller"]["withoutHooks"].reverse(),
            "afterRun ascending",
        ),
        (
            "run_without_hooks_error",
            lambda s: s["expected"]["withoutHooksResults"].extend([1, 2, 3]),
            "more withoutHooksResults than caller.withoutHooks",
        ),
    ],
)
def test_consistency_check_catches(name, mutate, problem):
    problems = scenarios.check_consistency(_broken(name, mutate))
    assert any(problem in p for p in problems), problems


def test_schema_rejects_an_unknown_outcome():
    scenario = _broken("normal_end_one_hook", lambda s: s["expected"].update(outcome={"kind": "exploded"}))
    assert scenarios.validate(scenario)
