"""How benchmarks/run.py times things: warmed, calibrated, interleaved blocks, and the statistics
of per-repeat ratios. No TensorFlow and no JVM here: a variant is a ``Block``, a function that runs
``n`` steps (or calls), whichever language runs the loop; the harness times each call of it on
the chosen clock (``CLOCKS``).

- Warm-up: each variant runs blocks of growing size for ``warmup`` seconds first (the JVM's JIT
  compiles the hot loop after some 10,000 iterations; TensorFlow and the bridge fill their caches).
- Calibration: each variant's block size is then chosen so that one block takes at least
  ``min_block`` seconds, so the timer's resolution and one scheduler slice are small against a sample.
- Interleaving: ``repeats`` rounds, one block of every variant per round; the order is rotated by
  one every other round and reversed every odd round (A B, B A, B A, A B, ...), so variants compared
  with each other run next to each other in time, each first as often as second.
- Python's cyclic garbage collector stays on (the garbage a variant makes is part of its cost);
  ``gc.collect()`` runs before every round, so no block pays for an earlier block's garbage.
- Statistics: a ratio is the median of the per-repeat ratios A_r / B_r, reported with their
  quartiles and extremes (``Ratio``); where delays that are neither variant's work land on either
  at random, the ratio of the two fastest values, with a bootstrap spread (``fastest_ratio``).
"""

from __future__ import annotations

import gc
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

Block = Callable[[int], object]
"""Runs ``n`` steps (or calls) of one variant; its return value is ignored."""

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""What a block's time is: wall time, or the CPU time of the whole process (every thread: the
caller's, TensorFlow's pools, the JVM's compiler and collector), which waiting for a CPU that
other processes hold does not inflate."""


@dataclass(frozen=True)
class Settings:
    """repeats: rounds of interleaved blocks; min_block: seconds a calibrated block lasts at least;
    warmup: seconds each variant runs before it is calibrated; clock: a key of ``CLOCKS``."""

    repeats: int
    min_block: float
    warmup: float
    clock: str = "wall"


def repeated(step: Callable[[], object]) -> Block:
    """A block that calls ``step`` n times."""

    def block(n: int) -> None:
        for _ in range(n):
            step()

    return block


def timed(block: Block, n: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds that ``n`` steps of ``block`` take on ``clock``."""
    t0 = clock()
    block(n)
    return clock() - t0


def warm(block: Block, seconds: float, clock: Callable[[], float] = time.perf_counter) -> int:
    """Runs blocks of 1, 2, 4, ... steps until ``seconds`` have passed; the last block's size."""
    n, spent = 1, 0.0
    while True:
        spent += timed(block, n, clock)
        if spent >= seconds:
            return n
        n *= 2


def calibrate(
    block: Block, min_seconds: float, start: int = 1, cap: int = 10**8, clock: Callable[[], float] = time.perf_counter
) -> int:
    """Steps per block so that one block of ``block`` takes at least ``min_seconds``: grows the
    size tenfold until a block takes a tenth of that, then scales it up with 10 % to spare."""
    n = max(1, start)
    while True:
        t = timed(block, n, clock)
        if t >= min_seconds or n >= cap:
            return n
        if t >= min_seconds / 10:
            return min(cap, math.ceil(n * 1.1 * min_seconds / t))
        n = min(cap, n * 10)


