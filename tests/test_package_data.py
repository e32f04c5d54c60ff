"""Every data file the packages read at run time is package data of the distribution that ships its
package (pyproject.toml for jhooks, distributions/*/pyproject.toml for jhooks-conformance and
jhooks-demo), so an installed wheel has it (the demo's CSV was once missing from the wheel); and
every package under jhooks/ ships in exactly one of the three distributions."""

import fnmatch
import pathlib

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROJECTS = [ROOT / "pyproject.toml", *sorted((ROOT / "distributions").glob("*/pyproject.toml"))]


def _setuptools(project):
    return tomllib.loads(project.read_text())["tool"]["setuptools"]


def _name(project):
    return tomllib.loads(project.read_text())["project"]["name"]


def _owners(package):
    """The distributions whose packages.find selects ``package``."""
    owners = []
    for project in PROJECTS:
        find = _setuptools(project)["packages"]["find"]
        if any(fnmatch.fnmatchcase(package, p) for p in find["include"]) and not any(
            fnmatch.fnmatchcase(package, p) for p in find.get("exclude", [])
        ):
            owners.append(_name(project))
    return owners


def test_the_three_distributions_are_found():
    assert [_name(p) for p in PROJECTS] == ["jhooks", "jhooks-conformance", "jhooks-demo"]


def test_every_package_ships_in_exactly_one_distribution():
    package = ROOT / "jhooks"
    names = sorted(
        ".".join(d.relative_to(ROOT).parts) for d in [package, *package.rglob("*")] if (d / "__init__.py").is_file()
    )
    owners = {name: _owners(name) for name in names}
    assert owners["jhooks"] == owners["jhooks.cli"] == owners["jhooks.bridge"] == ["jhooks"]
    assert owners["jhooks.conformance"] == owners["jhooks.testing"] == ["jhooks-conformance"]
    assert owners["jhooks.demo"] == ["jhooks-demo"]
    assert {name: o for name, o in owners.items() if len(o) != 1} == {}


def test_every_non_python_file_under_jhooks_is_package_data():
    patterns = [
        "/".join([*key.split(".")[1:], pattern])
        for project in PROJECTS
        for key, listed in _setuptools(project)["package-data"].items()
        for pattern in listed
    ]
    package = ROOT / "jhooks"
    data = sorted(
        str(p.relative_to(package))
        for p in package.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts and "_jars" not in p.parts
    )
    missing = [f for f in data if not any(fnmatch.fnmatch(f, pat) for pat in patterns)]
    assert "demo/data/wdbc.csv" in data and "conformance/data/scenario-index.json" in data
    assert missing == []
