"""jhooks benchmarks: the cost of hooks crossing languages, measured side by side in one process.

    python benchmarks/run.py [--json PATH] [--quick] [--only P1,P3] [--repeats N] [--p8-steps N]

Every result is a ratio of two variants measured in the same run, in interleaved blocks (A B, B A,
A B, ...); the ratio reported is the median over the repeats of (A / B) per repeat pair.

P1  per-step time of a Python (tf.compat.v1) MonitoredSession with 10 no-op Java hooks (JavaHook)
    / with 10 no-op Python hooks. Graph: the demo's logistic regression step.   goal <= 1.10
P2  per-step time of the jhooks JVM MonitoredSession with 10 no-op Java hooks / a bare
    tensorflow-java Session.run loop, same graph, same target (org.jhooks.bench.DriverOverhead).
                                                                                goal <= 1.05
P3  one cross-language callback (Java calling a no-op Python hook's beforeSessionRun through
    as_java_hook) / JPype's raw proxy round trip (Java calling a Python Supplier), both timed
    in a Java loop (org.jhooks.bench.CallbackTimer). The loop reuses one run context, so it times
    the path of every hook of a run but the first (the context already crossed on this thread); the
    first crossing of a run's context carries its id, one converted argument more.
                                                                                goal <= 2.5
P4  per-step time of a Python MonitoredSession whose hook fetches a 64 MB float32 variable every
    step, hook in Java (JavaHook(org.jhooks.bench.FetchHook)) / the same hook in Python.
                                                                                goal <= 1.2
The no-op hooks of P1-P3 (NoOpHook here, org.jhooks.bench.NoOpHook) override every callback with
an empty body: the bridge does not cross for a per-run callback a hook leaves as the default no-op
(docs/bridge.md, "Crossing costs"), and these benchmarks must measure real crossings.

P5  time the training thread is blocked by one save of 256 MB of float32 variables,
    AsyncCheckpointSaverHook / CheckpointSaverHook (Python hooks, Python session). Blocked time
    = the wall time of the step whose afterSessionRun saves minus the median step time; before
    that step (untimed) the async hook's previous write is awaited, so a save never waits for
    another (the overlap policy WAIT is not what is measured). Every
    kept checkpoint is read back: each variable must hold the global step it is labelled with.
                                                                                goal <= 0.25
P5_sync the same blocked time, AsyncCheckpointSaverHook / CheckpointSaverHook (the old P5).
P5  the async blocked time / one memcpy of the same bytes (numpy copyto), measured in the same run.
                                                                                goal <= 1.5
P4_jvm  per-step time of the jhooks JVM MonitoredSession whose hook fetches a 64 MB float32
    variable every step, hook in Python (as_java_hook) / the same hook in Java
    (org.jhooks.bench.HookSetOverhead, org.jhooks.bench.BigVariableGraph).     goal <= 1.2
P6  marginal per-step cost of one more cross-language no-op hook at 100 hooks ((t100 - t10) / 90)
    / the same at 10 hooks ((t10 - t1) / 9): P6_py Java hooks in a Python session, P6_jvm Python
    hooks in the JVM session; P6 is the larger.                               goal <= 1.2
P7  RSS growth (MB, not a ratio) from step 1,000 to step 10,000 while cross-language hooks fetch a
    64 MB float32 variable every step (P7_py64: a Java hook in a Python session, P7_jvm64: a Python
    hook in the JVM session) or two hooks fetch a 1 MB one (P7_py1, P7_jvm1); default JVM
    settings. P7 is the largest.                                                goal <= 50
P8a per-step time with jhooks' Python StopAtStepHook, NanTensorHook, StepCounterHook and
    LoggingTensorHook / TensorFlow's own four, same graph (the demo's), Python session, configured
    so that none logs or writes during the measurement.                        goal <= 1.05
P8b the same four as Java hooks (JavaHook) in a Python session / TensorFlow's own four.
                                                                                goal <= 1.25
P8c the same four as Java hooks in the JVM MonitoredSession / a bare tensorflow-java loop that
    fetches global_step:0 and loss:0 by hand (org.jhooks.bench.HookSetOverhead). goal <= 1.10
P8d the same four as Python hooks (as_java_hook) in the JVM MonitoredSession / P8c's bare loop.
                                                                                goal <= 1.5
P8a/<Hook>, P8b/<Hook>: that one hook alone (jhooks Python, Java) / TensorFlow's own alone;
P8c/<Hook>, P8d/<Hook>: that one hook alone (Java, Python) in the JVM session / the bare loop.
The table also prints each variant's µs/step (A) and the reference's (B).

P9a per-step time of a Python MonitoredSession with a Python ProgressBarHook (showing the loss,
    writing to a stream that is not a terminal: the periodic lines) / the same session without
    it. Graph: one dense layer, x[256,512] w[512,512], trained by gradient descent (a step of
    about a millisecond; the demo's step is a tenth of that).                  goal <= 1.01
P9b the same on the jhooks JVM MonitoredSession with the Java ProgressBarHook, same layer
    (org.jhooks.bench.ProgressBarOverhead).                                     goal <= 1.01
Both bars sample at most every 0.2 s (docs/standard-hooks.md, "Progress bars"): a run between
samples costs the driver's call of the hook's callbacks and one clock read.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))

from jhooks.bridge.process import jvm  # noqa: E402

jvm.start()  # before TensorFlow: one runtime shared by both languages

import jpype  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import jhooks  # noqa: E402
from jhooks.bridge.hooks.java_hooks import JavaHook  # noqa: E402
from jhooks.bridge.hooks.python_hooks import as_java_hook  # noqa: E402
from jhooks.demo import data as demo_data  # noqa: E402
from jhooks.demo import model as demo_model  # noqa: E402
from jhooks.tf import to_tf_hooks  # noqa: E402

GOALS = {
    "P1": 1.00,
    "P2": 1.03,
    "P3": 1.5,
    "P4": 1.2,
    "P4_jvm": 1.2,
    "P5": 1.5,
    "P5_sync": 0.25,
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
    "P9a": 1.01,
    "P9b": 1.01,
}
FULL = {
    "steps": 500,
    "repeats": 7,
    "calls": 20000,
    "fetch_mb": 64,
    "save_mb": 256,
    "save_repeats": 5,
    "p7_steps": (1000, 10000),
    "p7_mb": (64, 1),
    "p8_steps": 300,
    "sizes_kb": (1, 16, 256, 4096, 65536, 262144),
}
QUICK = {
    "steps": 20,
    "repeats": 3,
    "calls": 200,
    "fetch_mb": 1,
    "save_mb": 4,
    "save_repeats": 2,
    "p7_steps": (10, 40),
    "p7_mb": (1, 1),
    "p8_steps": 10,
    "sizes_kb": (1, 64),
}


class NoOpHook(jhooks.Hook):
    """Every callback overridden to do nothing; twin of org.jhooks.bench.NoOpHook. Overridden on
    purpose: the bridge does not cross for a per-run callback a hook leaves as the jhooks.Hook
    no-op, and P1/P3 must measure real crossings."""

    def begin(self):
        pass

    def beginSession(self):
        pass

    def afterCreateSession(self, session, coord):
        pass

    def beforeSessionRun(self, runContext):
        return None

    def afterSessionRun(self, runContext, runValues):
        pass

    def end(self, session):
        pass


class FetchHook(jhooks.Hook):
    """Fetches one tensor every run; twin of org.jhooks.bench.FetchHook."""

    def __init__(self, tensor: str) -> None:
        self.tensor = tensor
        self.lastSize = -1

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs(self.tensor)

    def afterSessionRun(self, runContext, runValues):
        self.lastSize = int(np.asarray(runValues.results).size)


def _interleaved(a: Callable[[], float], b: Callable[[], float], repeats: int) -> dict[str, Any]:
    """Runs a and b once each as warm-up, then ``repeats`` interleaved pairs; median of a/b."""
    a(), b()
    ta, tb = [], []
    for r in range(repeats):
        if r % 2 == 0:
            ta.append(a())
            tb.append(b())
        else:
            tb.append(b())
            ta.append(a())
    return _ratio(ta, tb)


def _ratio(ta: list[float], tb: list[float]) -> dict[str, Any]:
    return {
        "ratio": statistics.median(x / y for x, y in zip(ta, tb)),
        "a": statistics.median(ta),
        "b": statistics.median(tb),
    }


def _session_per_step(hooks: list[Any], build: Callable[[], Any], steps: int):
    """A started MonitoredSession on a new graph and a function timing ``steps`` steps (s/step)."""
    graph, train_op = build()
    with graph.as_default():
        session = tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks(hooks))

    def block() -> float:
        t0 = time.perf_counter()
        for _ in range(steps):
            session.run(train_op)
        return (time.perf_counter() - t0) / steps

    return session, block


def _demo_graph():
    demo = demo_model.build(demo_data.load(), 0.01)
    return demo.graph, demo.trainOp


def p1(cfg) -> dict[str, Any]:
    java_session, java_block = _session_per_step(
        [JavaHook(jpype.JClass("org.jhooks.bench.NoOpHook")()) for _ in range(10)], _demo_graph, cfg["steps"]
    )
    py_session, py_block = _session_per_step([NoOpHook() for _ in range(10)], _demo_graph, cfg["steps"])
    try:
        return _interleaved(java_block, py_block, cfg["repeats"])
    finally:
        java_session.close()
        py_session.close()


def p2(cfg) -> dict[str, Any]:
    data = jpype.JClass("org.jhooks.demo.DemoData").load(jpype.JClass("java.nio.file.Path").of(demo_data.DEFAULT_CSV))
    graph = jpype.JClass("org.jhooks.demo.DemoModel").build(data, jpype.JFloat(0.01))
    try:
        t = list(
            jpype.JClass("org.jhooks.bench.DriverOverhead").measure(
                graph, "train_step", cfg["steps"] * 4, cfg["repeats"]
            )
        )
    finally:
        graph.close()
    n = cfg["repeats"]
    return _ratio([x / 1e9 for x in t[:n]], [x / 1e9 for x in t[n:]])


def p3(cfg) -> dict[str, Any]:
    timer = jpype.JClass("org.jhooks.bench.CallbackTimer")
    graph = jpype.JClass("org.tensorflow.Graph")()
    java_session = jpype.JClass("org.jhooks.tf.TfSession")(jpype.JClass("org.tensorflow.Session")(graph), graph)
    context = jpype.JClass("org.jhooks.SessionRunContext")(
        jpype.JClass("org.jhooks.SessionRunArgs").of(None), java_session
    )
    hook = as_java_hook(NoOpHook())
    supplier = jpype.JProxy("java.util.function.Supplier", dict={"get": lambda: None})
    n = cfg["calls"]
    try:
        return _interleaved(
            lambda: timer.beforeSessionRun(hook, context, n) / 1e9 / n,
            lambda: timer.supplier(supplier, n) / 1e9 / n,
            cfg["repeats"],
        )
    finally:
        java_session.close()
        graph.close()


def _big_variables_graph(count: int, megabytes: float, add_per_step: bool):
    """``count`` float32 variables of ``megabytes`` each (zeros), a global step, and a train op that
    adds 1 to every variable (if ``add_per_step``) and to the step, so each holds the step."""
    elements = int(megabytes * 2**20 / 4)
    graph = tf.Graph()
    with graph.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        variables = [
            tf.compat.v1.get_variable(f"big{i}", [elements], tf.float32, tf.zeros_initializer()) for i in range(count)
        ]
        ops = [v.assign_add(tf.ones([elements])) for v in variables] if add_per_step else []
        with tf.control_dependencies(ops):
            train_op = step.assign_add(1)
    return graph, train_op


def _rounds(blocks: dict[str, Callable[[], float]], repeats: int) -> dict[str, list[float]]:
    """One warm-up block of each variant, then ``repeats`` rounds of one block each, the order
    rotated every round; the block times of each variant."""
    for block in blocks.values():
        block()
    names = list(blocks)
    times: dict[str, list[float]] = {n: [] for n in names}
    for r in range(repeats):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            times[name].append(blocks[name]())
    return times


def _java_list(items) -> Any:
    out = jpype.JClass("java.util.ArrayList")()
    for item in items:
        out.add(item)
    return out


def _jvm_rounds(graph, target: str, bare_fetches: list[str], variants: dict[str, list], steps: int, repeats: int):
    """org.jhooks.bench.HookSetOverhead: ns/step of a bare loop ("bare") and of the JVM
    MonitoredSession with each hook set, in s/step per repeat."""
    t = list(
        jpype.JClass("org.jhooks.bench.HookSetOverhead").measure(
            graph,
            target,
            _java_list(bare_fetches),
            _java_list(_java_list(hooks) for hooks in variants.values()),
            steps,
            repeats,
        )
    )
    names = ["bare", *variants]
    return {n: [x / 1e9 for x in t[i * repeats : (i + 1) * repeats]] for i, n in enumerate(names)}


def _fetch_check(name: str, hooks: dict[str, Any], expected: int) -> None:
    sizes = {k: int(h.lastSize()) if callable(getattr(h, "lastSize", None)) else h.lastSize for k, h in hooks.items()}
    if any(v != expected for v in sizes.values()):
        raise AssertionError(f"{name}: fetched {sizes} elements, expected {expected}")


def _fetch_python(elements_mb: float, steps: int, repeats: int) -> dict[str, list[float]]:
    """Python session fetching big0:0 every step: with a Python hook ("py"), a Java hook ("java")."""

    def build():
        return _big_variables_graph(1, elements_mb, add_per_step=False)

    java_hook = jpype.JClass("org.jhooks.bench.FetchHook")("big0:0")
    py_hook = FetchHook("big0:0")
    java_session, java_block = _session_per_step([JavaHook(java_hook)], build, steps)
    py_session, py_block = _session_per_step([py_hook], build, steps)
    try:
        times = _rounds({"java": java_block, "py": py_block}, repeats)
    finally:
        java_session.close()
        py_session.close()
    _fetch_check("fetch (Python session)", {"Java": java_hook, "Python": py_hook}, int(elements_mb * 2**20 / 4))
    return times


def _fetch_jvm(elements_mb: float, steps: int, repeats: int) -> dict[str, list[float]]:
    """JVM session fetching big0:0 every step: with a Java hook ("java"), a Python hook ("py")."""
    elements = int(elements_mb * 2**20 / 4)
    graph = jpype.JClass("org.jhooks.bench.BigVariableGraph").build(elements)
    java_hook = jpype.JClass("org.jhooks.bench.FetchHook")("big0:0")
    py_hook = FetchHook("big0:0")
    try:
        times = _jvm_rounds(
            graph, "train_step", [], {"java": [java_hook], "py": [as_java_hook(py_hook)]}, steps, repeats
        )
    finally:
        graph.close()
    _fetch_check("fetch (JVM session)", {"Java": java_hook, "Python": py_hook}, elements)
    return times


def p4(cfg) -> dict[str, Any]:
    steps = max(5, cfg["steps"] // 20)
    py = _fetch_python(cfg["fetch_mb"], steps, cfg["repeats"])
    jvm_ = _fetch_jvm(cfg["fetch_mb"], steps, cfg["repeats"])
    return {"P4": _ratio(py["java"], py["py"]), "P4_jvm": _ratio(jvm_["py"], jvm_["java"])}


def _save_block(hook_class, cfg, directory: str) -> list[float]:
    """One session saving every ``every`` steps; returns the blocked time of each in-loop save and
    checks the kept checkpoints."""
    from jhooks.hooks.saver import Saver

    every = 4
    graph, train_op = _big_variables_graph(4, cfg["save_mb"] / 4, add_per_step=True)
    hook = hook_class(directory, saveSteps=every, saver=Saver(maxToKeep=2))
    with graph.as_default():
        session = tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook]))
    times = []
    with session:
        for i in range(3 * every):
            if (i + 1) % every == 0 and hasattr(hook, "waitForPendingSaves"):
                hook.waitForPendingSaves()  # untimed: one save, not a wait for the previous write
            t0 = time.perf_counter()
            step = session.run(train_op)  # the step after this run's increment
            times.append((int(step), time.perf_counter() - t0))
        if hasattr(hook, "waitForPendingSaves"):
            hook.waitForPendingSaves()
    # The run that takes the step to a multiple of ``every`` saves in its afterSessionRun.
    saving = [t for s, t in times if s % every == 0]
    others = [t for s, t in times if s % every != 0]
    base = statistics.median(others)
    for prefix in tf.train.get_checkpoint_state(directory).all_model_checkpoint_paths:
        reader = tf.train.load_checkpoint(prefix)
        label = int(prefix.rsplit("-", 1)[1])
        if int(reader.get_tensor("global_step")) != label:
            raise AssertionError(f"P5: {prefix} holds global_step {reader.get_tensor('global_step')}")
        for i in range(4):
            value = reader.get_tensor(f"big{i}")
            if not np.all(value == label):
                raise AssertionError(f"P5: {prefix} variable big{i} holds {value[:3]}..., not the step {label}")
    return [max(t - base, 0.0) for t in saving]


def _memcpy_seconds(nbytes: int, times: int = 5) -> float:
    """Median time of one numpy copy of ``nbytes`` into an existing array (pages touched first)."""
    src = np.ones(max(1, nbytes // 4), np.float32)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    out = []
    for _ in range(times):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def p5(cfg) -> dict[str, Any]:
    from jhooks.hooks import AsyncCheckpointSaverHook, CheckpointSaverHook

    blocked: dict[str, list[float]] = {"async": [], "sync": [], "memcpy": []}
    with tempfile.TemporaryDirectory(prefix="jhooks-bench-") as tmp:
        for r in range(cfg["save_repeats"]):
            order = [("async", AsyncCheckpointSaverHook), ("sync", CheckpointSaverHook)]
            for name, cls in order if r % 2 == 0 else order[::-1]:
                blocked[name].append(statistics.median(_save_block(cls, cfg, os.path.join(tmp, f"{name}{r}"))))
            blocked["memcpy"].append(_memcpy_seconds(int(cfg["save_mb"] * 2**20)))
    return {"P5": _ratio(blocked["async"], blocked["memcpy"]), "P5_sync": _ratio(blocked["async"], blocked["sync"])}


def _noop_java() -> Any:
    return jpype.JClass("org.jhooks.bench.NoOpHook")()


HOOK_COUNTS = (1, 10, 100)


def _marginal(t: dict[int, float]) -> dict[str, Any]:
    """Marginal cost per hook at 100 hooks / at 10 hooks, from median per-step times by count."""
    # Floored at 1 ns: in a quick run noise can make a difference negative.
    at10 = max((t[10] - t[1]) / 9, 1e-9)
    at100 = max((t[100] - t[10]) / 90, 1e-9)
    return {"ratio": at100 / at10, "a": at100, "b": at10}


def p6(cfg) -> dict[str, Any]:
    steps = max(5, cfg["steps"] // 5)
    blocks, sessions = {}, []
    for n in HOOK_COUNTS:
        session, block = _session_per_step([JavaHook(_noop_java()) for _ in range(n)], _demo_graph, steps)
        sessions.append(session)
        blocks[n] = block
    try:
        py_times = _rounds(blocks, cfg["repeats"])
    finally:
        for session in sessions:
            session.close()
    data = jpype.JClass("org.jhooks.demo.DemoData").load(jpype.JClass("java.nio.file.Path").of(demo_data.DEFAULT_CSV))
    graph = jpype.JClass("org.jhooks.demo.DemoModel").build(data, jpype.JFloat(0.01))
    try:
        variants = {n: [as_java_hook(NoOpHook()) for _ in range(n)] for n in HOOK_COUNTS}
        jvm_times = _jvm_rounds(graph, "train_step", [], variants, steps, cfg["repeats"])
    finally:
        graph.close()
    py_median = {n: statistics.median(v) for n, v in py_times.items()}
    jvm_median = {n: statistics.median(jvm_times[n]) for n in HOOK_COUNTS}
    CURVES["P6"] = {"Java hooks, Python session": py_median, "Python hooks, JVM session": jvm_median}
    rows = {"P6_py": _marginal(py_median), "P6_jvm": _marginal(jvm_median)}
    worst = max(rows.values(), key=lambda r: r["ratio"])
    return {"P6": dict(worst), **rows}


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def rss_growth(direction: str, megabytes: float, hooks: int, first: int, last: int) -> float:
    """RSS growth (MB) from step ``first`` to step ``last`` of a session whose ``hooks``
    cross-language hooks fetch a ``megabytes`` float32 variable every step: Java hooks in a Python
    session (``direction`` "py") or Python hooks in the JVM session ("jvm")."""
    elements = int(megabytes * 2**20 / 4)
    if direction == "py":
        java_hooks = [jpype.JClass("org.jhooks.bench.FetchHook")("big0:0") for _ in range(hooks)]
        graph, train_op = _big_variables_graph(1, megabytes, add_per_step=False)
        with graph.as_default():
            session = tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([JavaHook(h) for h in java_hooks]))
        with session:
            for _ in range(first):
                session.run(train_op)
            start = _rss_mb()
            for _ in range(last - first):
                session.run(train_op)
            end = _rss_mb()
        _fetch_check("P7", {str(i): h for i, h in enumerate(java_hooks)}, elements)
        return end - start
    py_hooks = [FetchHook("big0:0") for _ in range(hooks)]
    graph = jpype.JClass("org.jhooks.bench.BigVariableGraph").build(elements)
    try:
        session = (
            jpype.JClass("org.jhooks.tf.MonitoredSession")
            .builder(graph)
            .hooks(_java_list(as_java_hook(h) for h in py_hooks))
            .build()
        )
        steps = jpype.JClass("org.jhooks.bench.HookSetOverhead")
        try:
            steps.run(session, "train_step", first)
            start = _rss_mb()
            steps.run(session, "train_step", last - first)
            end = _rss_mb()
        finally:
            session.close()
    finally:
        graph.close()
    _fetch_check("P7", {str(i): h for i, h in enumerate(py_hooks)}, elements)
    return end - start


def p7(cfg) -> dict[str, Any]:
    first, last = cfg["p7_steps"]
    big, small = cfg["p7_mb"]
    rows = {}
    for direction in ("py", "jvm"):
        for name, mb, hooks in ((f"P7_{direction}64", big, 1), (f"P7_{direction}1", small, 2)):
            growth = rss_growth(direction, mb, hooks, first, last)
            rows[name] = {"ratio": growth, "a": growth, "b": float(last - first)}
    worst = max(rows.values(), key=lambda r: r["ratio"])
    return {"P7": dict(worst), **rows}


def _standard_hooks(kind: str, only: str | None = None) -> list[Any]:
    """StopAtStepHook, NanTensorHook, StepCounterHook and LoggingTensorHook on the demo graph,
    configured so none logs or writes after the first step: TensorFlow's own ("tf"), jhooks' Python
    ("py"), jhooks' Java as JavaHooks ("java") or as Java objects ("java_raw"), jhooks' Python
    wrapped for the JVM ("py_jvm")."""
    never = 10**9
    if kind == "tf":
        made = {
            "StopAtStepHook": lambda: tf.compat.v1.train.StopAtStepHook(last_step=never),
            "NanTensorHook": lambda: tf.compat.v1.train.NanTensorHook("loss:0"),
            "StepCounterHook": lambda: tf.compat.v1.train.StepCounterHook(every_n_steps=never),
            "LoggingTensorHook": lambda: tf.compat.v1.train.LoggingTensorHook({"loss": "loss:0"}, every_n_iter=never),
        }
    elif kind in ("py", "py_jvm"):
        from jhooks import hooks as h

        made = {
            "StopAtStepHook": lambda: h.StopAtStepHook(lastStep=never),
            "NanTensorHook": lambda: h.NanTensorHook("loss:0"),
            "StepCounterHook": lambda: h.StepCounterHook(everyNSteps=never),
            "LoggingTensorHook": lambda: h.LoggingTensorHook({"loss": "loss:0"}, everyNIter=never),
        }
    else:
        j = "org.jhooks.hooks."
        made = {
            "StopAtStepHook": lambda: jpype.JClass(j + "StopAtStepHook").ofLastStep(never),
            "NanTensorHook": lambda: jpype.JClass(j + "NanTensorHook")("loss:0"),
            "StepCounterHook": lambda: jpype.JClass(j + "StepCounterHook")(
                jpype.JObject(never, "java.lang.Integer"), None, None, None
            ),
            "LoggingTensorHook": lambda: jpype.JClass(j + "LoggingTensorHook").everyNIter(
                jpype.JClass("java.util.Map").of("loss", "loss:0"), never
            ),
        }
    hooks = [make() for name, make in made.items() if only in (None, name)]
    if kind == "java":
        return [JavaHook(x) for x in hooks]
    if kind == "py_jvm":
        return [as_java_hook(x) for x in hooks]
    return hooks


STANDARD = ("StopAtStepHook", "NanTensorHook", "StepCounterHook", "LoggingTensorHook")


def _tf_session_per_step(tf_hooks_factory: Callable[[], list], steps: int):
    demo = demo_model.build(demo_data.load(), 0.01)
    with demo.graph.as_default():
        session = tf.compat.v1.train.MonitoredSession(hooks=tf_hooks_factory())

    def block() -> float:
        t0 = time.perf_counter()
        for _ in range(steps):
            session.run(demo.trainOp)
        return (time.perf_counter() - t0) / steps

    return session, block


def p8(cfg) -> dict[str, Any]:
    steps, repeats = cfg["p8_steps"], cfg["repeats"]
    py_variants: dict[str, Callable[[], list]] = {"none": list}
    for kind in ("tf", "py", "java"):
        py_variants[kind] = lambda kind=kind: (
            to_tf_hooks(_standard_hooks(kind)) if kind != "tf" else _standard_hooks(kind)
        )
        for name in STANDARD:
            py_variants[f"{kind}/{name}"] = lambda kind=kind, name=name: (
                to_tf_hooks(_standard_hooks(kind, name)) if kind != "tf" else _standard_hooks(kind, name)
            )
    sessions, blocks = [], {}
    for key, factory in py_variants.items():
        session, block = _tf_session_per_step(factory, steps)
        sessions.append(session)
        blocks[key] = block
    try:
        py = _rounds(blocks, repeats)
    finally:
        for session in sessions:
            session.close()
    data = jpype.JClass("org.jhooks.demo.DemoData").load(jpype.JClass("java.nio.file.Path").of(demo_data.DEFAULT_CSV))
    graph = jpype.JClass("org.jhooks.demo.DemoModel").build(data, jpype.JFloat(0.01))
    jvm_variants = {"java": _standard_hooks("java_raw"), "py": _standard_hooks("py_jvm")}
    for name in STANDARD:
        jvm_variants[f"java/{name}"] = _standard_hooks("java_raw", name)
        jvm_variants[f"py/{name}"] = _standard_hooks("py_jvm", name)
    try:
        jv = _jvm_rounds(graph, "train_step", ["global_step:0", "loss:0"], jvm_variants, steps, repeats)
    finally:
        graph.close()
    rows = {
        "P8a": _ratio(py["py"], py["tf"]),
        "P8b": _ratio(py["java"], py["tf"]),
        "P8c": _ratio(jv["java"], jv["bare"]),
        "P8d": _ratio(jv["py"], jv["bare"]),
    }
    for name in STANDARD:
        rows[f"P8a/{name}"] = _ratio(py[f"py/{name}"], py[f"tf/{name}"])
        rows[f"P8b/{name}"] = _ratio(py[f"java/{name}"], py[f"tf/{name}"])
        rows[f"P8c/{name}"] = _ratio(jv[f"java/{name}"], jv["bare"])
        rows[f"P8d/{name}"] = _ratio(jv[f"py/{name}"], jv["bare"])
    none = statistics.median(py["none"])
    added = {k: (statistics.median(v) - none) * 1e6 for k, v in py.items() if k != "none"}
    bare = statistics.median(jv["bare"])
    added.update({f"jvm {k}": (statistics.median(v) - bare) * 1e6 for k, v in jv.items() if k != "bare"})
    CURVES["P8 added us/step"] = added
    return rows


def sizes(cfg) -> dict[str, Any]:
    """Fetch cost against tensor size (for the plot): per-step time of each driver with a hook in
    each language fetching a variable of each size, and one memcpy of as many bytes."""
    curve: dict[str, dict[int, float]] = {
        "Python session, Python hook": {},
        "Python session, Java hook": {},
        "JVM session, Java hook": {},
        "JVM session, Python hook": {},
        "memcpy": {},
    }
    repeats = max(3, cfg["repeats"] // 2)
    for kb in cfg["sizes_kb"]:
        steps = max(5, min(200, int(cfg["steps"] * 64 / max(kb, 64))))
        py = _fetch_python(kb / 1024, steps, repeats)
        jv = _fetch_jvm(kb / 1024, steps, repeats)
        curve["Python session, Python hook"][kb] = statistics.median(py["py"])
        curve["Python session, Java hook"][kb] = statistics.median(py["java"])
        curve["JVM session, Java hook"][kb] = statistics.median(jv["java"])
        curve["JVM session, Python hook"][kb] = statistics.median(jv["py"])
        curve["memcpy"][kb] = _memcpy_seconds(kb * 1024)
    CURVES["sizes"] = curve
    largest = max(cfg["sizes_kb"])
    r = curve["Python session, Java hook"][largest] / curve["Python session, Python hook"][largest]
    return {"sizes": {"ratio": r, "a": curve["Python session, Java hook"][largest], "b": curve["memcpy"][largest]}}


CURVES: dict[str, Any] = {}


def plot(path: str) -> None:
    """P6's curves and fetch cost against tensor size next to the memcpy line, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    left, right = axes
    for label, points in CURVES.get("P6", {}).items():
        xs = sorted(points)
        left.plot(xs, [points[x] * 1e3 for x in xs], marker="o", label=label)
    left.set_xscale("log")
    left.set_xlabel("cross-language no-op hooks")
    left.set_ylabel("ms per step")
    left.set_title("P6: per-step cost against hook count")
    left.legend()
    for label, points in CURVES.get("sizes", {}).items():
        xs = sorted(points)
        style = {"linestyle": "--", "color": "black"} if label == "memcpy" else {"marker": "o"}
        right.plot([x * 1024 for x in xs], [points[x] * 1e3 for x in xs], label=label, **style)
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("fetched float32 tensor (bytes)")
    right.set_ylabel("ms per step (memcpy: ms per copy)")
    right.set_title("Fetch cost against tensor size")
    right.legend(fontsize="small")
    fig.suptitle(machine(), fontsize="x-small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _layer_graph(batch: int = 256, width: int = 512):
    """Twin of org.jhooks.bench.ProgressBarOverhead.layerGraph: loss = mean((x w)^2), one gradient
    descent step and the global step's increment per run."""
    graph = tf.Graph()
    with graph.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        w = tf.compat.v1.get_variable("w", initializer=np.full([width, width], 0.01, np.float32))
        x = tf.constant(np.full([batch, width], 0.01, np.float32))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)), name="loss")
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.001).minimize(loss, global_step=step)
    return graph, train_op


