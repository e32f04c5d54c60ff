"""The documentation site builds with MkDocs in strict mode (any warning fails: a broken link or
anchor between pages, a page missing from the navigation, a docstring the API reference cannot
parse), holds both API references (the Python one covering every public name, the Javadoc), builds
from the ``docs`` extra alone, and the README links its entry page."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The packages whose public names (``__all__``) the Python reference documents: every library
# layer a user imports from.
PUBLIC_PACKAGES = ("jhooks", "jhooks.hooks", "jhooks.tf", "jhooks.bridge", "jhooks.checkpoint", "jhooks.merger")


def _build(python: str, site: Path) -> None:
    done = subprocess.run(
        [python, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-6000:]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    _build(sys.executable, out)
    return out


def public_names(package: str) -> list[str]:
    """``package.__all__``, read from its ``__init__.py`` without importing it (jhooks.tf imports
    TensorFlow)."""
    tree = ast.parse((ROOT / package.replace(".", "/") / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{package} has no __all__")


def test_mkdocs_builds_the_site_strictly(site):
    assert (site / "index.html").is_file()
    api = (site / "reference" / "python" / "index.html").read_text()
    # generated from the docstrings, not written by hand
    assert "JavaArgumentsError" in api and "StopAtStepHook" in api and "to_tf_hooks" in api


def test_the_python_reference_documents_every_public_name(site):
    html = (site / "reference" / "python" / "index.html").read_text()
    documented = set(re.findall(r'id="(jhooks[\w.]*)"', html))
    missing = [f"{p}.{n}" for p in PUBLIC_PACKAGES for n in public_names(p) if f"{p}.{n}" not in documented]
    assert missing == [], "add them to docs/reference/python.md (or give them a docstring)"
    for name in ("jhooks.tf.OnErrorSession", "jhooks.tf.run_without_hooks", "jhooks.tf.TfHookAdapter"):
        assert name in documented


def test_the_site_holds_the_javadoc_and_links_it(site):
    javadoc = site / "reference" / "javadoc"
    assert (javadoc / "index.html").is_file()
    assert "Hook" in (javadoc / "org" / "jhooks" / "Hook.html").read_text()
    java_page = (site / "reference" / "java" / "index.html").read_text()
    assert 'href="../javadoc/org/jhooks/hooks/package-summary.html"' in java_page
    assert (javadoc / "org" / "jhooks" / "hooks" / "package-summary.html").is_file()


def test_the_site_builds_from_the_docs_extra_alone(tmp_path, site):
    """A fresh virtual environment with only the ``docs`` extra's requirements (no jhooks
    dependency, no TensorFlow, no test tools): the same strict build."""
    block = re.search(r"^docs = \[\n(.*?)^\]", (ROOT / "pyproject.toml").read_text(), re.M | re.S).group(1)
    extra = re.findall(r'^\s*"([^"]+)",', block, re.M)  # (tomllib is Python 3.11+)
    assert extra and all(r.startswith(("mkdocs", "mkdocstrings")) for r in extra), extra
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    env = dict(os.environ, PIP_CACHE_DIR=str(ROOT / "build" / "pip-cache"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run(
        [python, "-m", "pip", "install", "-q", *extra], env=env, capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    _build(python, tmp_path / "site")
    assert (tmp_path / "site" / "reference" / "javadoc" / "index.html").is_file()


def test_readme_links_the_entry_page():
    assert "](docs/index.md)" in (ROOT / "README.md").read_text()
