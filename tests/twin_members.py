"""The public members of the Python twins in docs/twins.json, camelCase-normalised, and their
comparison with the Java twins' members. The rules are CONTRIBUTING.md, "Twins"; their Java copy is
org.jhooks.TwinMembers, and the two must agree.

Each language inspects its own side live and checks it against its export in docs/twins-members/
(python.json here, java.json by org.jhooks.TwinsManifestTest); both compare the two exports with the
manifest's per-member allowlist ("onlyIn"). To rewrite python.json after a change:

    .venv/bin/python tests/twin_members.py --write
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import json
import os
import sys
import textwrap
import types
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(REPO, "docs", "twins.json")
EXPORTS = os.path.join(REPO, "docs", "twins-members")
SIDES = ("python", "java")
ANY_ARGUMENTS = "constructor(*)"  # a constructor taking *args/**kwargs (or Exception's): any parameter matches
WRITE = "python tests/twin_members.py --write"


def manifest() -> dict[str, Any]:
    with open(MANIFEST, encoding="utf-8") as f:
        return json.load(f)


def compared_entries(twins: dict[str, Any]) -> list[dict[str, Any]]:
    """The entries with names on both sides, but for the two halves of one crossing ("compare": false)."""
    return [e for e in twins["twins"] if e["python"] and e["java"] and e.get("compare", True)]


# --- normalisation ------------------------------------------------------------------------------


def camel(name: str) -> str:
    """``read_state`` -> ``readState``; camelCase and ALL_CAPS names stay; ``FooError`` -> ``Foo``
    (Java's ``FooException`` -> ``Foo`` likewise), so a member class and its twin compare equal."""
    if "_" in name and not name.isupper():
        head, *rest = name.split("_")
        name = head + "".join(part[:1].upper() + part[1:] for part in rest)
    if name[:1].isupper() and not name.isupper() and name.endswith("Error") and len(name) > len("Error"):
        name = name[: -len("Error")]
    return name


def constructor(parameter: str) -> str:
    return f"constructor({parameter})"


# --- the Python side, live ------------------------------------------------------------------------


def resolve(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        pass
    module_name, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module_name), attr)


def _in_library(obj: Any) -> bool:
    module = getattr(obj, "__module__", None) or ""
    return module == "jhooks" or module.startswith("jhooks.")


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    return [node.target] if isinstance(node, ast.AnnAssign) else []


