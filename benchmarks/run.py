"""jhooks benchmarks: the cost of hooks crossing languages, measured side by side in one process.

    python benchmarks/run.py [--json PATH] [--quick] [--only P1,P3]

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
from typing import Any, Callable, Dict, List

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))

from jhooks.bridge import jvm  # noqa: E402

jvm.start()  # before TensorFlow: one runtime shared by both languages

import jpype  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import jhooks  # noqa: E402
from jhooks.bridge.java_hooks import JavaHook  # noqa: E402
from jhooks.bridge.python_hooks import as_java_hook  # noqa: E402
from jhooks.demo import data as demo_data  # noqa: E402
from jhooks.demo import model as demo_model  # noqa: E402
from jhooks.tf import to_tf_hooks  # noqa: E402

GOALS = {"P1": 1.10, "P2": 1.05, "P3": 2.5, "P4": 1.2, "P5": 0.25}
FULL = {"steps": 500, "repeats": 7, "calls": 20000, "fetch_mb": 64, "save_mb": 256, "save_repeats": 5}
QUICK = {"steps": 20, "repeats": 3, "calls": 200, "fetch_mb": 1, "save_mb": 4, "save_repeats": 2}


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


def _interleaved(a: Callable[[], float], b: Callable[[], float], repeats: int) -> Dict[str, Any]:
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


def _ratio(ta: List[float], tb: List[float]) -> Dict[str, Any]:
    return {"ratio": statistics.median(x / y for x, y in zip(ta, tb)), "a": statistics.median(ta),
            "b": statistics.median(tb)}


def _session_per_step(hooks: List[Any], build: Callable[[], Any], steps: int):
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


def p1(cfg) -> Dict[str, Any]:
    java_session, java_block = _session_per_step(
        [JavaHook(jpype.JClass("org.jhooks.bench.NoOpHook")()) for _ in range(10)], _demo_graph, cfg["steps"])
    py_session, py_block = _session_per_step([NoOpHook() for _ in range(10)], _demo_graph, cfg["steps"])
    try:
        return _interleaved(java_block, py_block, cfg["repeats"])
    finally:
        java_session.close()
        py_session.close()


def p2(cfg) -> Dict[str, Any]:
    data = jpype.JClass("org.jhooks.demo.DemoData").load(jpype.JClass("java.nio.file.Path").of(demo_data.DEFAULT_CSV))
    graph = jpype.JClass("org.jhooks.demo.DemoModel").build(data, jpype.JFloat(0.01))
    try:
        t = list(jpype.JClass("org.jhooks.bench.DriverOverhead").measure(
            graph, "train_step", cfg["steps"] * 4, cfg["repeats"]))
    finally:
        graph.close()
    n = cfg["repeats"]
    return _ratio([x / 1e9 for x in t[:n]], [x / 1e9 for x in t[n:]])


def p3(cfg) -> Dict[str, Any]:
    timer = jpype.JClass("org.jhooks.bench.CallbackTimer")
    graph = jpype.JClass("org.tensorflow.Graph")()
    java_session = jpype.JClass("org.jhooks.tf.TfSession")(jpype.JClass("org.tensorflow.Session")(graph), graph)
    context = jpype.JClass("org.jhooks.SessionRunContext")(jpype.JClass("org.jhooks.SessionRunArgs").of(None),
                                                           java_session)
    hook = as_java_hook(NoOpHook())
    supplier = jpype.JProxy("java.util.function.Supplier", dict={"get": lambda: None})
    n = cfg["calls"]
    try:
        return _interleaved(lambda: timer.beforeSessionRun(hook, context, n) / 1e9 / n,
                            lambda: timer.supplier(supplier, n) / 1e9 / n, cfg["repeats"])
    finally:
        java_session.close()
        graph.close()


def _big_variables_graph(count: int, megabytes: float, add_per_step: bool):
    """``count`` float32 variables of ``megabytes`` each (zeros), a global step, and a train op that
    adds 1 to every variable (if ``add_per_step``) and to the step, so each holds the step."""
    elements = int(megabytes * 2 ** 20 / 4)
    graph = tf.Graph()
    with graph.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        variables = [tf.compat.v1.get_variable(f"big{i}", [elements], tf.float32, tf.zeros_initializer())
                     for i in range(count)]
        ops = [v.assign_add(tf.ones([elements])) for v in variables] if add_per_step else []
        with tf.control_dependencies(ops):
            train_op = step.assign_add(1)
    return graph, train_op


def p4(cfg) -> Dict[str, Any]:
    def build():
        return _big_variables_graph(1, cfg["fetch_mb"], add_per_step=False)

    steps = max(5, cfg["steps"] // 20)
    java_hook = jpype.JClass("org.jhooks.bench.FetchHook")("big0:0")
    py_hook = FetchHook("big0:0")
    java_session, java_block = _session_per_step([JavaHook(java_hook)], build, steps)
    py_session, py_block = _session_per_step([py_hook], build, steps)
    try:
        result = _interleaved(java_block, py_block, cfg["repeats"])
    finally:
        java_session.close()
        py_session.close()
    expected = int(cfg["fetch_mb"] * 2 ** 20 / 4)
    if int(java_hook.lastSize()) != expected or py_hook.lastSize != expected:
        raise AssertionError(f"P4: fetched {java_hook.lastSize()} (Java) and {py_hook.lastSize} (Python) elements, "
                             f"expected {expected}")
    return result


def _save_block(hook_class, cfg, directory: str) -> List[float]:
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


def p5(cfg) -> Dict[str, Any]:
    from jhooks.hooks import AsyncCheckpointSaverHook, CheckpointSaverHook

    blocked: Dict[str, List[float]] = {"async": [], "sync": []}
    with tempfile.TemporaryDirectory(prefix="jhooks-bench-") as tmp:
        for r in range(cfg["save_repeats"]):
            order = [("async", AsyncCheckpointSaverHook), ("sync", CheckpointSaverHook)]
            for name, cls in (order if r % 2 == 0 else order[::-1]):
                blocked[name].append(statistics.median(_save_block(cls, cfg, os.path.join(tmp, f"{name}{r}"))))
    return _ratio(blocked["async"], blocked["sync"])


BENCHMARKS = {"P1": p1, "P2": p2, "P3": p3, "P4": p4, "P5": p5}
UNITS = {"P1": "s/step", "P2": "s/step", "P3": "s/call", "P4": "s/step", "P5": "s blocked"}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 30
    java = str(jpype.JClass("java.lang.System").getProperty("java.version"))
    return (f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB RAM, {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()}, TensorFlow {tf.__version__}, JPype {jpype.__version__}, Java {java}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="write {\"P1\": ratio, ...} to this path")
    parser.add_argument("--quick", action="store_true", help="tiny sizes and few repeats (smoke test; numbers meaningless)")
    parser.add_argument("--only", help="comma-separated subset, e.g. P1,P3")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    names = args.only.split(",") if args.only else list(BENCHMARKS)
    results: Dict[str, Any] = {}
    print(f"machine: {machine()}")
    print(f"{'':4} {'ratio':>7} {'goal':>6}   {'A':>11} {'B':>11}  unit")
    for name in names:
        r = BENCHMARKS[name](cfg)
        results[name] = r
        verdict = "ok" if r["ratio"] <= GOALS[name] else "MISSED"
        print(f"{name:4} {r['ratio']:7.3f} {GOALS[name]:6.2f}   {r['a']:11.3e} {r['b']:11.3e}  {UNITS[name]}  {verdict}",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({k: v["ratio"] for k, v in results.items()}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
