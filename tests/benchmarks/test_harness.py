"""The benchmark harness without TensorFlow or a JVM: the statistics of per-repeat ratios, the
interleaving and calibration (on a simulated clock), per-hook costs between hook counts, and the
stability rule of --compare / --until-stable on synthetic tables."""

import ast
import json
import math
import os
import re
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, REPO)

from benchmarks import table, timing  # noqa: E402


class Clock:
    """A simulated clock and blocks that advance it by a cost per step; records what ran."""

    def __init__(self):
        self.now = 0.0
        self.ran = []

    def __call__(self):
        return self.now

    def block(self, name, per_step):
        def run(n):
            self.ran.append((name, n))
            self.now += per_step(self.now) * n

        return run


def test_ratio_is_the_median_of_per_repeat_ratios_with_quartiles_and_extremes():
    r = timing.ratio([2.0, 3.0, 10.0, 4.0, 5.0], [1.0, 1.0, 1.0, 2.0, 1.0])
    # per repeat: 2, 3, 10, 2, 5 -> median 3, not median(a) / median(b) = 4 / 1
    assert (r.ratio, r.lo, r.hi, r.n) == (3.0, 2.0, 10.0, 5)
    assert (r.q1, r.q3) == (2.0, 5.0)
    assert (r.a, r.b) == (4.0, 1.0)


