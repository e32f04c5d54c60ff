"""The twins manifest (docs/twins.json), Python side: every public Python name of the library layers
is listed with its Java twin (or a reason it has none), every listed Python name exists, twins
without a stated difference have the same name (Error <-> Exception) in the same layer, and the
members of every pair match but for the manifest's per-member allowlist (tests/twin_members.py).
The Java side is org.jhooks.TwinsManifestTest (gradle test). How to add an entry: CONTRIBUTING.md,
"Twins"."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
from typing import Any

import pytest
import twin_members

CLASS_LAYERS = ("api", "merger", "checkpoint", "tf", "keras", "bridge", "hooks", "testing", "conformance")
FUNCTION_LAYERS = ("api", "merger", "checkpoint", "hooks", "testing")
HOW = (
    'add it to docs/twins.json: to the "python" list of the entry of its Java twin, or as a new entry '
    '{"python": [...], "java": [...], "differences": "..."} ("differences" when it has no twin, or another '
    'name or place); see CONTRIBUTING.md, "Twins"'
)


manifest = twin_members.manifest


def modules_of(layer: str) -> list[str]:
    try:
        package = importlib.import_module(f"jhooks.{layer}")
    except ModuleNotFoundError:
        return []  # an optional layer not (yet) in this tree, e.g. jhooks.checkpoint
    names = [package.__name__] + [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return [n for n in names if not any(part.startswith("_") for part in n.split("."))]


def public_python_names() -> set[str]:
    """Classes (and, in FUNCTION_LAYERS, functions) defined in the public modules of the layers."""
    out = set()
    for layer in CLASS_LAYERS:
        for module_name in modules_of(layer):
            module = importlib.import_module(module_name)
            for name, obj in vars(module).items():
                if name.startswith("_") or getattr(obj, "__module__", None) != module_name:
                    continue
                if inspect.isclass(obj) or (layer in FUNCTION_LAYERS and inspect.isfunction(obj)):
                    out.add(f"{module_name}.{name}")
    return out


def listed(side: str) -> list[str]:
    return [name for entry in manifest()["twins"] for name in entry[side]]


def test_every_entry_is_well_formed():
    for entry in manifest()["twins"]:
        assert set(entry) <= {"python", "java", "differences", "onlyIn", "compare"}, entry
        if "compare" in entry:
            assert entry["compare"] is False and entry["python"] and entry["java"] and entry.get("differences"), (
                f"'compare': false marks the two halves of one crossing, and 'differences' says how: {entry}"
            )
            assert "onlyIn" not in entry, f"an entry not compared has no member allowlist: {entry}"
        assert isinstance(entry["python"], list) and isinstance(entry["java"], list), entry
        assert entry["python"] or entry["java"], f"an entry with neither side: {entry}"
        if not entry["python"] or not entry["java"]:
            assert entry.get("differences"), f"a name without a twin needs 'differences' saying why: {entry}"
            assert "onlyIn" not in entry, f"'onlyIn' lists members of a pair; this entry has one side: {entry}"
        for side, members in entry.get("onlyIn", {}).items():
            assert side in ("python", "java") and members, f"onlyIn has the keys python and java: {entry}"
            for member, reason in members.items():
                assert isinstance(reason, str) and reason.strip() and "\n" not in reason, (
                    f"onlyIn.{side}.{member} needs a one-line reason: {entry}"
                )


@pytest.mark.parametrize("side", ["python", "java"])
def test_no_name_is_listed_twice(side):
    names = listed(side)
    twice = sorted({n for n in names if names.count(n) > 1})
    assert not twice, f"listed more than once in docs/twins.json: {twice}"


def test_every_public_python_name_has_an_entry():
    names = set(listed("python"))  # a listed module stands for its functions
    missing = sorted(n for n in public_python_names() - names if n.rpartition(".")[0] not in names)
    assert not missing, "public Python names missing from docs/twins.json:\n  " + "\n  ".join(missing) + f"\n{HOW}"


def _exists(name: str) -> bool:
    try:
        importlib.import_module(name)
        return True
    except ModuleNotFoundError:
        pass
    module_name, _, attr = name.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        return False
    obj = getattr(module, attr, None)
    return obj is not None and getattr(obj, "__module__", None) == module_name


def test_every_listed_python_name_exists():
    gone = sorted(n for n in listed("python") if not _exists(n))
    assert not gone, (
        "docs/twins.json lists Python names that do not exist (moved or renamed? update the entry):\n  "
        + "\n  ".join(gone)
    )


def _simple(name: str) -> str:
    """The Java simple name a Python name should have: ``FooError`` -> ``Foo`` (Java's
    ``FooException``); a module of functions stands for a class of static methods
    (``error_descriptions`` -> ``ErrorDescriptions``)."""
    last = name.rsplit(".", 1)[-1]
    if isinstance(twin_members.resolve(name), types.ModuleType):
        return "".join(part[:1].upper() + part[1:] for part in last.split("_"))
    return last[: -len("Error")] if last.endswith("Error") else last


def _java_simple(name: str) -> str:
    last = name.rsplit(".", 1)[-1]
    return last[: -len("Exception")] if last.endswith("Exception") else last


def _name_and_place_differences(entry: dict[str, Any]) -> list[str]:
    places = manifest()["scope"]["places"]
    wrong = []
    java_names = {_java_simple(j) for j in entry["java"]}
    java_packages = {j.rsplit(".", 1)[0] for j in entry["java"]}
    for p in entry["python"]:
        layer = p.split(".")[1]
        if _simple(p) not in java_names:
            wrong.append(f"{p}: no Java twin named {_simple(p)}[Exception] in {entry['java']}")
        if not java_packages <= set(places.get(layer, [])):
            wrong.append(f"{p}: Java twin {entry['java']} is not in {places.get(layer)}")
    return wrong


def test_twins_without_a_stated_difference_have_the_same_name_and_place():
    wrong = [
        w
        for entry in twin_members.compared_entries(manifest())
        if not entry.get("differences")
        for w in _name_and_place_differences(entry)
    ]
    assert not wrong, "twins differ without a stated 'differences' (rename or move one, or say why):\n  " + "\n  ".join(
        wrong
    )


def test_a_stated_difference_is_about_names_or_places():
    """Free text only where names or places differ (or a side is empty); what differs in members is
    an onlyIn entry, which the member comparison keeps honest."""
    needless = [
        f"{entry['python']} <-> {entry['java']}: {entry['differences']!r}"
        for entry in twin_members.compared_entries(manifest())
        if entry.get("differences") and not _name_and_place_differences(entry)
    ]
    assert not needless, (
        "docs/twins.json entries whose twins have the same name and place but carry 'differences': move what "
        'differs in members to "onlyIn" (one entry per member, with its reason) and drop the text:\n  '
        + "\n  ".join(needless)
    )


def test_the_python_members_export_is_current():
    live = twin_members.python_members(manifest())
    exported = twin_members.read_export("python")
    stale = [
        f"{name}: live {live.get(name)}, docs/twins-members/python.json {exported.get(name)}"
        for name in sorted(live.keys() | exported.keys())
        if live.get(name) != exported.get(name)
    ]
    assert not stale, (
        f"docs/twins-members/python.json is out of date (run `{twin_members.WRITE}` and commit it; then this "
        "test compares the members):\n  " + "\n  ".join(stale)
    )


def test_the_members_of_every_pair_match_but_for_the_allowlist():
    members = {"python": twin_members.python_members(manifest()), "java": twin_members.read_export("java")}
    problems = twin_members.differences(manifest(), members)
    assert not problems, (
        f'{len(problems)} member difference(s) between twins (rules: CONTRIBUTING.md, "Twins"):\n  '
        + "\n  ".join(problems)
    )


# --- the comparison's rules, on a made-up pair (the same cases as TwinsManifestTest's) ----------


def _pair(onlyIn=None):
    entry = {"python": ["p.Thing"], "java": ["j.Thing"], **({"onlyIn": onlyIn} if onlyIn else {})}
    return {"twins": [entry]}


def _members(python_own, java_own, python_inherited=(), java_inherited=()):
    return {
        "python": {"p.Thing": {"own": sorted(python_own), "inherited": sorted(python_inherited)}},
        "java": {"j.Thing": {"own": sorted(java_own), "inherited": sorted(java_inherited)}},
    }


def test_a_member_on_one_side_fails_naming_the_pair_the_member_the_side_and_the_fix():
    problems = twin_members.differences(_pair(), _members({"lastStep", "extra"}, {"lastStep"}))
    assert problems == [
        "p.Thing <-> j.Thing: 'extra' is a member of the Python side only (p.Thing). Fix: give the Java twin the "
        "same member (CONTRIBUTING.md, 'Twins', says how names compare), or rename/remove it in Python; if the "
        'difference is deliberate, add "extra": "<one-line reason>" to this entry\'s "onlyIn": {"python": {...}} '
        "in docs/twins.json."
    ]


def test_an_allowlisted_member_passes_and_a_stale_allowlist_entry_fails():
    allowed = _pair({"java": {"ofNumSteps": "a factory"}})
    assert twin_members.differences(allowed, _members({"end"}, {"end", "ofNumSteps"})) == []
    assert twin_members.differences(allowed, _members({"end", "ofNumSteps"}, {"end", "ofNumSteps"})) == [
        'p.Thing <-> j.Thing: docs/twins.json allows "ofNumSteps" in onlyIn.java, but it no longer differs '
        "(both sides have it now). Fix: remove that allowlist entry."
    ]
    assert "the Java side has no such member" in twin_members.differences(allowed, _members({"end"}, {"end"}))[0]


def test_a_member_inherited_from_a_listed_base_is_compared_at_the_base_pair_only():
    # Python overrides `end`; Java inherits it from its Hook: the same member. A member both sides
    # inherit is not this pair's business.
    assert twin_members.differences(_pair(), _members({"end"}, set(), java_inherited={"end"})) == []
    assert twin_members.differences(_pair(), _members(set(), set(), python_inherited={"onError"})) == []


def test_a_constructor_taking_any_arguments_matches_every_parameter():
    members = _members({twin_members.ANY_ARGUMENTS}, {"constructor(message)", "constructor(globalStep)"})
    assert twin_members.differences(_pair(), members) == []
    members = _members({"constructor(message)"}, {"constructor(message)", "constructor(globalStep)"})
    assert [p.split(": ")[1].split(" is")[0] for p in twin_members.differences(_pair(), members)] == [
        "'constructor(globalStep)'"
    ]


@pytest.mark.parametrize(
    "python,normalised",
    [
        ("read_state", "readState"),
        ("is_tensor_name", "isTensorName"),
        ("lastStep", "lastStep"),
        ("STATE_FILE", "STATE_FILE"),
        ("CheckpointStateError", "CheckpointState"),
        ("Error", "Error"),
    ],
)
def test_python_names_are_camel_case_normalised(python, normalised):
    assert twin_members.camel(python) == normalised


def test_the_python_side_sees_methods_properties_attributes_constants_and_constructor_parameters():
    members = twin_members.members_of("jhooks.hooks.best_checkpoints.BestCheckpointsListener", set(listed("python")))
    own = set(members["own"])
    assert {"afterSave", "best", "INDEX_FILE", "checkpointDir", "constructor(checkpointBasename)"} <= own
    assert not any(m.startswith("_") for m in own)
    # what jhooks.api.listener.CheckpointSaverListener (a listed twin) declares is compared there
    assert "decideSave" in members["inherited"] and "decideSave" not in own
    assert (
        twin_members.members_of("jhooks.checkpoint.errors.CheckpointSaveError", set())["own"].count(
            "constructor(cause)"
        )
        == 0
    )  # an exception's cause is Java's Throwable cause, not a parameter