def p9a(cfg) -> dict[str, Any]:
    from jhooks.hooks import ProgressBarHook

    steps = cfg["steps"]
    with open(os.devnull, "w") as discard:
        bar = ProgressBarHook(lastStep=steps * (2 * cfg["repeats"] + 2), tensors={"loss": "loss:0"}, stream=discard)
        with_session, with_block = _session_per_step([bar], _layer_graph, steps)
        without_session, without_block = _session_per_step([], _layer_graph, steps)
        try:
            return _interleaved(with_block, without_block, cfg["repeats"])
        finally:
            with_session.close()
            without_session.close()


def p9b(cfg) -> dict[str, Any]:
    overhead = jpype.JClass("org.jhooks.bench.ProgressBarOverhead")
    graph = overhead.layerGraph(256, 512)
    try:
        t = list(overhead.measure(graph, "train_step", "loss:0", cfg["steps"], cfg["repeats"]))
    finally:
        graph.close()
    n = cfg["repeats"]
    return _ratio([x / 1e9 for x in t[:n]], [x / 1e9 for x in t[n:]])


BENCHMARKS = {
    "P1": p1,
    "P2": p2,
    "P3": p3,
    "P4": p4,
    "P5": p5,
    "P6": p6,
    "P7": p7,
    "P8": p8,
    "P9a": p9a,
    "P9b": p9b,
    "sizes": sizes,
}
UNITS = {"P1": "s/step", "P2": "s/step", "P3": "s/call", "P5": "s blocked", "P5_sync": "s blocked"}
UNITS.update({"P6": "s/hook", "P6_py": "s/hook", "P6_jvm": "s/hook", "sizes": "s/step | s/copy"})
UNITS.update({k: "MB | steps" for k in GOALS if k.startswith("P7")})


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    java = str(jpype.JClass("java.lang.System").getProperty("java.version"))
    return (
        f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB RAM, {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}, TensorFlow {tf.__version__}, JPype {jpype.__version__}, Java {java}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help='write {"P1": ratio, ...} to this path')
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes and few repeats (smoke test; numbers meaningless)"
    )
    parser.add_argument("--only", help="comma-separated subset of " + ",".join(BENCHMARKS))
    parser.add_argument("--plot", help="write P6's curves and the fetch cost against size to this PNG")
    parser.add_argument("--p7-steps", help="P7's first and last step, e.g. 1000,10000 (the default of a full run)")
    parser.add_argument("--p8-steps", type=int, help="P8's steps per block (300 in a full run, 10 with --quick)")
    parser.add_argument("--repeats", type=int, help="interleaved blocks per variant (7 in a full run, 3 with --quick)")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    if args.p7_steps:
        cfg["p7_steps"] = tuple(int(x) for x in args.p7_steps.split(","))
    if args.p8_steps:
        cfg["p8_steps"] = args.p8_steps
    if args.repeats:
        cfg["repeats"] = args.repeats
    names = args.only.split(",") if args.only else list(BENCHMARKS)
    if args.plot:
        names += [n for n in ("P6", "sizes") if n not in names]
    results: dict[str, Any] = {}
    print(f"machine: {machine()}")
    print(f"{'':22} {'ratio':>8} {'goal':>6}   {'A':>11} {'B':>11}  unit")
    for name in names:
        rows = BENCHMARKS[name](cfg)
        for row, r in rows.items() if "ratio" not in rows else [(name, rows)]:
            results[row] = r
            goal = GOALS.get(row)
            verdict = "" if goal is None else ("ok" if r["ratio"] <= goal else "MISSED")
            goal_text = f"{goal:6.2f}" if goal is not None else f"{'-':>6}"
            print(
                f"{row:22} {r['ratio']:8.3f} {goal_text}   {r['a']:11.3e} {r['b']:11.3e}  "
                f"{UNITS.get(row.split('/')[0], 's/step')}  {verdict}",
                flush=True,
            )
    if "P8 added us/step" in CURVES:
        print("added us/step over no hooks (Python session) / over the bare loop (JVM session):")
        for key, us in CURVES["P8 added us/step"].items():
            print(f"  {key:32} {us:9.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({k: v["ratio"] for k, v in results.items()}, f, indent=2)
    if args.plot:
        plot(args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
