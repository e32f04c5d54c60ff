"""Every data file the package reads at run time is listed in pyproject.toml's package-data, so an
installed wheel has it (the demo's CSV was once missing from the wheel)."""

import fnmatch
import pathlib

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_every_non_python_file_under_jhooks_is_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["jhooks"]
    package = ROOT / "jhooks"
    data = sorted(
        str(p.relative_to(package))
        for p in package.rglob("*")
        if p.is_file()
        and p.suffix not in (".py", ".pyc")
        and "__pycache__" not in p.parts
        and p.parts[len(package.parts)] != "_jars"
    )
    missing = [f for f in data if not any(fnmatch.fnmatch(f, pat) for pat in patterns)]
    assert "demo/data/wdbc.csv" in data
    assert missing == []
