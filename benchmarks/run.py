"""jhooks benchmarks: the cost of hooks crossing languages, measured side by side in one process.

    python benchmarks/run.py [--quick] [--only P1,P8,...] [--repeats N] [--min-block S] [--clock cpu]
                             [--json PATH] [--markdown PATH] [--plot PNG] [--p7-steps A,B]
    python benchmarks/run.py --until-stable [--max-runs N] [the options above]
    python benchmarks/run.py --compare A.json B.json [--markdown PATH]

How a ratio is measured (benchmarks/timing.py). Every ratio compares two variants measured in the
same run, in the same interleaving: each variant is warmed up (1 s of blocks: the JVM's JIT
compiles a loop after some 10,000 iterations), then calibrated so that one block of steps takes at
least 0.1 s (timer resolution and scheduler slices are small against it), then every variant of a
family runs one block per round for 21 rounds, the order rotated every other round and reversed
every odd one (A B, B A, B A, A B, ...); P1, P2, P4, P6, P9 and P8's four-hook variants run 61 rounds
(their per-round ratios spread by about ±7 % around the median, IQR, so the median of 21
moved by up to 0.09 between two runs; four runs of P1 and P2 at 61 rounds fell within 0.05 of
each other: P1 1.049-1.095, P2 1.055-1.093). The ratio is the median over the rounds of A_r / B_r, each
a ratio of two whole block times; the spread printed next to it is the quartiles (IQR) and the
extremes (min..max) of those per-round ratios. No ratio has a difference of times as its
denominator except P5_sync's and P6's, whose differences are large by construction (below).
A block's time is wall time. ``--clock cpu`` takes the process's CPU time instead (all threads):
waiting for a CPU that other processes hold does not count, so on a loaded machine it repeats far
better (two runs at load 12-17 agreed within 0.035 on P1, P2, P9a and P9b, where wall time moved
by up to 0.18); but it also counts every other thread of the process (TensorFlow's pools, which
may spin while a hook runs; the JVM's compiler), so its ratios are another measure (P1 about 1.27,
against 1.0-1.2 by wall time in the same hour): compare runs of one clock. Python's cyclic
collector stays on, the start-up objects frozen (``gc.freeze``, again before each family: what an
earlier family imported lazily is start-up state too), and a collection runs before every round;
the JVM keeps its default collector (G1 here) and options; nothing is pinned to a CPU
(TensorFlow's and the JVM's threads need both cores). Every run prints these settings and the
machine, and samples the load average before and after each family. ``--quick`` (3 rounds of
0.01 s blocks, no warm-up, small sizes) checks that everything runs; its numbers mean nothing.

P1  per-step time of a Python (tf.compat.v1) MonitoredSession with 10 no-op Java hooks (JavaHook)
    / with 10 no-op Python hooks. Graph: the demo's logistic regression step.   goal <= 1.00
P2  per-step time of the jhooks JVM MonitoredSession with 10 no-op Java hooks / a bare
    tensorflow-java Session.run loop, same graph, same target (org.jhooks.bench.HookSetOverhead).
                                                                                goal <= 1.03
P3  one cross-language callback (Java calling a no-op Python hook's beforeSessionRun through
    as_java_hook) / JPype's raw proxy round trip (Java calling a Python Supplier), both timed
    in a Java loop (org.jhooks.bench.CallbackTimer). The loop reuses one run context, so it times
    the path of every hook of a run but the first (the context already crossed on this thread); the
    first crossing of a run's context carries its id, one converted argument more.
                                                                                goal <= 1.5
P4  per-step time of a Python MonitoredSession whose hook fetches a 64 MB float32 variable every
    step, hook in Java (JavaHook(org.jhooks.bench.FetchHook)) / the same hook in Python.
                                                                                goal <= 1.2
P4_jvm  per-step time of the jhooks JVM MonitoredSession whose hook fetches a 64 MB float32
    variable every step, hook in Python (as_java_hook) / the same hook in Java
    (org.jhooks.bench.BigVariableGraph); one interleaving with P4.              goal <= 1.2
P4 and P4_jvm are ratios of the two variants' fastest blocks over 61 rounds (timing.fastest_ratio,
spread: 400 bootstrap resamples), as P10: every step's 64 MB result is fresh memory the VM's host
may have to fault in (its balloon reports freed pages), which slowed some blocks 2-4x at random
(per-round ratios up to 4.0; medians of them moved 1.08-1.20 between two runs).
The no-op hooks of P1-P3 and P6 (NoOpHook here, org.jhooks.bench.NoOpHook) override every
callback with an empty body: the bridge does not cross for a per-run callback a hook leaves as the
default no-op (docs/bridge.md, "Crossing costs"), and these benchmarks must measure real crossings.

P5  time the training thread is blocked by one save of 256 MB of float32 variables with
    AsyncCheckpointSaverHook (Python hook, Python session) / one memcpy of the same bytes (numpy
    copyto), measured in the same repeat. Blocked time = the wall time of the step whose
    afterSessionRun saves minus the median step time; before that step (untimed) the async hook's
    previous write is awaited, so a save never waits for another (the overlap policy WAIT is not
    what is measured). Every kept checkpoint is read back: each variable must hold the global
    step it is labelled with. 7 repeats, each a new session per hook; wall time whatever the
    --clock (it is the training thread's blocked time).                        goal <= 1.5
P5_sync the same blocked time, AsyncCheckpointSaverHook / CheckpointSaverHook, same repeats. The
    denominator is a difference (the sync saving step minus the median step), but the sync save
    of 256 MB takes about ten times a step, so it is far from zero.            goal <= 0.25
P5_check what "no poisoned checkpoints" costs a sync save: the savers' fused finiteness check of
    the same 4 variables (jhooks.tf.saver.GraphSaver.nonFinite, one is_finite(reduce_sum) per
    variable, one bool fetched) / one save of them (GraphSaver.save, what CheckpointSaverHook
    writes), alternated in one session per repeat, medians of 3 each. The async saver runs the
    same check on its writer thread, so P5 includes none of it.                goal <= 0.1
P6  whether a cross-language hook costs the same however many there are: the per-hook cost from
    1,000 to 10,000 no-op hooks / the per-hook cost from 100 to 1,000, each the difference of the
    two counts' fastest per-step times over 61 rounds divided by the difference of the counts
    (timing.per_hook_ratio); spread: 400 bootstrap resamples of the rounds. The fastest, as in
    P10: a count's per-step time moved 2-4x between the rounds of one run (the host faulting in
    memory, other threads' CPU), so medians of per-round ratios, and before them least-squares
    slopes of the rounds' medians, moved 0.87-1.42 and 0.98-1.31 between two runs. The 22,200
    hooks are frozen out of Python's collector (gc.freeze) once built, as start-up state: else
    every collection a block's garbage triggers scans every variant's hooks. P6_py: Java hooks in
    a Python session; P6_jvm: Python hooks in the JVM session, one interleaving; P6 is the
    larger.                                                                     goal <= 1.2
P7  RSS growth (MB, not a ratio) from step 1,000 to step 10,000 while cross-language hooks fetch a
    64 MB float32 variable every step (P7_py64: a Java hook in a Python session, P7_jvm64: a Python
    hook in the JVM session) or two hooks fetch a 1 MB one (P7_py1, P7_jvm1); default JVM
    settings; one measurement each (no spread). P7 is the largest.              goal <= 50
P8a per-step time with jhooks' Python StopAtStepHook, NanTensorHook, StepCounterHook and
    LoggingTensorHook / TensorFlow's own four, same graph (the demo's), Python session, configured
    so that none logs or writes during the measurement.                        goal <= 1.05
P8b the same four as Java hooks (JavaHook) in a Python session / TensorFlow's own four.
                                                                                goal <= 1.25
P8c the same four as Java hooks in the JVM MonitoredSession / a bare tensorflow-java loop that
    fetches global_step:0 and loss:0 by hand (org.jhooks.bench.HookSetOverhead). goal <= 1.10
P8d the same four as Python hooks (as_java_hook) in the JVM MonitoredSession / P8c's bare loop.
                                                                                goal <= 1.5
P8e the premium of a hook in the other language, JVM session: the four as Python hooks
    (as_java_hook) / the four as Java hooks (P8d's variant / P8c's).            goal <= 1.2
P8f the same, Python session: the four as Java hooks (JavaHook) / the four as jhooks' Python
    hooks (P8b's variant / P8a's).                                              goal <= 1.2
P8a/<Hook> ... P8f/<Hook>: the same ratio with that one hook alone. P8's variants with all four
hooks, both sessions, are one interleaving (61 rounds), those with one hook alone another (21).
The run also prints each variant's µs/step added over no hooks (Python session) or over the bare
loop (JVM session).

P9a per-step time of a Python MonitoredSession with a Python ProgressBarHook (showing the loss,
    writing to a stream that is not a terminal: the periodic lines) / the same session without
    it. Graph: one dense layer, x[256,512] w[512,512], trained by gradient descent (a step of
    about a millisecond; the demo's step is a tenth of that).                  goal <= 1.01
P9b the same on the jhooks JVM MonitoredSession with the Java ProgressBarHook, same layer
    (org.jhooks.bench.ProgressBarOverhead); one interleaving with P9a.          goal <= 1.01
Both bars sample at most every 0.2 s (docs/standard-hooks.md, "Progress bars"): a run between
samples costs the driver's call of the hook's callbacks and one clock read.

P10 a sync save of the 1 GB model (float32 variables of 512, 256, 128 and 128 MB) by jhooks'
    CheckpointSaverHook / TensorFlow's own save of the same variables in the same session, to one
    directory in memory (/dev/shm, where it exists): in Python
    tf.compat.v1.train.Saver(max_to_keep=1).save (state file written, no meta graph: what the hook
    writes), on the JVM tensorflow-java's Session.save, timed with the deletion of the previous
    checkpoint (Session.save keeps all; the hook's rotation and TF's max_to_keep delete it). The
    hook's save is timed by its listener, from beforeSave to afterSave (the NaN guard's fused
    check, the files, the state file, rotation); 16 saves of each, alternated (the order swapped
    every other round), one checkpoint kept each; the first round is a warm-up (TF's first save
    has nothing to delete, the JVM hook's first took 3.4 s) and is left out. The ratio is the
    fastest save of each side over the other's (timing.fastest_ratio; its spread: 400 bootstrap
    resamples of the rounds), not a median of per-round ratios: one save in five or so of either
    side takes 1-3.5 s instead of 0.7, at random (tensorflow-java's Session.save alone too), with
    the time in the kernel (sys 50 s of a 72 s P10). This machine is a VM whose balloon reports
    freed memory to its host (virtio-balloon free page reporting; /sys/module/page_reporting),
    and each save writes 1 GB of new pages just after a deletion freed 1 GB: a write that lands on
    reported pages waits for the host to fault them in again, which is the host's work, not
    either saver's. Medians of 15 per-round ratios moved between 1.11 and 1.33 across two runs.
    P10_py: the Python hook in the Python session, P10_jvm: the Java hook in the JVM session; P10
    is the larger.                                                               goal <= 1.05
    In memory, because on this machine's disk the kernel's writeback of the 1 GB, which lands on
    whichever save comes next, moved single ratios between 0.3 and 3.9: that is the disk's work, not
    the hook's. It leaves out one cost the hook has and TensorFlow's save has not: the state file's
    fsync, which on a disk waits for the write and for whatever the file system's journal commits
    with it (docs/standard-hooks.md, "Checkpoint saver hooks").
P11 the peak extra resident memory of one save by AsyncCheckpointSaverHook of the 1 GB model /
    the model's bytes: the process's RSS sampled every millisecond by a thread from the save's
    beforeSave (training thread, before the snapshot) until the write is on disk, minus its value
    at beforeSave. The measured save is the hook's first (the save after session creation is
    skipped by a listener), so it allocates the snapshot buffers: one snapshot and nothing more is
    1.0. Each of the 3 repeats runs in a new process (benchmarks/save_peak.py: memory a session
    freed earlier can stay with the allocator and be reused unseen); P11_py: Python hook, Python
    session, P11_jvm: Java hook, JVM session; P11 is the larger. A memory ratio, not a time:
    tests/hooks/test_large_model.py asserts the same bound (slow).              goal <= 1.1
P12 what cross-language hooks cost on a realistic step: a small convolutional network on 28x28
    inputs, batch 64 (conv 5x5x16, pool, conv 5x5x32, pool, dense 128, dense 10, softmax
    cross-entropy, gradient descent; tens of ms per step here), with P8's four standard hooks.
    P12_jvm: the JVM session with the four as Python hooks (as_java_hook) / the four as Java
    hooks; P12_py: the Python session with the four as Java hooks (JavaHook) / TensorFlow's own
    four. The JVM session runs the GraphDef the Python one builds (imported, its ``init`` op run
    at creation). One interleaving; P12 is the larger.                         goal <= 1.01

sizes: the fetch cost against tensor size for the plot (each driver, a hook in each language,
1 KB to 256 MB, next to one memcpy); its row is P4's ratio at the largest size.

Output. The table gives each row's ratio (median), IQR and min..max of the per-round ratios, the
goal, A's and B's median values and unit, and the verdict. ``--json`` writes every row (ratio,
q1, q3, lo, hi, n, a, b, note, goal, unit) with the machine, the settings, the load and the
curves (P6's per-round times, to analyse a run again); ``--markdown`` writes README's table;
``--plot`` draws P6's curves, the fetch cost against size and every ratio with its spread
(docs/benchmarks.png).

Stability (benchmarks/table.py). ``--compare A.json B.json`` prints each ratio of two runs and its
difference, and says whether they agree: every ratio *near its goal* (within 0.25 of it in either
run, where a run-to-run move could flip the verdict) differs by at most 0.05; P7 (MB) and rows
without a goal are not checked. ``--until-stable`` repeats full runs, each in a new process (a new
JVM), until two consecutive runs agree that way or ``--max-runs`` (5) is reached, printing every
run's table and each comparison; with ``--json PATH`` run k goes to PATH.run<k>.json and the last
also to PATH, with ``--markdown`` the last run's table with the run before it as "before". It
exits 1 if no two consecutive runs agreed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
os.environ.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))

from benchmarks import table  # noqa: E402

FULL = {
    "repeats": 21,
    "rounds": {"P1": 61, "P2": 61, "P4": 61, "P6": 61, "P8": 61, "P9": 61},  # P4: 1.07 and 1.21 at 21
    "min_block": 0.1,
    "warmup": 1.0,
    "clock": "wall",
    "fetch_mb": 64,
    "save_mb": 256,
    "save_repeats": 7,
    "p6_counts": (100, 1000, 10000),
    "p7_steps": (1000, 10000),
    "p7_mb": (64, 1),
    "sizes_kb": (1, 16, 256, 4096, 65536, 262144),
    "model_mb": (512, 256, 128, 128),
    "model_saves": 16,
    "model_repeats": 3,
    "conv_batch": 64,
}
QUICK = {
    "repeats": 3,
    "rounds": {"P1": 4, "P2": 4, "P4": 4, "P6": 4, "P8": 4, "P9": 4},  # as a full run, more rounds in some
    "min_block": 0.01,
    "warmup": 0.0,
    "clock": "wall",
    "fetch_mb": 1,
    "save_mb": 4,
    "save_repeats": 2,
    "p6_counts": (20, 100, 400),
    "p7_steps": (10, 40),
    "p7_mb": (1, 1),
    "sizes_kb": (1, 64),
    "model_mb": (4, 2, 1, 1),
    "model_saves": 3,
    "model_repeats": 2,
    "conv_batch": 8,
}


def _load() -> float:
    return os.getloadavg()[0]


def measure(args: argparse.Namespace, cfg: dict[str, Any], families: list[str]) -> dict[str, Any]:
    """Runs the families, printing each row as it comes; the run's JSON document."""
    from benchmarks import measure  # starts the JVM: only a run that measures imports it

    gc.freeze()  # the start-up objects (TensorFlow, JPype) stay out of every later collection
    title = measure.machine()
    runtime = measure.runtime()
    print(f"machine: {title}")
    print("settings: " + "; ".join(f"{k} {v}" for k, v in runtime.items()))
    print(f"load average (1 min) at start: {_load():.2f}")
    print(table.HEADER, flush=True)
    rows: dict[str, dict[str, Any]] = {}
    load: dict[str, list[float]] = {}
    started, t0 = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), time.perf_counter()
    for name in families:
        # What earlier families imported lazily (TensorFlow's training modules: some 200,000
        # objects) is start-up state too: unfrozen, JPype's full Python collection after every JVM
        # collection would scan it and charge a later family for an earlier one's imports.
        gc.collect()
        gc.freeze()
        before = _load()
        for row, r in measure.FAMILIES[name](cfg).items():
            rows[row] = table.row(row, r.to_json())
            print(table.line(row, rows[row]), flush=True)
        load[name] = [before, _load()]
    seconds = time.perf_counter() - t0
    samples = [x for pair in load.values() for x in pair]
    print(f"load average (1 min) before/after each family: {min(samples):.2f}..{max(samples):.2f}; {seconds:.0f} s")
    added = measure.CURVES.get("P8 added us/step")
    if added:
        print("added us/step over no hooks (py: Python session) / over the bare loop (jvm: JVM session):")
        for key, us in added.items():
            print(f"  {key:32} {us:9.1f}")
    doc = table.document(
        rows,
        machine=title,
        started=started,
        seconds=round(seconds, 1),
        load=load,
        runtime=runtime,
        config={k: v for k, v in cfg.items()},
        argv=sys.argv[1:],
        curves=measure.CURVES,  # the per-round times behind P6 and the plot, to analyse a run again
    )
    if args.plot:
        from benchmarks import plot

        plot.plot(args.plot, measure.CURVES, rows, title)
    return doc


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


