"""The Python layer rules (import-linter contracts in pyproject.toml): nothing imports a layer above
its own, every subpackage has a layer, and the hook API and the merger import neither TensorFlow
nor JPype. The Java twin is org.jhooks.ArchitectureTest (ArchUnit, run by `gradle test`)."""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_import_linter_contracts_are_kept():
    lint_imports = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    done = subprocess.run(
        [lint_imports, "--no-cache", "--config", os.path.join(REPO, "pyproject.toml")],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout
