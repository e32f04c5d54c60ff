"""benchmarks/run.py runs with tiny sizes, reports every ratio with its spread, writes its JSON,
README table and plot, and repeats runs until stable (no timing assertions: a quick run's numbers
mean nothing; P7's rows are MB of RSS growth, which a quick run may see shrink)."""

import json
import math
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(REPO, "benchmarks", "run.py")
STANDARD = ("StopAtStepHook", "NanTensorHook", "StepCounterHook", "LoggingTensorHook")

EXPECTED = {
    "P1",
    "P2",
    "P3",
    "P4",
    "P4_jvm",
    "P5",
    "P5_sync",
    "P5_check",
    "P6",
    "P6_py",
    "P6_jvm",
    "P9a",
    "P9b",
    "sizes",
}
EXPECTED |= {f"P{n}{x}" for n in (10, 11, 12) for x in ("", "_py", "_jvm")}
EXPECTED |= {"P7", "P7_py64", "P7_py1", "P7_jvm64", "P7_jvm1"}
EXPECTED |= {f"P8{x}" for x in "abcdef"} | {f"P8{x}/{h}" for x in "abcdef" for h in STANDARD}
TABLE_ROWS = {n for n in EXPECTED if n != "sizes" and "/" not in n}  # one table row each


def run(*args, timeout=1500):
    env = dict(os.environ)
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    done = subprocess.run([sys.executable, RUN, *args], env=env, capture_output=True, text=True, timeout=timeout)
    return done


@pytest.mark.timeout(1800)
def test_quick_run_emits_every_ratio_with_its_spread(tmp_path):
    out, png, md = tmp_path / "bench.json", tmp_path / "bench.png", tmp_path / "bench.md"
    done = run("--quick", "--json", str(out), "--plot", str(png), "--markdown", str(md))
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    doc = json.loads(out.read_text())
    rows = doc["rows"]
    assert set(rows) == EXPECTED
    for name, r in rows.items():
        if name.startswith("P6") and "ill-conditioned" in r["note"]:
            continue  # a quick run's slopes may drown in noise: the row says so instead of a number
        values = [r[k] for k in ("ratio", "q1", "q3", "lo", "hi", "a", "b")]
        assert all(isinstance(v, float) and math.isfinite(v) for v in values), (name, r)
        if name.startswith("P7"):
            assert r["n"] == 1, (name, r)  # one measurement: no spread
            continue
        if name.startswith(("P4", "P6", "P10")):  # a bootstrap spread: it need not hold the ratio
            assert r["ratio"] > 0 and r["lo"] <= r["q1"] <= r["q3"] <= r["hi"], (name, r)
            assert "bootstrap" in r["note"] and r["n"] >= 2, (name, r)
            continue
        # an async save of --quick's 4 MB can block the training thread for no measured time: P5 may be 0
        assert r["ratio"] >= 0 if name in ("P5", "P5_sync") else r["ratio"] > 0, (name, r)
        assert r["lo"] <= r["q1"] <= r["ratio"] <= r["q3"] <= r["hi"], (name, r)
        assert r["b"] > 0 and r["n"] >= 2, (name, r)
    # --quick: 3 rounds, 4 in the families given more (as a full run gives some 61)
    assert rows["P1"]["n"] == 4 and rows["P8e/NanTensorHook"]["n"] == 3 and rows["P3"]["n"] == 3
    assert rows["P10_py"]["ratio"] == rows["P10_py"]["a"] / rows["P10_py"]["b"]  # the fastest of each side
    assert rows["P8e"]["goal"] == 1.2 and rows["P8f"]["unit"] == "s/step"
    assert "fastest blocks" in rows["P6_py"]["note"]
    assert doc["machine"] and doc["runtime"]["jvm_gc"] and set(doc["load"]) >= {"P1", "P8"}
    assert done.stdout.startswith("machine: ")
    header = next(line for line in done.stdout.splitlines() if "ratio" in line and "IQR" in line)
    assert "min..max" in header
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = md.read_text().splitlines()
    assert table[0].startswith("| | before | after | IQR (after)") and len(table) == 2 + len(TABLE_ROWS)


@pytest.mark.timeout(1800)
def test_only_takes_a_row_and_until_stable_compares_consecutive_runs(tmp_path):
    out = tmp_path / "p8.json"
    done = run("--quick", "--only", "P8e", "--until-stable", "--max-runs", "2", "--json", str(out))
    assert done.returncode in (0, 1), done.stdout + done.stderr[-4000:]
    assert "=== run 1 (at most 2)" in done.stdout and "=== run 1 -> run 2" in done.stdout
    assert done.stdout.count("P8e ") >= 3  # each run's table and the comparison
    assert ("stable after 2 runs" in done.stdout) == (done.returncode == 0)
    first = json.loads((tmp_path / "p8.run1.json").read_text())["rows"]
    assert {"P8e", "P8f", "P8a/NanTensorHook"} <= set(first) and "P1" not in first
    assert json.loads(out.read_text()) == json.loads((tmp_path / "p8.run2.json").read_text())  # the last run


def test_unknown_benchmark_is_a_usage_error():
    done = run("--only", "P0", timeout=120)
    assert done.returncode == 2 and "unknown benchmark 'P0'" in done.stderr