def _numbered(path: str, k: int) -> str:
    stem, ext = os.path.splitext(path)
    return f"{stem}.run{k}{ext or '.json'}"


def until_stable(args: argparse.Namespace) -> int:
    """Full runs in new processes until two consecutive ones agree (module docstring)."""
    base = args.json or os.path.join(tempfile.mkdtemp(prefix="jhooks-bench-"), "bench.json")
    forwarded = ["--quick"] if args.quick else []
    for flag, value in (
        ("--only", args.only),
        ("--repeats", args.repeats),
        ("--min-block", args.min_block),
        ("--clock", args.clock),
        ("--p7-steps", args.p7_steps),
        ("--plot", args.plot),
    ):
        if value is not None:
            forwarded += [flag, str(value)]
    runs: list[dict[str, Any]] = []
    agreed = False
    for k in range(1, args.max_runs + 1):
        path = _numbered(base, k)
        print(f"=== run {k} (at most {args.max_runs}): {path}", flush=True)
        subprocess.run([sys.executable, os.path.abspath(__file__), *forwarded, "--json", path], check=True)
        runs.append(table.load(path))
        if k > 1:
            differences = table.compare(runs[-2], runs[-1], args.tolerance, args.near)
            print(f"=== run {k - 1} -> run {k}")
            print("\n".join(table.comparison(differences, args.tolerance, args.near)), flush=True)
            agreed = table.stable(differences)
            if agreed:
                break
    if args.json:
        shutil.copyfile(path, args.json)  # the last run
    if args.markdown:
        _write(args.markdown, table.markdown(runs[-1], runs[-2] if len(runs) > 1 else None))
    if agreed:
        print(f"stable after {len(runs)} runs: runs {len(runs) - 1} and {len(runs)} agree")
        return 0
    print(f"not stable: no two consecutive runs of {len(runs)} agreed")
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="tiny sizes, short blocks, 3 rounds (smoke test)")
    parser.add_argument("--only", help="comma-separated families or rows: " + ",".join(table.FAMILIES) + " (P8e -> P8)")
    parser.add_argument("--repeats", type=int, help="rounds of every family (21, some 41-61: docstring; 3 --quick)")
    parser.add_argument("--min-block", type=float, help="seconds one calibrated block lasts at least (0.1; 0.01)")
    parser.add_argument("--clock", choices=("wall", "cpu"), help="what a block's time is (wall; module docstring)")
    parser.add_argument("--p7-steps", help="P7's first and last step, e.g. 1000,10000 (the default of a full run)")
    parser.add_argument("--json", help="write the run (every row with its spread, machine, settings, load)")
    parser.add_argument("--markdown", help="write README's benchmark table ('-': standard output)")
    parser.add_argument("--plot", help="write P6's curves, fetch cost against size and the ratios to this PNG")
    parser.add_argument("--until-stable", action="store_true", help="repeat full runs until two agree")
    parser.add_argument("--max-runs", type=int, default=5, help="--until-stable gives up after this many runs")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two --json files; no measuring")
    parser.add_argument("--tolerance", type=float, default=table.TOLERANCE, help="agreement: ±this (0.05)")
    parser.add_argument("--near", type=float, default=table.NEAR, help="checked rows: within this of the goal")
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (table.load(p) for p in args.compare)
        differences = table.compare(before, after, args.tolerance, args.near)
        clocks = [table.clock(p) for p in args.compare]
        if clocks[0] != clocks[1]:
            print(f"note: A timed blocks by {clocks[0]} time, B by {clocks[1]} time: not the same measure")
        print("\n".join(table.comparison(differences, args.tolerance, args.near)))
        if args.markdown:
            _write(args.markdown, table.markdown(after, before))
        return 0 if table.stable(differences) else 1
    if args.until_stable:
        return until_stable(args)
    cfg = dict(QUICK if args.quick else FULL)
    for key in ("repeats", "min_block", "clock"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    if args.repeats is not None:
        cfg["rounds"] = {}  # the rounds asked for, in every interleaving
    if args.p7_steps:
        cfg["p7_steps"] = tuple(int(x) for x in args.p7_steps.split(","))
    try:
        families = [table.family(n) for n in args.only.split(",")] if args.only else list(table.FAMILIES)
    except ValueError as e:
        parser.error(str(e))
    families = list(dict.fromkeys(families))
    if args.plot:
        families += [n for n in ("P6", "sizes") if n not in families]
    doc = measure(args, cfg, families)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=2)
    if args.markdown:
        _write(args.markdown, table.markdown(doc["rows"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
