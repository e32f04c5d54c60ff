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
  at random, the ratio of the two fastest values, with a bootstrap spread (``fastest_ratio``); a
  per-hook cost is a difference of two hook counts' fastest times (``per_hook_ratio``).
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


def per_hook_ratio(times: dict[int, list[float]], counts: tuple[int, int, int], resamples: int = 400) -> Ratio:
    """Whether a hook costs the same however many there are (P6): the per-hook cost from
    ``counts[1]`` to ``counts[2]`` hooks / the per-hook cost from ``counts[0]`` to ``counts[1]``,
    each the difference of two counts' fastest per-step times over the rounds divided by the
    difference of the counts. The fastest, as in :func:`fastest_ratio`: a block's per-step time is
    a floor plus delays that land at random (the host faulting in memory, other threads' CPU) and
    moved a count's time 2-4x between rounds; medians of per-round ratios moved 0.87-1.42 between
    runs. The spread is that of the same ratio over ``resamples`` bootstrap resamples of the rounds
    (a fixed seed); a and b are the two per-hook costs (s/hook). NaN, flagged ill-conditioned, when
    a cost is not positive."""
    low, mid, high = counts
    rounds = range(len(times[low]))

    def costs(picked) -> tuple[float, float]:
        floor = {n: min(times[n][r] for r in picked) for n in counts}
        return (floor[high] - floor[mid]) / (high - mid), (floor[mid] - floor[low]) / (mid - low)

    a, b = costs(rounds)
    note = f"per-hook cost {mid}->{high} / {low}->{mid} hooks, fastest blocks; spread: {resamples} bootstrap resamples"
    if not (a > 0 and b > 0):
        nan = math.nan
        return Ratio(nan, nan, nan, nan, nan, len(rounds), a, b, note + "; ill-conditioned: a cost <= 0")
    rng = random.Random(6)
    samples = []
    for _ in range(resamples):
        sa, sb = costs([rng.choice(rounds) for _ in rounds])
        if sa > 0 and sb > 0:
            samples.append(sa / sb)
    if len(samples) < resamples:
        note += f"; {resamples - len(samples)} resamples had a cost <= 0"
    _, q1, q3, lo, hi = spread(samples or [a / b])
    return Ratio(a / b, q1, q3, lo, hi, len(rounds), a, b, note)
