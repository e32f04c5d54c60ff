"""The twins manifest (docs/twins.json), Python side: every public Python name of the library layers
is listed with its Java twin (or a reason it has none), every listed Python name exists, and twins
without a stated difference have the same name (Error <-> Exception) in the same layer. The Java
side is org.jhooks.TwinsManifestTest (gradle test). How to add an entry: CONTRIBUTING.md, "Twins"."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import pkgutil
from typing import Any

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(REPO, "docs", "twins.json")
CLASS_LAYERS = ("api", "merger", "checkpoint", "tf", "bridge", "hooks", "testing", "conformance")
FUNCTION_LAYERS = ("api", "merger", "checkpoint", "hooks", "testing")
HOW = (
    'add it to docs/twins.json: to the "python" list of the entry of its Java twin, or as a new entry '
    '{"python": [...], "java": [...], "differences": "..."} ("differences" when it has no twin, or another '
    'name or place); see CONTRIBUTING.md, "Twins"'
)


def manifest() -> dict[str, Any]:
    with open(MANIFEST, encoding="utf-8") as f:
        return json.load(f)


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
        assert set(entry) <= {"python", "java", "differences"}, entry
        assert isinstance(entry["python"], list) and isinstance(entry["java"], list), entry
        assert entry["python"] or entry["java"], f"an entry with neither side: {entry}"
        if not entry["python"] or not entry["java"]:
            assert entry.get("differences"), f"a name without a twin needs 'differences' saying why: {entry}"


@pytest.mark.parametrize("side", ["python", "java"])
def test_no_name_is_listed_twice(side):
    names = listed(side)
    twice = sorted({n for n in names if names.count(n) > 1})
    assert not twice, f"listed more than once in docs/twins.json: {twice}"


def test_every_public_python_name_has_an_entry():
    missing = sorted(public_python_names() - set(listed("python")))
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
    last = name.rsplit(".", 1)[-1]
    return last[: -len("Error")] if last.endswith("Error") else last


def _java_simple(name: str) -> str:
    last = name.rsplit(".", 1)[-1]
    return last[: -len("Exception")] if last.endswith("Exception") else last


def test_twins_without_a_stated_difference_have_the_same_name_and_place():
    places = manifest()["scope"]["places"]
    wrong = []
    for entry in manifest()["twins"]:
        if entry.get("differences") or not entry["python"] or not entry["java"]:
            continue
        java_names = {_java_simple(j) for j in entry["java"]}
        java_packages = {j.rsplit(".", 1)[0] for j in entry["java"]}
        for p in entry["python"]:
            layer = p.split(".")[1]
            if _simple(p) not in java_names:
                wrong.append(f"{p}: no Java twin named {_simple(p)}[Exception] in {entry['java']}")
            if not java_packages <= set(places.get(layer, [])):
                wrong.append(f"{p}: Java twin {entry['java']} is not in {places.get(layer)}")
    assert not wrong, "twins differ without a stated 'differences' (rename or move one, or say why):\n  " + "\n  ".join(
        wrong
    )
