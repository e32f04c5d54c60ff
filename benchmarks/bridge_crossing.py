"""Costs of crossing the bridge, each with its spread: JVM start-up, array copies, callbacks.

    python benchmarks/bridge_crossing.py [--quick]

Absolute times on this machine, for orientation; the ratios to compare between runs and machines
are benchmarks/run.py's.

Start-up: ``jvm.start()`` until TensorFlow's natives are loaded, in a new process, with the JVM
started first or TensorFlow imported first; 5 processes each (2 with --quick), the two orders
alternating.
Arrays: numpy -> NdArray (``to_java``) and NdArray -> numpy (``to_numpy``) of float32 arrays of 1,
1,000 and 10,000,000 elements, interleaved with a numpy copy of as many bytes (``np.copyto``): µs
per conversion, and its ratio to the copy (the median of the per-round ratios).
Callbacks: Java calling a no-op Python hook's afterSessionRun (no values) from one Java thread and
split over four (the GIL serialises them; org.jhooks.bench.CallbackTimer), and Python calling a
Java hook that calls the Python no-op back (both crossings): µs per call.

Every value is the median over the rounds, with the IQR and min-max of the rounds; timing as
benchmarks/timing.py does it (warm-up, blocks of at least 0.1 s, 11 interleaved rounds).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

import numpy as np  # noqa: E402

from benchmarks import timing  # noqa: E402

STARTUP = """
import sys
sys.path.insert(0, {repo!r})
{first}
import time
t = time.perf_counter()
from benchmarks.internals import jvm
jvm.start(natives=True)
print(time.perf_counter() - t)
"""


def startup(order: str) -> float:
    """Seconds ``jvm.start()`` takes in a new process, ``order`` "jvm-first" or "tensorflow-first"."""
    first = "import tensorflow" if order == "tensorflow-first" else ""
    code = STARTUP.format(repo=REPO, first=first)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return float(out.strip().splitlines()[-1])


def spread(values: list[float], scale: float = 1.0, unit: str = "") -> str:
    """``median unit (IQR q1..q3, min-max lo..hi)``, values multiplied by ``scale``."""
    med, q1, q3, lo, hi = (v * scale for v in timing.spread(values))
    return f"{med:,.2f}{unit} (IQR {q1:,.2f}..{q3:,.2f}, min-max {lo:,.2f}..{hi:,.2f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 start-ups, 3 rounds of 0.01 s blocks")
    args = parser.parse_args(argv)
    settings = timing.Settings(3, 0.01, 0.0) if args.quick else timing.Settings(11, 0.1, 0.5)

    orders = ["jvm-first", "tensorflow-first"]
    started: dict[str, list[float]] = {order: [] for order in orders}
    for r in range(2 if args.quick else 5):
        for order in orders if r % 2 == 0 else orders[::-1]:
            started[order].append(startup(order))
    for order in orders:
        print(f"jvm.start() to TensorFlow natives loaded, {order}: {spread(started[order], 1, ' s')}", flush=True)

    from benchmarks.internals import jvm, to_java, to_numpy

    jvm.start(natives=True)
    import jpype

    import jhooks
    from jhooks.bridge import JavaHook, as_java_hook

    for n in (1, 1_000, 10_000_000):
        a = np.arange(n, dtype=np.float32)
        nd, copy = to_java(a), np.empty_like(a)
        blocks = {
            "in": timing.repeated(lambda: to_java(a)),
            "copy": timing.repeated(lambda: np.copyto(copy, a)),
            "out": timing.repeated(lambda: to_numpy(nd)),
        }
        t = timing.interleave(blocks, settings)
        gbs = a.nbytes / 1e9 / min(np.median(t["in"]), np.median(t["out"]))
        print(
            f"float32 x {n:>10,}: numpy->NdArray {spread(t['in'], 1e6, ' us')}, "
            f"{timing.ratio(t['in'], t['copy']).ratio:.3g} x a copy; "
            f"NdArray->numpy {spread(t['out'], 1e6, ' us')}, {timing.ratio(t['out'], t['copy']).ratio:.3g} x a copy; "
            f"up to {gbs:.2f} GB/s",
            flush=True,
        )

    class Noop(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            pass

    timer = jpype.JClass("org.jhooks.bench.CallbackTimer")
    hook = as_java_hook(Noop())
    round_trip = JavaHook(as_java_hook(Noop()))
    context, values = jhooks.SessionRunContext(jhooks.SessionRunArgs(), None), jhooks.SessionRunValues()
    blocks = {
        "one": lambda n: timer.afterSessionRun(hook, 1, n),
        "four": lambda n: timer.afterSessionRun(hook, 4, n),
        "round trip": timing.repeated(lambda: round_trip.afterSessionRun(context, values)),
    }
    t = timing.interleave(blocks, settings)
    print(f"Java -> Python hook callback (afterSessionRun, no values): {spread(t['one'], 1e6, ' us')} per call")
    print(f"  the same from 4 Java threads (GIL-serialised): {spread(t['four'], 1e6, ' us')} per call")
    print(f"Python -> Java -> Python round trip (afterSessionRun, no values): {spread(t['round trip'], 1e6, ' us')}")


if __name__ == "__main__":
    main()
