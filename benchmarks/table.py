"""What benchmarks/run.py reports: the goals, units and labels of its rows, the printed table, the
JSON document, README's Markdown table, and the comparison of two runs (``--compare``,
``--until-stable``). No TensorFlow and no JVM here.

A row is a dict as in the JSON (``timing.Ratio.to_json`` plus ``goal`` and ``unit``): ``ratio``
(the median of the per-repeat ratios), ``q1``/``q3`` (their quartiles), ``lo``/``hi`` (their
extremes), ``n`` (repeats), ``a``/``b`` (median values of numerator and denominator, in ``unit``)
and ``note``.

Stability: two runs agree when every row *near its goal* differs by at most ``TOLERANCE`` between
them. A row is near its goal when its ratio in either run is within ``NEAR`` of the goal: there a
move of the run-to-run size seen before this harness (0.3-0.8) could flip met into missed. Rows
without a goal (the per-hook P8 rows, ``sizes``) and P7's rows (MB of memory growth, not a ratio)
are not checked.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

TOLERANCE = 0.05
NEAR = 0.25

GOALS = {
    "P1": 1.00,
    "P2": 1.03,
    "P3": 1.5,
    "P4": 1.2,
    "P4_jvm": 1.2,
    "P5": 1.5,
    "P5_sync": 0.25,
    "P5_check": 0.1,
    "P6": 1.2,
    "P6_py": 1.2,
    "P6_jvm": 1.2,
    "P7": 50.0,
    "P7_py64": 50.0,
    "P7_py1": 50.0,
    "P7_jvm64": 50.0,
    "P7_jvm1": 50.0,
    "P8a": 1.05,
    "P8b": 1.25,
    "P8c": 1.10,
    "P8d": 1.5,
    "P8e": 1.2,
    "P8f": 1.2,
    "P9a": 1.01,
    "P9b": 1.01,
    "P10": 1.05,
    "P10_py": 1.05,
    "P10_jvm": 1.05,
    "P11": 1.1,
    "P11_py": 1.1,
    "P11_jvm": 1.1,
    "P12": 1.01,
    "P12_py": 1.01,
    "P12_jvm": 1.01,
}

UNITS = {"P3": "s/call", "P5": "s blocked", "P5_sync": "s blocked", "P5_check": "s", "sizes": "s/step"}
UNITS.update({"P6": "s/hook", "P6_py": "s/hook", "P6_jvm": "s/hook"})
UNITS.update({k: "MB | steps" for k in GOALS if k.startswith("P7")})
UNITS.update({k: "s" for k in ("P10", "P10_py", "P10_jvm")})
UNITS.update({k: "× model | MB" for k in ("P11", "P11_py", "P11_jvm")})
# A and B of a measured value, not a time (P7: growth over steps; P11: the peak over the model's size).
_VALUE_CELLS = {"MB | steps": ("{:.1f} MB", "{:.0f} steps"), "× model | MB": ("{:.3g}× model", "{:.0f} MB model")}

LABELS = {
    "P1": "Python session, 10 no-op Java hooks ÷ 10 no-op Python hooks",
    "P2": "JVM MonitoredSession, 10 no-op Java hooks ÷ bare `Session.run`",
    "P3": "Java → Python hook callback ÷ raw JPype proxy call",
    "P4": "Python session: Java hook fetching 64 MB ÷ Python hook",
    "P4_jvm": "JVM session: Python hook fetching 64 MB ÷ Java hook",
    "P5": "async save of 256 MB: training thread blocked ÷ one memcpy of 256 MB",
    "P5_sync": "the same, async save ÷ sync save",
    "P5_check": "NaN guard: finiteness check of the 256 MB ÷ their sync save",
    "P6": "per-hook cost from 1000 to 10000 hooks ÷ from 100 to 1000 hooks, the larger of:",
    "P6_py": "Java no-op hooks in a Python session",
    "P6_jvm": "Python no-op hooks in the JVM session",
    "P7": "RSS growth in MB, the largest of:",
    "P7_py64": "Java hook fetching 64 MB, Python session",
    "P7_py1": "two Java hooks fetching 1 MB, Python session",
    "P7_jvm64": "Python hook fetching 64 MB, JVM session",
    "P7_jvm1": "two Python hooks fetching 1 MB, JVM session",
    "P8a": "jhooks' Python standard four ÷ TensorFlow's own four, Python session",
    "P8b": "the four as Java hooks, Python session ÷ TensorFlow's own",
    "P8c": "the four as Java hooks, JVM session ÷ bare loop fetching step and loss",
    "P8d": "the four as Python hooks, JVM session ÷ the same bare loop",
    "P8e": "JVM session: the four as Python hooks ÷ as Java hooks",
    "P8f": "Python session: the four as Java hooks ÷ as jhooks' Python hooks",
    "P9a": "Python ProgressBarHook ÷ no hook",
    "P9b": "Java ProgressBarHook ÷ no hook, JVM session",
    "P10": "sync save of the 1 GB model: jhooks' CheckpointSaverHook ÷ TensorFlow's own save, the larger of:",
    "P10_py": "Python hook ÷ `tf.compat.v1.train.Saver.save`, Python session",
    "P10_jvm": "Java hook ÷ tensorflow-java's `Session.save`, JVM session",
    "P11": "peak extra RSS of one async save ÷ the model's bytes (1 GB), the larger of:",
    "P11_py": "Python AsyncCheckpointSaverHook, Python session",
    "P11_jvm": "Java AsyncCheckpointSaverHook, JVM session",
    "P12": "conv net step (28×28, batch 64) with the standard four, the larger of:",
    "P12_py": "Python session: the four as Java hooks ÷ TensorFlow's own four",
    "P12_jvm": "JVM session: the four as Python hooks ÷ as Java hooks",
}


FAMILIES = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "P12", "sizes")
"""What run.py measures in one go each (one interleaving): a family gives one or more rows."""


def family(name: str) -> str:
    """The family that measures a row: ``P8e`` and ``P8e/NanTensorHook`` -> ``P8``. Raises
    ValueError naming the known families for anything else."""
    if name in FAMILIES:
        return name
    match = re.match(r"P\d+", name)
    if match is None or match.group() not in FAMILIES:
        raise ValueError(f"unknown benchmark {name!r}; known: {', '.join(FAMILIES)}, or a row such as P8e")
    return match.group()


def unit(name: str) -> str:
    return UNITS.get(name.split("/")[0], "s/step")


def row(name: str, measured: dict[str, Any]) -> dict[str, Any]:
    """A measured row (``timing.Ratio.to_json()``) with its goal and unit."""
    return {**measured, "goal": GOALS.get(name), "unit": unit(name)}


def document(rows: dict[str, dict[str, Any]], **about: Any) -> dict[str, Any]:
    """The JSON document of one run: ``about`` (machine, load, settings, ...) and the rows."""
    return {**about, "rows": rows}


def load(path: str) -> dict[str, dict[str, Any]]:
    """The rows of a JSON document written by ``--json``; a file of the older form
    ``{"P1": ratio, ...}`` gives rows with a ratio only."""
    with open(path) as f:
        doc = json.load(f)
    if "rows" in doc:
        return doc["rows"]
    return {k: {"ratio": v, "goal": GOALS.get(k), "unit": unit(k)} for k, v in doc.items()}


def clock(path: str) -> str:
    """The clock a run written by ``--json`` timed its blocks with ("wall" before there was a choice)."""
    with open(path) as f:
        doc = json.load(f)
    return doc.get("config", {}).get("clock", "wall") if isinstance(doc.get("config"), dict) else "wall"


def verdict(name: str, ratio: float) -> str:
    goal = GOALS.get(name)
    if goal is None:
        return ""
    if not math.isfinite(ratio):
        return "NO RESULT"
    return "ok" if ratio <= goal else "MISSED"


def _spread(r: dict[str, Any], low: str, high: str, between: str = "..", form: str = ".3f") -> str:
    """``low..high`` of a row measured more than once, else ``-``."""
    if r.get(low) is None or r.get("n", 0) < 2:
        return "-"
    return f"{r[low]:{form}}{between}{r[high]:{form}}"


HEADER = f"{'':22} {'ratio':>8} {'IQR':>13} {'min..max':>13} {'goal':>6}  {'A':>10} {'B':>10}  unit"


def line(name: str, r: dict[str, Any]) -> str:
    """One row of the printed table."""
    goal = GOALS.get(name)
    goal_text = f"{goal:6.2f}" if goal is not None else f"{'-':>6}"
    a = f"{r['a']:10.3e}" if r.get("a") is not None else f"{'-':>10}"
    b = f"{r['b']:10.3e}" if r.get("b") is not None else f"{'-':>10}"
    text = (
        f"{name:22} {r['ratio']:8.3f} {_spread(r, 'q1', 'q3'):>13} {_spread(r, 'lo', 'hi'):>13} {goal_text}  "
        f"{a} {b}  {unit(name):10} {verdict(name, r['ratio'])}"
    )
    return (text + ("  " + r["note"] if r.get("note") else "")).rstrip()


def _human(value: float, unit_: str) -> str:
    """Seconds in s, ms or µs, keeping the rest of the unit (``s/step`` -> ``ms/step``)."""
    rest = unit_[1:]  # "s/step" -> "/step", "s blocked" -> " blocked"
    for threshold, scale, prefix in ((1.0, 1.0, "s"), (1e-4, 1e-3, "ms"), (1e-6, 1e-6, "µs")):
        if abs(value) >= threshold:
            return f"{value / scale:.3g} {prefix}{rest}"
    return f"{value * 1e9:.3g} ns{rest}"


def _cell(value: float | None, unit_: str, part: int) -> str:
    """A (part 0) or B (part 1) of a README row: a time in its prefix, a measured value in its own words."""
    if value is None:
        return "-"
    cells = _VALUE_CELLS.get(unit_)
    return cells[part].format(value) if cells else _human(value, unit_)


def _markdown_verdict(name: str, ratio: float) -> str:
    goal = GOALS.get(name)
    if goal is None:
        return ""
    if not math.isfinite(ratio):
        return "no result"
    return "met" if ratio <= goal else f"missed by {ratio - goal:.2g}"


def markdown(after: dict[str, dict[str, Any]], before: dict[str, dict[str, Any]] | None = None) -> str:
    """README's benchmark table: every row with a label, the run before (if given) and this one,
    the quartiles and extremes of this run's per-repeat ratios, the goal, A and B, the verdict."""
    head = "| | before | after | IQR (after) | min–max (after) | goal | A (after) | B (after) | |"
    out = [head, "| --- " * 9 + "|"]
    for name, r in after.items():
        if name not in LABELS:
            continue
        prior = before.get(name) if before else None
        was = f"{prior['ratio']:.3g}" if prior else "-"
        iqr = _spread(r, "q1", "q3", "–", ".3g")
        ext = _spread(r, "lo", "hi", "–", ".3g")
        a, b = (_cell(r.get(k), unit(name), i) for i, k in enumerate(("a", "b")))
        goal = GOALS.get(name)
        cells = [
            f"{name} {LABELS[name]}",
            was,
            f"{r['ratio']:.3g}",
            iqr,
            ext,
            f"≤ {goal:g}" if goal is not None else "",
            a,
            b,
            _markdown_verdict(name, r["ratio"]),
        ]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def checked(name: str) -> bool:
    """Whether the stability rule applies to this row: it has a goal and is a ratio."""
    return name in GOALS and not name.startswith("P7")