def test_ratio_refuses_unpaired_or_non_positive_denominators():
    with pytest.raises(ValueError, match="as many"):
        timing.ratio([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="non-positive"):
        timing.ratio([1.0, 2.0], [1.0, 0.0])


def test_per_hook_ratio_divides_two_slopes_of_the_fastest_times_whatever_delays_land_on_the_rest():
    # 2 us/hook from 100 to 1000 hooks, 3 us/hook from 1000 to 10000, on a 100 us step; every
    # round but one of each count is slowed by a delay that is no hook's work
    floor = {100: 1e-4 + 2e-4, 1000: 1e-4 + 2e-3, 10000: 1e-4 + 2e-3 + 2.7e-2}
    delays = [0.0, 5e-4, 3e-3, 1e-3, 2e-2]
    times = {n: [t + delays[(r + i) % 5] for r in range(5)] for i, (n, t) in enumerate(floor.items())}
    r = timing.per_hook_ratio(times, (100, 1000, 10000))
    assert r.ratio == pytest.approx(1.5) and r.n == 5
    assert r.a == pytest.approx(3e-6) and r.b == pytest.approx(2e-6)
    assert r.lo <= r.q1 <= r.q3 <= r.hi and "bootstrap" in r.note
    times[1000] = [t - 2e-3 for t in times[1000]]  # faster with 1000 hooks than with 100: no cost to divide by
    r = timing.per_hook_ratio(times, (100, 1000, 10000))
    assert math.isnan(r.ratio) and "ill-conditioned" in r.note


def test_fastest_ratio_ignores_delays_that_land_on_either_side():
    # a floor of 0.70 against 0.66, with delays of seconds in rounds 2 (A) and 4 (B)
    a = [0.71, 3.2, 0.70, 0.72, 0.73, 0.70]
    b = [0.67, 0.66, 0.68, 2.9, 0.66, 0.67]
    r = timing.fastest_ratio(a, b)
    assert r.ratio == pytest.approx(0.70 / 0.66) and (r.a, r.b, r.n) == (0.70, 0.66, 6)
    assert r.lo <= r.q1 <= r.q3 <= r.hi and r.hi < 1.2  # no resample is ruled by a delay
    assert timing.fastest_ratio(a, b) == r  # a fixed seed: the same spread every time
    with pytest.raises(ValueError, match="as many"):
        timing.fastest_ratio([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="non-positive"):
        timing.fastest_ratio([1.0, 2.0], [1.0, 0.0])


def test_round_order_puts_each_variant_first_as_often_as_second():
    orders = [timing.order(["A", "B"], r) for r in range(8)]
    assert orders[:4] == [["A", "B"], ["B", "A"], ["B", "A"], ["A", "B"]]
    assert sum(o[0] == "A" for o in orders) == 4
    three = [timing.order(["A", "B", "C"], r) for r in range(6)]
    assert all(sorted(o) == ["A", "B", "C"] for o in three)
    assert {o[0] for o in three} == {"A", "B", "C"}


def test_calibrated_blocks_last_at_least_the_minimum():
    clock = Clock()
    block = clock.block("a", lambda now: 3e-6)
    n = timing.calibrate(block, 0.1, clock=clock)
    assert 0.1 <= n * 3e-6 <= 0.2
    assert timing.calibrate(block, 0.1, start=10**6, clock=clock) == 10**6  # already long enough


def test_warm_up_runs_for_the_given_time():
    clock = Clock()
    n = timing.warm(clock.block("a", lambda now: 1e-3), 1.0, clock)
    assert clock.now >= 1.0 and n >= 256


def test_interleave_times_each_variant_per_step_in_every_round(monkeypatch):
    clock = Clock()
    monkeypatch.setitem(timing.CLOCKS, "fake", clock)
    # B slows down over time (a load that rises): adjacent pairs keep A/B at 2 in every round
    blocks = {
        "A": clock.block("A", lambda now: 2e-4 * (1 + now)),
        "B": clock.block("B", lambda now: 1e-4 * (1 + now)),
    }
    t = timing.interleave(blocks, timing.Settings(repeats=6, min_block=0.01, warmup=0.05, clock="fake"))
    assert [len(t["A"]), len(t["B"])] == [6, 6]
    r = timing.ratio(t["A"], t["B"])
    assert r.ratio == pytest.approx(2.0, rel=0.05)
    timed_rounds = [name for name, _ in clock.ran[-12:]]
    assert timed_rounds[:4] == ["A", "B", "B", "A"]


def rows(**ratios):
    return {name: {"ratio": r, "goal": table.GOALS.get(name), "unit": table.unit(name)} for name, r in ratios.items()}


def test_runs_agree_when_every_ratio_near_its_goal_moves_at_most_the_tolerance():
    a = rows(P1=1.10, P3=2.40, P8c=1.15, P7=0.7, **{"P8b/NanTensorHook": 1.3})
    b = rows(P1=1.14, P3=2.00, P8c=1.11, P7=30.0, **{"P8b/NanTensorHook": 2.0})
    d = {x.name: x for x in table.compare(a, b)}
    assert d["P1"].near and d["P1"].agree
    assert not d["P3"].near  # 0.5 and more from its goal: a move of 0.4 cannot flip it
    assert not d["P7"].near and not d["P8b/NanTensorHook"].near  # MB, and a row without a goal
    assert table.stable(list(d.values()))
    assert "agree: every ratio near its goal" in table.comparison(list(d.values()))[-1]


def test_runs_disagree_when_a_ratio_near_its_goal_moves_more():
    a, b = rows(P1=1.10, P9a=1.00), rows(P1=1.10, P9a=1.06)
    d = table.compare(a, b)
    assert not table.stable(d)
    assert table.comparison(d)[-1].endswith("P9a")
    # near in either run counts: 1.30 is 0.29 from P8b's goal, 1.40 is not near; they differ by 0.1
    assert not table.stable(table.compare(rows(P8b=1.30), rows(P8b=1.60)))
    assert not table.stable(table.compare(rows(P8b=1.60), rows(P8b=1.40)))
    # a tighter "near" leaves it out
    assert table.stable(table.compare(rows(P8b=1.60), rows(P8b=1.40), near=0.1))


def test_a_ratio_without_result_in_one_run_disagrees_when_the_other_is_near_its_goal():
    (d,) = table.compare(rows(P6=float("nan")), rows(P6=1.1))
    assert d.near and not d.agree
    assert table.verdict("P6", float("nan")) == "NO RESULT"


def test_rows_missing_from_one_run_are_left_out():
    assert [d.name for d in table.compare(rows(P1=1.0, P2=1.0), rows(P2=1.0))] == ["P2"]


def test_load_reads_the_document_and_the_older_plain_form(tmp_path):
    new = tmp_path / "new.json"
    new.write_text(json.dumps(table.document(rows(P1=1.2), machine="m")))
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"P1": 1.2, "P7": 0.5}))
    assert table.load(str(new))["P1"]["ratio"] == 1.2
    assert table.load(str(old))["P7"] == {"ratio": 0.5, "goal": 50.0, "unit": "MB | steps"}


