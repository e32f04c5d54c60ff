"""benchmarks/run.py runs with tiny sizes, reports every ratio and draws the plot (no timing
assertions; P7's rows are MB of RSS growth, which a quick run may see shrink)."""

import json
import math
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


EXPECTED = {
    "P1",
    "P2",
    "P3",
    "P4",
    "P4_jvm",
    "P5",
    "P5_sync",
    "P6",
    "P6_py",
    "P6_jvm",
    "P7",
    "P8a",
    "P8b",
    "P8c",
    "P8d",
}
EXPECTED |= {"P7_py64", "P7_py1", "P7_jvm64", "P7_jvm1", "P9a", "P9b", "sizes"}
EXPECTED |= {
    f"P8{x}/{h}" for x in "abcd" for h in ("StopAtStepHook", "NanTensorHook", "StepCounterHook", "LoggingTensorHook")
}


@pytest.mark.timeout(600)
def test_quick_run_emits_all_ratios(tmp_path):
    out = tmp_path / "bench.json"
    png = tmp_path / "bench.png"
    env = dict(os.environ)
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    done = subprocess.run(
        [sys.executable, os.path.join(REPO, "benchmarks", "run.py"), "--quick", "--json", str(out), "--plot", str(png)],
        env=env,
        capture_output=True,
        text=True,
        timeout=580,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    ratios = json.loads(out.read_text())
    assert set(ratios) == EXPECTED
    assert all(isinstance(v, float) and math.isfinite(v) for v in ratios.values()), ratios
    assert all(v > 0 for k, v in ratios.items() if not k.startswith("P7")), ratios
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert done.stdout.startswith("machine: ")