@dataclass(frozen=True)
class Difference:
    """One row of two runs: its ratios, their difference (b - a), whether it is near its goal and
    whether the two agree within the tolerance."""

    name: str
    a: float
    b: float
    near: bool
    agree: bool

    @property
    def delta(self) -> float:
        return self.b - self.a


def compare(
    a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]], tolerance: float = TOLERANCE, near: float = NEAR
) -> list[Difference]:
    """Every row present in both runs, in ``a``'s order."""
    out = []
    for name in a:
        if name not in b:
            continue
        x, y = a[name]["ratio"], b[name]["ratio"]
        goal = GOALS.get(name)
        close = checked(name) and goal is not None and any(abs(v - goal) <= near for v in (x, y) if math.isfinite(v))
        same = math.isfinite(x) and math.isfinite(y) and abs(y - x) <= tolerance
        out.append(Difference(name, x, y, close, same))
    return out


def stable(differences: list[Difference]) -> bool:
    """Whether two runs agree on every row near its goal (trivially when no row is near one)."""
    return all(d.agree for d in differences if d.near)


def comparison(differences: list[Difference], tolerance: float = TOLERANCE, near: float = NEAR) -> list[str]:
    """The printed comparison: one line per row, then the verdict."""
    out = [f"{'':22} {'A':>8} {'B':>8} {'B - A':>8}  near goal (±{near:g})  within ±{tolerance:g}"]
    for d in differences:
        flag = "" if not d.near else ("yes" if d.agree else "NO")
        out.append(f"{d.name:22} {d.a:8.3f} {d.b:8.3f} {d.delta:+8.3f}  {'yes' if d.near else '':17}  {flag}".rstrip())
    apart = [d.name for d in differences if d.near and not d.agree]
    if not any(d.near for d in differences):
        out.append(f"agree: no ratio in common is within {near:g} of its goal")
    elif stable(differences):
        out.append(f"agree: every ratio near its goal within ±{tolerance:g}")
    else:
        out.append(f"disagree beyond ±{tolerance:g}: {', '.join(apart)}")
    return out