def test_markdown_table_has_the_spread_next_to_each_ratio():
    r = {"ratio": 1.2, "q1": 1.15, "q3": 1.25, "lo": 1.1, "hi": 1.4, "n": 21, "a": 2e-4, "b": 1.5e-4, "note": ""}
    text = table.markdown({"P1": table.row("P1", r)}, rows(P1=1.3))
    head, _, line = text.splitlines()
    assert "IQR (after)" in head and "min–max (after)" in head
    assert line == (
        "| P1 Python session, 10 no-op Java hooks ÷ 10 no-op Python hooks | 1.3 | 1.2 | 1.15–1.25 | 1.1–1.4 "
        "| ≤ 1 | 0.2 ms/step | 0.15 ms/step | missed by 0.2 |"
    )


def test_markdown_rows_of_measured_values_keep_nine_cells_and_say_their_units():
    p11 = {"ratio": 1.02, "q1": 1.01, "q3": 1.03, "lo": 1.0, "hi": 1.04, "n": 3, "a": 1.02, "b": 1024.0}
    p7 = {"ratio": 4.6, "n": 1, "a": 4.6, "b": 500.0}
    text = table.markdown({"P11": table.row("P11", p11), "P7": table.row("P7", p7)})
    p11_line, p7_line = text.splitlines()[2:]
    for line in (p11_line, p7_line):
        assert line.count("|") == 10, line  # a "|" inside a unit split the README row
    assert "| 1.02× model | 1024 MB model | met |" in p11_line
    assert "| 4.6 MB | 500 steps | met |" in p7_line


def test_families_of_rows():
    assert table.family("P8e") == "P8" and table.family("P8f/NanTensorHook") == "P8"
    assert table.family("P9b") == "P9" and table.family("P6_py") == "P6" and table.family("sizes") == "sizes"
    assert table.family("P10_jvm") == "P10" and table.family("P12") == "P12" and table.family("P1") == "P1"
    with pytest.raises(ValueError, match="known: P1"):
        table.family("P0")


def test_the_docstring_states_every_goal_the_table_checks():
    tree = ast.parse(open(os.path.join(REPO, "benchmarks", "run.py")).read())
    doc = ast.get_docstring(tree)
    stated = {}
    for entry in re.split(r"\n(?=P\d\w*\s)", doc):
        name = entry.split()[0]
        goal = re.search(r"goal <= ([\d.]+)", entry)
        if goal:
            stated[name] = float(goal.group(1))
    ratios = {k: v for k, v in table.GOALS.items() if "_" not in k or k in ("P4_jvm", "P5_sync", "P5_check")}
    assert stated == {k: v for k, v in ratios.items() if not k.startswith("P7") or k == "P7"}
    assert set(table.LABELS) == set(table.GOALS)


def run_compare(tmp_path, a, b, clocks=("wall", "wall")):
    paths = []
    for (name, doc), clock in zip((("a.json", a), ("b.json", b)), clocks):
        (tmp_path / name).write_text(json.dumps(table.document(doc, config={"clock": clock})))
        paths.append(str(tmp_path / name))
    script = os.path.join(REPO, "benchmarks", "run.py")
    return subprocess.run(
        [sys.executable, script, "--compare", *paths, "--markdown", "-"], capture_output=True, text=True, timeout=120
    )


def test_compare_prints_differences_and_exits_1_when_runs_disagree(tmp_path):
    done = run_compare(tmp_path, rows(P1=1.10, P8e=2.0), rows(P1=1.02, P8e=1.9))
    assert done.returncode == 1, done.stderr
    assert re.search(r"^P1 +1\.100 +1\.020 +-0\.080 +yes +NO$", done.stdout, re.M), done.stdout
    assert "disagree beyond ±0.05: P1" in done.stdout
    assert "| P8e JVM session: the four as Python hooks ÷ as Java hooks | 2 | 1.9 |" in done.stdout
    again = run_compare(tmp_path, rows(P1=1.10), rows(P1=1.12))
    assert again.returncode == 0 and "agree" in again.stdout and "not the same measure" not in again.stdout
    mixed = run_compare(tmp_path, rows(P1=1.10), rows(P1=1.12), clocks=("wall", "cpu"))
    assert "A timed blocks by wall time, B by cpu time: not the same measure" in mixed.stdout
