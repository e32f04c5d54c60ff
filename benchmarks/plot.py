"""benchmarks/run.py --plot: P6's per-step time against hook count, the fetch cost against tensor
size next to a memcpy of the same bytes, and every ratio with its spread against its goal, as one
PNG (docs/benchmarks.png). Needs matplotlib (the ``bench`` extra)."""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks import table


def _points(series: dict[int, list[float]]) -> tuple[list[int], list[float], list[list[float]]]:
    """x, the median y (ms) and the distances to its quartiles (ms), for error bars."""
    xs = sorted(series)
    med, low, high = [], [], []
    for x in xs:
        v = sorted(series[x])
        m = statistics.median(v)
        q1, q3 = (statistics.quantiles(v, n=4, method="inclusive")[::2]) if len(v) > 1 else (m, m)
        med.append(m * 1e3)
        low.append((m - q1) * 1e3)
        high.append((q3 - m) * 1e3)
    return xs, med, [low, high]


def plot(path: str, curves: dict[str, Any], rows: dict[str, dict[str, Any]], title: str) -> None:
    """Writes the PNG: ``curves`` as measure.CURVES holds them, ``rows`` as table rows."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(18, 5))
    for label, series in curves.get("P6", {}).items():
        xs, ys, err = _points(series)
        left.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)
    left.set_xscale("log")
    counts = sorted({x for series in curves.get("P6", {}).values() for x in series})
    left.set_xticks(counts, [str(x) for x in counts])
    left.xaxis.set_minor_formatter(NullFormatter())
    left.set_xlabel("cross-language no-op hooks")
    left.set_ylabel("ms per step (median, quartiles)")
    left.set_title("P6: per-step cost against hook count")
    left.legend()
    for label, series in curves.get("sizes", {}).items():
        xs, ys, err = _points(series)
        style = {"linestyle": "--", "color": "black"} if label == "memcpy" else {"marker": "o", "capsize": 3}
        middle.errorbar([x * 1024 for x in xs], ys, yerr=err, label=label, **style)
    middle.set_xscale("log")
    middle.set_yscale("log")
    middle.set_xlabel("fetched float32 tensor (bytes)")
    middle.set_ylabel("ms per step (memcpy: ms per copy)")
    middle.set_title("Fetch cost against tensor size")
    middle.legend(fontsize="small")
    shown = [(name, r) for name, r in rows.items() if table.checked(name) and r.get("q1") is not None]
    for y, (_, r) in enumerate(shown):
        right.plot([r["lo"], r["hi"]], [y, y], color="grey", linewidth=1)
        right.plot([r["q1"], r["q3"]], [y, y], color="tab:blue", linewidth=5, solid_capstyle="butt")
        right.plot([r["ratio"]], [y], marker="o", color="black")
        right.plot([r["goal"]], [y], marker="|", markersize=14, color="tab:red")
    right.set_yticks(range(len(shown)), [name for name, _ in shown])
    right.invert_yaxis()
    right.set_xlabel("ratio: median (dot), quartiles (bar), min–max (line), goal (red)")
    right.set_title("Ratios: spread of the per-round ratios, and the goal")
    fig.suptitle(title, fontsize="x-small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
