"""P7: resident memory stays bounded while cross-language hooks fetch large values every step, in
both directions (Java hooks in a Python session, Python hooks in the JVM session). The smoke test
runs a few hundred steps and only checks the measurement runs; the full bound (<= 50 MB of growth
from step 1,000 to step 10,000 with default JVM settings) is a slow test."""

import json
import math
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROWS = ("P7_py64", "P7_py1", "P7_jvm64", "P7_jvm1")


def run_p7(tmp_path, *extra):
    out = tmp_path / "p7.json"
    env = dict(os.environ)
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    done = subprocess.run(
        [sys.executable, os.path.join(REPO, "benchmarks", "run.py"), "--only", "P7", "--json", str(out), *extra],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    return {name: row["ratio"] for name, row in json.loads(out.read_text())["rows"].items()}


@pytest.mark.timeout(600)
def test_rss_growth_is_measured_in_both_directions(tmp_path):
    growth = run_p7(tmp_path, "--quick", "--p7-steps", "20,120")
    assert set(ROWS) <= set(growth)
    assert all(math.isfinite(growth[r]) for r in ROWS), growth


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_rss_grows_at_most_50_mb_from_step_1000_to_10000(tmp_path):
    growth = run_p7(tmp_path)  # full sizes: 64 MB per step with one hook, 1 MB with two
    assert all(growth[r] <= 50 for r in ROWS), growth
