"""benchmarks/run.py runs with tiny sizes and reports every ratio (no timing assertions)."""

import json
import math
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.timeout(300)
def test_quick_run_emits_all_ratios(tmp_path):
    out = tmp_path / "bench.json"
    env = dict(os.environ)
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    done = subprocess.run([sys.executable, os.path.join(REPO, "benchmarks", "run.py"), "--quick", "--json", str(out)],
                          env=env, capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    ratios = json.loads(out.read_text())
    assert sorted(ratios) == ["P1", "P2", "P3", "P4", "P5"]
    assert all(isinstance(v, float) and math.isfinite(v) and v > 0 for v in ratios.values()), ratios
    assert done.stdout.startswith("machine: ")