def order(names: Sequence[str], r: int) -> list[str]:
    """Round ``r``'s order: rotated by r // 2, reversed when r is odd."""
    k = (r // 2) % len(names)
    out = list(names[k:]) + list(names[:k])
    return out[::-1] if r % 2 else out


def interleave(blocks: dict[str, Block], settings: Settings) -> dict[str, list[float]]:
    """Warms and calibrates each variant, then runs ``settings.repeats`` interleaved rounds;
    seconds per step of each variant in each round."""
    clock = CLOCKS[settings.clock]
    sizes = {}
    for name, block in blocks.items():
        start = warm(block, settings.warmup, clock) if settings.warmup > 0 else 1
        sizes[name] = calibrate(block, settings.min_block, start, clock=clock)
    times: dict[str, list[float]] = {name: [] for name in blocks}
    for r in range(settings.repeats):
        gc.collect()
        for name in order(list(blocks), r):
            times[name].append(timed(blocks[name], sizes[name], clock) / sizes[name])
    return times


@dataclass(frozen=True)
class Ratio:
    """A ratio as reported: the median of the per-repeat ratios, their quartiles (q1, q3) and
    extremes (lo, hi), how many (n), and the medians of the numerator's and the denominator's
    values (a, b, in ``unit``). ``note`` says why a row needs care (e.g. a wide confidence
    interval)."""

    ratio: float
    q1: float
    q3: float
    lo: float
    hi: float
    n: int
    a: float
    b: float
    note: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def spread(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    """Median, first and third quartile (inclusive method), min and max of ``values``."""
    v = sorted(values)
    if len(v) == 1:
        return v[0], v[0], v[0], v[0], v[0]
    q1, med, q3 = statistics.quantiles(v, n=4, method="inclusive")
    return med, q1, q3, v[0], v[-1]


def ratio(ta: Sequence[float], tb: Sequence[float], note: str = "") -> Ratio:
    """The ratio of A to B from values paired by repeat (``ta[r] / tb[r]``)."""
    if len(ta) != len(tb) or not ta:
        raise ValueError(f"ratio needs as many A values as B values, at least one: {len(ta)} and {len(tb)}")
    if min(tb) <= 0:
        raise ValueError(f"ratio of a non-positive denominator: {list(tb)}")
    med, q1, q3, lo, hi = spread([x / y for x, y in zip(ta, tb)])
    return Ratio(med, q1, q3, lo, hi, len(ta), statistics.median(ta), statistics.median(tb), note)


def fastest_ratio(ta: Sequence[float], tb: Sequence[float], resamples: int = 400, note: str = "") -> Ratio:
    """The ratio of A's fastest value to B's (``min(ta) / min(tb)``), for variants whose times
    have a floor plus delays that land on either at random and are neither's work (P10's saves).
    The quartiles and extremes are those of the same ratio over ``resamples`` bootstrap resamples
    of the rounds (pairs ``ta[r], tb[r]``, a fixed seed): the estimate's spread; a and b are the
    two minima."""
    if len(ta) != len(tb) or not ta:
        raise ValueError(f"ratio needs as many A values as B values, at least one: {len(ta)} and {len(tb)}")
    if min(tb) <= 0:
        raise ValueError(f"ratio of a non-positive denominator: {list(tb)}")
    rng = random.Random(10)
    rounds = range(len(ta))
    samples = []
    for _ in range(resamples):
        picked = [rng.choice(rounds) for _ in rounds]
        samples.append(min(ta[r] for r in picked) / min(tb[r] for r in picked))
    _, q1, q3, lo, hi = spread(samples)
    return Ratio(min(ta) / min(tb), q1, q3, lo, hi, len(ta), min(ta), min(tb), note)


def value(values: Sequence[float], b: float, note: str = "") -> Ratio:
    """A row that is a measured value rather than a ratio (e.g. P7's MB of growth over b steps)."""
    med, q1, q3, lo, hi = spread(values)
    return Ratio(med, q1, q3, lo, hi, len(values), med, b, note)


# Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom; 1.96 beyond.
_T975 = (
    *(12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131),
    *(2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042),
)


@dataclass(frozen=True)
class Slope:
    """A least-squares slope and the half-width of its 95 % confidence interval (same unit)."""

    slope: float
    ci95: float


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """The least-squares slope of ys over xs."""
    return statistics.linear_regression(xs, ys).slope


def fit_slope(xs: Sequence[float], ys: Sequence[float]) -> Slope:
    """The least-squares slope of ys over xs (at least 3 points) with its 95 % confidence half-width."""
    n = len(xs)
    if n < 3 or len(ys) != n:
        raise ValueError(f"a slope with a confidence interval needs at least 3 (x, y) points: {n} xs, {len(ys)} ys")
    fit = statistics.linear_regression(xs, ys)
    mx = statistics.fmean(xs)
    sxx = sum((x - mx) ** 2 for x in xs)
    residual = sum((y - fit.intercept - fit.slope * x) ** 2 for x, y in zip(xs, ys))
    df = n - 2
    t = _T975[df - 1] if df <= len(_T975) else 1.96
    return Slope(fit.slope, t * math.sqrt(residual / df / sxx))
