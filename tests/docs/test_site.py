"""The documentation site builds with MkDocs in strict mode (any warning fails: a broken link or
anchor between pages, a page missing from the navigation, a docstring the API reference cannot
parse), and the README links its entry page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mkdocs_builds_the_site_strictly(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (site / "index.html").is_file()
    api = (site / "reference" / "python" / "index.html").read_text()
    # generated from the docstrings, not written by hand
    assert "JavaArgumentsError" in api and "StopAtStepHook" in api and "to_tf_hooks" in api


def test_readme_links_the_entry_page():
    assert "](docs/index.md)" in (ROOT / "README.md").read_text()