def _instance_attributes(cls: type) -> set[str]:
    """The attributes its methods assign (``self.x = ...``): Python's accessors."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return set()  # no source (a generated class)
    out = set()
    for method in tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(method):
            for target in _targets(node):
                for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        out.add(t.attr)
    return out


def _declared(cls: type) -> set[str]:
    names = set(cls.__dict__) | set(cls.__dict__.get("__annotations__", {})) | _instance_attributes(cls)
    return {camel(n) for n in names if not n.startswith("_")}


def _constructor(cls: type) -> set[str]:
    if issubclass(cls, enum.Enum) or getattr(cls, "_is_protocol", False):
        return set()
    for k in inspect.getmro(cls):
        if k is object:
            return set()
        if "__init__" in k.__dict__ or "__new__" in k.__dict__:
            if not _in_library(k) and issubclass(k, BaseException):
                return {ANY_ARGUMENTS}
            break
    out = set()
    for p in inspect.signature(cls).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            out.add(ANY_ARGUMENTS)
        elif not (issubclass(cls, BaseException) and p.name == "cause"):  # Java's cause is `raise ... from`
            out.add(constructor(p.name))
    return out


def _module_members(module: types.ModuleType) -> set[str]:
    out = {
        camel(n)
        for n, v in vars(module).items()
        if not n.startswith("_") and inspect.isfunction(v) and v.__module__ == module.__name__
    }
    for node in ast.parse(inspect.getsource(module)).body:
        out |= {t.id for t in _targets(node) if isinstance(t, ast.Name) and t.id.isupper() and not t.id.startswith("_")}
    return out


def members_of(name: str, listed: set[str]) -> dict[str, list[str]]:
    """``own``: what ``name`` declares, or gets from a library base that is not itself listed;
    ``inherited``: what it gets from listed library bases (compared at their own pair)."""
    obj = resolve(name)
    if isinstance(obj, types.ModuleType):
        own, inherited = _module_members(obj), set()
    elif inspect.isfunction(obj):
        own, inherited = {camel(obj.__name__)}, set()
    else:
        own, inherited = _constructor(obj), set()
        for k in inspect.getmro(obj):
            if not _in_library(k):
                continue
            if k is obj or f"{k.__module__}.{k.__qualname__}" not in listed:
                own |= _declared(k)
            else:
                inherited |= _declared(k)
        inherited -= own
    return {"own": sorted(own), "inherited": sorted(inherited)}


def python_members(twins: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    listed = {n for e in twins["twins"] for n in e["python"]}
    return {n: members_of(n, listed) for e in compared_entries(twins) for n in e["python"]}


# --- exports ------------------------------------------------------------------------------------


def export_path(side: str) -> str:
    return os.path.join(EXPORTS, f"{side}.json")


def read_export(side: str) -> dict[str, dict[str, list[str]]]:
    with open(export_path(side), encoding="utf-8") as f:
        return json.load(f)["members"]


def write_python_export() -> None:
    comment = (
        "Generated: the public members of the Python twins, camelCase-normalised (CONTRIBUTING.md, 'Twins'). "
        f"Kept current by tests/test_twins.py; rewrite with `{WRITE}`."
    )
    text = json.dumps({"$comment": comment, "members": python_members(manifest())}, indent=1, sort_keys=True)
    os.makedirs(EXPORTS, exist_ok=True)
    with open(export_path("python"), "w", encoding="utf-8") as f:
        f.write(text + "\n")


# --- the comparison (the same in org.jhooks.TwinMembers) ------------------------------------------


def _union(members: dict[str, dict[str, list[str]]], names: list[str], key: str) -> dict[str, str]:
    """member -> the first listed name that has it."""
    out: dict[str, str] = {}
    for n in names:
        for m in members.get(n, {}).get(key, []):
            out.setdefault(m, n)
    return out


def differences(twins: dict[str, Any], members: dict[str, dict[str, dict[str, list[str]]]]) -> list[str]:
    """Every member on one side of a pair without its twin or an allowlist entry, and every
    allowlist entry that no longer differs; each as one message saying the pair, member, side and fix."""
    problems = []
    for entry in compared_entries(twins):
        pair = f"{' + '.join(entry['python'])} <-> {' + '.join(entry['java'])}"
        own = {s: _union(members[s], entry[s], "own") for s in SIDES}
        every = {s: {**own[s], **_union(members[s], entry[s], "inherited")} for s in SIDES}
        allowed = entry.get("onlyIn", {})
        for side, other in (SIDES, SIDES[::-1]):
            only = {m: n for m, n in own[side].items() if m not in every[other] and m != ANY_ARGUMENTS}
            if ANY_ARGUMENTS in every[other]:
                only = {m: n for m, n in only.items() if not m.startswith("constructor(")}
            listed = allowed.get(side, {})
            for m in sorted(only.keys() - listed.keys()):
                problems.append(
                    f"{pair}: '{m}' is a member of the {side.capitalize()} side only ({only[m]}). Fix: give the "
                    f"{other.capitalize()} twin the same member (CONTRIBUTING.md, 'Twins', says how names compare), "
                    f"or rename/remove it in {side.capitalize()}; if the difference is deliberate, add "
                    f'"{m}": "<one-line reason>" to this entry\'s "onlyIn": {{"{side}": {{...}}}} in docs/twins.json.'
                )
            for m in sorted(listed.keys() - only.keys()):
                gone = f"the {side.capitalize()} side has no such member"
                why = "both sides have it now" if m in every[side] else gone
                problems.append(
                    f'{pair}: docs/twins.json allows "{m}" in onlyIn.{side}, but it no longer differs ({why}). '
                    "Fix: remove that allowlist entry."
                )
    return problems


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: {WRITE}")
    sys.path.insert(0, REPO)
    write_python_export()
    print(f"wrote {os.path.relpath(export_path('python'), REPO)}")
