"""The measurements of benchmarks/run.py; its docstring defines every row. Importing this module
starts the JVM (before TensorFlow: one runtime shared by both languages).

Each function takes the run's configuration (``run.FULL``/``run.QUICK``) and returns its rows as
``timing.Ratio``s; the variants of one family are timed in one interleaving (``timing.interleave``),
whichever language runs their loop: a Python session's loop runs here, a JVM session's loop in
org.jhooks.bench.HookSetOverhead, one block per call.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import math
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from benchmarks.internals import jvm  # noqa: E402

jvm.start(natives=True)  # with TensorFlow's natives, before TensorFlow itself loads

import jpype  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import jhooks  # noqa: E402
from benchmarks import timing  # noqa: E402
from benchmarks.timing import Block, Ratio, ratio  # noqa: E402
from jhooks.bridge import JavaHook, as_java_hook  # noqa: E402
from jhooks.demo import data as demo_data  # noqa: E402
from jhooks.demo import model as demo_model  # noqa: E402
from jhooks.tf import to_tf_hooks  # noqa: E402

Rows = dict[str, Ratio]
CURVES: dict[str, Any] = {}
"""What the plot draws besides the rows: P6's per-step times by hook count, fetch cost by size."""


def J(name: str) -> Any:
    return jpype.JClass(name)


class NoOpHook(jhooks.Hook):
    """Every callback overridden to do nothing; twin of org.jhooks.bench.NoOpHook. Overridden on
    purpose: the bridge does not cross for a per-run callback a hook leaves as the jhooks.Hook
    no-op, and P1/P3/P6 must measure real crossings."""

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


def settings(cfg: dict[str, Any], interleaving: str) -> timing.Settings:
    """The timing settings of one interleaving (a family, or "P8/hook" for P8's per-hook variants):
    its rounds are ``cfg["rounds"][interleaving]`` if given, else ``cfg["repeats"]``."""
    repeats = cfg.get("rounds", {}).get(interleaving, cfg["repeats"])
    return timing.Settings(repeats, cfg["min_block"], cfg["warmup"], cfg["clock"])


def _python_session(stack: contextlib.ExitStack, hooks: list[Any], build: Callable[[], Any], tf_hooks=False) -> Block:
    """A block of steps of a MonitoredSession on a new graph from ``build`` (closed with ``stack``);
    ``hooks`` are jhooks hooks, or TensorFlow's own with ``tf_hooks``."""
    graph, train_op = build()
    with graph.as_default():
        session = tf.compat.v1.train.MonitoredSession(hooks=hooks if tf_hooks else to_tf_hooks(hooks))
    stack.callback(session.close)
    return timing.repeated(lambda: session.run(train_op))


def _java_list(items: Iterable[Any]) -> Any:
    out = J("java.util.ArrayList")()
    for item in items:
        out.add(item)
    return out


def _jvm_sessions(
    stack: contextlib.ExitStack, graph: Any, target: str, bare_fetches: list[str], variants: dict[str, list]
) -> dict[str, Block]:
    """Blocks of org.jhooks.bench.HookSetOverhead: "bare" (a bare loop fetching ``bare_fetches``)
    and one JVM MonitoredSession per hook set of ``variants``, by the same names."""
    hook_sets = _java_list(_java_list(hooks) for hooks in variants.values())
    overhead = J("org.jhooks.bench.HookSetOverhead")(graph, target, _java_list(bare_fetches), hook_sets)
    stack.callback(overhead.close)
    blocks: dict[str, Block] = {"bare": lambda n: overhead.block(0, n)}
    for i, name in enumerate(variants):
        blocks[name] = functools.partial(overhead.block, i + 1)
    return blocks


def _closing_graph(stack: contextlib.ExitStack, graph: Any) -> Any:
    stack.callback(graph.close)
    return graph


def _demo_graph():
    demo = demo_model.build(demo_data.load(), 0.01)
    return demo.graph, demo.trainOp


def _java_demo_graph(stack: contextlib.ExitStack) -> Any:
    data = J("org.jhooks.demo.DemoData").load(J("java.nio.file.Path").of(demo_data.DEFAULT_CSV))
    return _closing_graph(stack, J("org.jhooks.demo.DemoModel").build(data, jpype.JFloat(0.01)))


def p1(cfg) -> Rows:
    with contextlib.ExitStack() as stack:
        java_hooks = [JavaHook(J("org.jhooks.bench.NoOpHook")()) for _ in range(10)]
        blocks = {
            "java": _python_session(stack, java_hooks, _demo_graph),
            "py": _python_session(stack, [NoOpHook() for _ in range(10)], _demo_graph),
        }
        t = timing.interleave(blocks, settings(cfg, "P1"))
    return {"P1": ratio(t["java"], t["py"])}


def p2(cfg) -> Rows:
    with contextlib.ExitStack() as stack:
        graph = _java_demo_graph(stack)
        hooks = [J("org.jhooks.bench.NoOpHook")() for _ in range(10)]
        t = timing.interleave(_jvm_sessions(stack, graph, "train_step", [], {"hooked": hooks}), settings(cfg, "P2"))
    return {"P2": ratio(t["hooked"], t["bare"])}


def p3(cfg) -> Rows:
    timer = J("org.jhooks.bench.CallbackTimer")
    with contextlib.ExitStack() as stack:
        graph = _closing_graph(stack, J("org.tensorflow.Graph")())
        java_session = J("org.jhooks.tf.TfSession")(J("org.tensorflow.Session")(graph), graph)
        stack.callback(java_session.close)
        context = J("org.jhooks.SessionRunContext")(J("org.jhooks.SessionRunArgs").of(None), java_session)
        hook = as_java_hook(NoOpHook())
        supplier = jpype.JProxy("java.util.function.Supplier", dict={"get": lambda: None})
        blocks = {
            "hook": lambda n: timer.beforeSessionRun(hook, context, n),
            "proxy": lambda n: timer.supplier(supplier, n),
        }
        t = timing.interleave(blocks, settings(cfg, "P3"))
    return {"P3": ratio(t["hook"], t["proxy"])}


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


def _fetch_check(name: str, hooks: dict[str, Any], expected: int) -> None:
    sizes = {k: int(h.lastSize()) if callable(getattr(h, "lastSize", None)) else h.lastSize for k, h in hooks.items()}
    if any(v != expected for v in sizes.values()):
        raise AssertionError(f"{name}: fetched {sizes} elements, expected {expected}")


def _fetch(megabytes: float, s: timing.Settings) -> dict[str, list[float]]:
    """One interleaving of four sessions fetching big0:0 every step: a Python session with a Java
    hook ("py:java") or a Python hook ("py:py"), the JVM session with a Java hook ("jvm:java") or a
    Python hook ("jvm:py")."""
    elements = int(megabytes * 2**20 / 4)
    hooks = {
        "py:java": J("org.jhooks.bench.FetchHook")("big0:0"),
        "py:py": FetchHook("big0:0"),
        "jvm:java": J("org.jhooks.bench.FetchHook")("big0:0"),
        "jvm:py": FetchHook("big0:0"),
    }
    with contextlib.ExitStack() as stack:

        def build():
            return _big_variables_graph(1, megabytes, add_per_step=False)

        graph = _closing_graph(stack, J("org.jhooks.bench.BigVariableGraph").build(elements))
        jvm_hooks = {"jvm:java": [hooks["jvm:java"]], "jvm:py": [as_java_hook(hooks["jvm:py"])]}
        blocks = {
            "py:java": _python_session(stack, [JavaHook(hooks["py:java"])], build),
            "py:py": _python_session(stack, [hooks["py:py"]], build),
            **_jvm_sessions(stack, graph, "train_step", [], jvm_hooks),
        }
        del blocks["bare"]
        times = timing.interleave(blocks, s)
    _fetch_check(f"fetch of {megabytes} MB", hooks, elements)
    return times


def p4(cfg) -> Rows:
    t = _fetch(cfg["fetch_mb"], settings(cfg, "P4"))
    fastest = "the fastest blocks (a 64 MB fetch faults in fresh memory every step); spread: bootstrap"
    return {
        "P4": timing.fastest_ratio(t["py:java"], t["py:py"], note=fastest),
        "P4_jvm": timing.fastest_ratio(t["jvm:py"], t["jvm:java"], note=fastest),
    }


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


def _check_and_save_seconds(cfg, directory: str) -> tuple[float, float]:
    """Median seconds of the savers' finiteness check of 4 variables of ``save_mb / 4`` MB (the
    Python driver's fused op, ``jhooks.tf.saver.GraphSaver.nonFinite``) and of one save of them
    (``GraphSaver.save``, what CheckpointSaverHook writes), alternated 3 times in one session."""
    from jhooks.tf import saver as graph_saver

    graph, train_op = _big_variables_graph(4, cfg["save_mb"] / 4, add_per_step=True)
    built = graph_saver.prepare(graph)
    check, save = [], []
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(tf.compat.v1.global_variables_initializer())
        session.run(train_op)
        for i in range(3):
            t0 = time.perf_counter()
            if built.nonFinite(session):
                raise AssertionError("P5_check: the variables hold NaN or infinity")
            check.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            built.save(session, os.path.join(directory, f"check.ckpt-{i}"))
            save.append(time.perf_counter() - t0)
    return statistics.median(check), statistics.median(save)


def p5(cfg) -> Rows:
    from jhooks.hooks import AsyncCheckpointSaverHook, CheckpointSaverHook

    blocked: dict[str, list[float]] = {"async": [], "sync": [], "memcpy": [], "check": [], "save": []}
    with tempfile.TemporaryDirectory(prefix="jhooks-bench-") as tmp:
        for r in range(cfg["save_repeats"]):
            order = [("async", AsyncCheckpointSaverHook), ("sync", CheckpointSaverHook)]
            for name, cls in order if r % 2 == 0 else order[::-1]:
                blocked[name].append(statistics.median(_save_block(cls, cfg, os.path.join(tmp, f"{name}{r}"))))
            blocked["memcpy"].append(_memcpy_seconds(int(cfg["save_mb"] * 2**20)))
            check, save = _check_and_save_seconds(cfg, os.path.join(tmp, f"check{r}"))
            blocked["check"].append(check)
            blocked["save"].append(save)
    return {
        "P5": ratio(blocked["async"], blocked["memcpy"]),
        "P5_sync": ratio(blocked["async"], blocked["sync"]),
        "P5_check": ratio(blocked["check"], blocked["save"]),
    }


def _model_graph(sizes_mb: tuple[float, ...]):
    """Float32 variables ``big<i>`` of ``sizes_mb[i]`` MB (zeros) and a train op adding 1 to each
    and to the global step (twin of org.jhooks.bench.SaveBench.model); the graph, train op and
    the model's bytes."""
    elements = [int(mb * 2**20 / 4) for mb in sizes_mb]
    graph = tf.Graph()
    with graph.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        variables = [
            tf.compat.v1.get_variable(f"big{i}", [n], tf.float32, tf.zeros_initializer())
            for i, n in enumerate(elements)
        ]
        with tf.control_dependencies([v.assign_add(tf.ones([n])) for v, n in zip(variables, elements)]):
            train_op = step.assign_add(1)
    return graph, train_op, 4 * sum(elements)


def _java_longs(values: Iterable[int]) -> Any:
    return jpype.JArray(jpype.JLong)([int(v) for v in values])


class _SaveTimer(jhooks.CheckpointSaverListener):
    """Seconds from each save's beforeSave to its afterSave (the NaN check, the files, the state
    file, rotation); with ``skipFirst`` the save after session creation is skipped."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self._t0 = 0.0

    def beforeSave(self, session, globalStep):
        self._t0 = time.perf_counter()

    def afterSave(self, session, globalStep):
        self.seconds.append(time.perf_counter() - self._t0)
        return False


class _RawSession(tf.compat.v1.train.SessionRunHook):
    """Keeps TensorFlow's raw session of a MonitoredSession (for its own Saver.save)."""

    session: Any = None

    def after_create_session(self, session, coord):
        self.session = session


def _python_sync_saves(cfg, directory: str) -> tuple[list[float], list[float]]:
    """P10's Python side: in one session, ``model_saves`` saves by CheckpointSaverHook (a save every
    step, listener-timed) alternated with as many ``tf.compat.v1.train.Saver.save`` calls of the
    same variables (state file written, no meta graph: what the hook writes), order swapped every
    other round, one checkpoint kept each."""
    from jhooks.hooks import CheckpointSaverHook

    graph, train_op, _ = _model_graph(cfg["model_mb"])
    timer, raw = _SaveTimer(), _RawSession()
    hook = CheckpointSaverHook(os.path.join(directory, "hook"), saveSteps=1, maxToKeep=1, listeners=[timer])
    with graph.as_default():
        saver = tf.compat.v1.train.Saver(max_to_keep=1, sharded=False)
        session = tf.compat.v1.train.MonitoredSession(hooks=[raw, *to_tf_hooks([hook])])
    theirs = []
    prefix = os.path.join(directory, "tf", "model.ckpt")

    def tf_save(r: int) -> None:
        t0 = time.perf_counter()
        saver.save(raw.session, prefix, global_step=r, write_meta_graph=False)
        theirs.append(time.perf_counter() - t0)

    with graph.as_default(), session:
        timer.seconds.clear()  # the save after session creation
        for r in range(cfg["model_saves"]):
            if r % 2 == 0:
                session.run(train_op)
                tf_save(r)
            else:
                tf_save(r)
                session.run(train_op)
    return timer.seconds, theirs


def p10(cfg) -> Rows:
    """P10_py and P10_jvm, one after the other (each holds the model once)."""
    saves = cfg["model_saves"]
    memory = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None  # run.py: the disk's writeback is not the hook's
    with tempfile.TemporaryDirectory(prefix="jhooks-bench-p10-", dir=memory) as tmp:
        ours_py, tf_py = _python_sync_saves(cfg, os.path.join(tmp, "py"))
        gc.collect()
        graph = J("org.jhooks.bench.SaveBench").model(_java_longs(mb * 2**20 / 4 for mb in cfg["model_mb"]))
        try:
            out = list(J("org.jhooks.bench.SaveBench").syncSaves(graph, os.path.join(tmp, "jvm"), saves))
        finally:
            graph.close()
    ours_jvm, tf_jvm = out[:saves], out[saves:]
    note = "fastest of each side; spread: bootstrap of the rounds; round 1 (a warm-up) left out"
    rows = {
        "P10_py": timing.fastest_ratio(ours_py[1:], tf_py[1:], note=note),
        "P10_jvm": timing.fastest_ratio(ours_jvm[1:], tf_jvm[1:], note=note),
    }
    return {"P10": max(rows.values(), key=lambda r: r.ratio), **rows}


class _Peak:
    """The process's peak resident set from ``start()`` on, sampled every millisecond by a thread
    (it runs while TensorFlow and Java calls release the GIL)."""

    def __init__(self) -> None:
        import threading

        self.baseline = -1.0
        self.peak = 0.0
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True, name="rss-sampler")
        self._thread.start()

    def start(self) -> None:
        with self._lock:
            self.baseline = self.peak = _rss_mb() * 2**20

    def _sample(self) -> None:
        while not self._done.wait(0.001):
            with self._lock:
                if self.baseline >= 0:
                    self.peak = max(self.peak, _rss_mb() * 2**20)

    def stop(self) -> float:
        """The peak extra bytes over the baseline."""
        with self._lock:
            self.peak = max(self.peak, _rss_mb() * 2**20)
        self._done.set()
        self._thread.join()
        return self.peak - self.baseline


class _MarkFirstSave(jhooks.CheckpointSaverListener):
    """Skips the save after session creation; the next save's beforeSave starts the peak."""

    def __init__(self, peak: _Peak) -> None:
        self.peak = peak

    def beforeSave(self, session, globalStep):
        if globalStep == 0:
            return jhooks.SaveDecision.SKIP
        self.peak.start()
        return None


def python_async_save_peak(sizes_mb: tuple[float, ...], directory: str) -> tuple[float, int, int]:
    """The peak extra resident bytes of one save by the Python AsyncCheckpointSaverHook of the model
    of ``sizes_mb`` (its first: the save after session creation is skipped), from its beforeSave on
    the training thread until the write is on disk; with the model's bytes and the saved step."""
    from jhooks.hooks import AsyncCheckpointSaverHook

    graph, train_op, nbytes = _model_graph(sizes_mb)
    peak = _Peak()
    hook = AsyncCheckpointSaverHook(directory, saveSteps=2, maxToKeep=1, listeners=[_MarkFirstSave(peak)])
    try:
        with graph.as_default(), tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook])) as session:
            session.run(train_op)
            session.run(train_op)  # the save of step 2
            hook.waitForPendingSaves()
            extra = peak.stop()
    finally:
        peak.stop()
    return extra, nbytes, int(hook.lastSavedStep() or -1)


def java_async_save_peak(sizes_mb: tuple[float, ...], directory: str) -> tuple[float, int, int]:
    """The same for the Java AsyncCheckpointSaverHook in the JVM session (SaveBench.asyncSavePeak)."""
    elements = [int(mb * 2**20 / 4) for mb in sizes_mb]
    graph = J("org.jhooks.bench.SaveBench").model(_java_longs(elements))
    try:
        extra, step = J("org.jhooks.bench.SaveBench").asyncSavePeak(graph, directory)
    finally:
        graph.close()
    return float(extra), 4 * sum(elements), int(step)


def save_peak(language: str, sizes_mb: tuple[float, ...], directory: str) -> dict[str, Any]:
    """One P11 measurement in a new process (benchmarks/save_peak.py): ``{"extra", "model", "step"}``."""
    import json
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "save_peak.py")
    done = subprocess.run(
        [sys.executable, script, language, directory, *map(str, sizes_mb)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"save_peak.py {language} failed:\n{done.stdout[-2000:]}{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def p11(cfg) -> Rows:
    """P11_py and P11_jvm: the peak extra RSS of one async save / the model's bytes, per repeat,
    each measurement in a new process."""
    out: dict[str, list[float]] = {"py": [], "jvm": []}
    with tempfile.TemporaryDirectory(prefix="jhooks-bench-p11-") as tmp:
        for r in range(cfg["model_repeats"]):
            for lang in ("py", "jvm"):
                got = save_peak(lang, cfg["model_mb"], os.path.join(tmp, f"{lang}{r}"))
                if got["step"] != 2:
                    raise AssertionError(f"P11_{lang}: the measured save wrote step {got['step']}, not 2")
                out[lang].append(got["extra"] / got["model"])
    model_mb = float(sum(cfg["model_mb"]))
    rows = {f"P11_{k}": timing.value(v, model_mb, f"model {model_mb:g} MB") for k, v in out.items()}
    return {"P11": max(rows.values(), key=lambda r: r.ratio), **rows}


def conv_graph(batch: int):
    """Benchmark P12's step: a small convolutional network on 28x28x1 inputs (``batch`` of them,
    constants), conv 5x5x16 + ReLU + 2x2 max pool, conv 5x5x32 + ReLU + 2x2 max pool, dense 128 +
    ReLU, dense 10, softmax cross-entropy ``loss``, one gradient descent step and the global
    step's increment per run. Ref variables with one ``init`` op, so the JVM session runs the same
    GraphDef (imported, ``init`` as its local init op)."""
    rng = np.random.default_rng(0)
    graph = tf.Graph()
    with graph.as_default():
        keys = tf.compat.v1.GraphKeys
        step = tf.compat.v1.get_variable(
            "global_step", [], tf.int64, tf.zeros_initializer(), trainable=False, use_resource=False,
            collections=[keys.GLOBAL_VARIABLES, keys.GLOBAL_STEP],
        )  # fmt: skip
        x = tf.constant(rng.random([batch, 28, 28, 1], np.float32), name="images")
        labels = tf.constant(rng.integers(0, 10, [batch]).astype(np.int64), name="labels")

        def weight(name, shape):
            init = tf.compat.v1.truncated_normal_initializer(stddev=0.1, seed=1)
            return tf.compat.v1.get_variable(name, shape, tf.float32, init, use_resource=False)

        h = x
        for i, (k, c_in, c_out) in enumerate(((5, 1, 16), (5, 16, 32))):
            h = tf.nn.relu(tf.nn.conv2d(h, weight(f"conv{i}", [k, k, c_in, c_out]), 1, "SAME"))
            h = tf.nn.max_pool2d(h, 2, 2, "SAME")
        h = tf.reshape(h, [batch, 7 * 7 * 32])
        h = tf.nn.relu(tf.matmul(h, weight("dense0", [7 * 7 * 32, 128])))
        logits = tf.matmul(h, weight("dense1", [128, 10]))
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits), name="loss")
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=step, name="train")
        tf.compat.v1.global_variables_initializer().name  # noqa: B018 - the op named "init"
    return graph, train_op


def _java_conv_graph(stack: contextlib.ExitStack, batch: int) -> Any:
    graph, _ = conv_graph(batch)
    graph_def = J("org.tensorflow.proto.GraphDef").parseFrom(graph.as_graph_def().SerializeToString())
    java = _closing_graph(stack, J("org.tensorflow.Graph")())
    java.importGraphDef(graph_def)
    return java


def p12(cfg) -> Rows:
    """P12_jvm and P12_py in one interleaving, on the conv step."""
    batch = cfg["conv_batch"]
    with contextlib.ExitStack() as stack:
        graph = _java_conv_graph(stack, batch)
        init = _java_list(["init"])
        jvm_variants = {"jvm:py": _standard_hooks("py_jvm"), "jvm:java": _standard_hooks("java_raw")}
        hook_sets = _java_list(_java_list(hooks) for hooks in jvm_variants.values())
        overhead = J("org.jhooks.bench.HookSetOverhead")(graph, "train", _java_list([]), hook_sets, init)
        stack.callback(overhead.close)
        blocks: dict[str, Block] = {
            "py:java": _python_session(stack, _standard_hooks("java"), lambda: conv_graph(batch)),
            "py:tf": _python_session(stack, _standard_hooks("tf"), lambda: conv_graph(batch), tf_hooks=True),
            "jvm:py": functools.partial(overhead.block, 1),
            "jvm:java": functools.partial(overhead.block, 2),
        }
        t = timing.interleave(blocks, settings(cfg, "P12"))
    rows = {"P12_jvm": ratio(t["jvm:py"], t["jvm:java"]), "P12_py": ratio(t["py:java"], t["py:tf"])}
    CURVES["P12 ms/step"] = {name: statistics.median(v) * 1e3 for name, v in t.items()}
    return {"P12": max(rows.values(), key=lambda r: r.ratio), **rows}


def p6(cfg) -> Rows:
    counts = cfg["p6_counts"]
    with contextlib.ExitStack() as stack:
        blocks: dict[str, Block] = {}
        for n in counts:
            hooks = [JavaHook(J("org.jhooks.bench.NoOpHook")()) for _ in range(n)]
            blocks[f"py:{n}"] = _python_session(stack, hooks, _demo_graph)
        graph = _java_demo_graph(stack)
        variants = {f"jvm:{n}": [as_java_hook(NoOpHook()) for _ in range(n)] for n in counts}
        blocks.update(_jvm_sessions(stack, graph, "train_step", [], variants))
        del blocks["bare"]
        # The 22,200 hooks and their proxies are start-up state: unfrozen, every collection a
        # block's own garbage triggers would scan all of them, every variant's.
        gc.freeze()
        t = timing.interleave(blocks, settings(cfg, "P6"))
    py = {n: t[f"py:{n}"] for n in counts}
    jv = {n: t[f"jvm:{n}"] for n in counts}
    CURVES["P6"] = {"Java hooks, Python session": py, "Python hooks, JVM session": jv}
    rows = {"P6_py": timing.per_hook_ratio(py, counts), "P6_jvm": timing.per_hook_ratio(jv, counts)}
    worst = max(rows.values(), key=lambda r: r.ratio if math.isfinite(r.ratio) else math.inf)
    return {"P6": worst, **rows}


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def rss_growth(direction: str, megabytes: float, hooks: int, first: int, last: int) -> float:
    """RSS growth (MB) from step ``first`` to step ``last`` of a session whose ``hooks``
    cross-language hooks fetch a ``megabytes`` float32 variable every step: Java hooks in a Python
    session (``direction`` "py") or Python hooks in the JVM session ("jvm")."""
    elements = int(megabytes * 2**20 / 4)
    if direction == "py":
        java_hooks = [J("org.jhooks.bench.FetchHook")("big0:0") for _ in range(hooks)]
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
    graph = J("org.jhooks.bench.BigVariableGraph").build(elements)
    try:
        session = J("org.jhooks.tf.MonitoredSession").builder(graph).hooks(_java_list(map(as_java_hook, py_hooks)))
        session = session.build()
        steps = J("org.jhooks.bench.HookSetOverhead")
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


def p7(cfg) -> Rows:
    first, last = cfg["p7_steps"]
    big, small = cfg["p7_mb"]
    rows = {}
    for direction in ("py", "jvm"):
        for name, mb, hooks in ((f"P7_{direction}64", big, 1), (f"P7_{direction}1", small, 2)):
            rows[name] = timing.value([rss_growth(direction, mb, hooks, first, last)], float(last - first))
    return {"P7": max(rows.values(), key=lambda r: r.ratio), **rows}


STANDARD = ("StopAtStepHook", "NanTensorHook", "StepCounterHook", "LoggingTensorHook")


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
            "StopAtStepHook": lambda: J(j + "StopAtStepHook").ofLastStep(never),
            "NanTensorHook": lambda: J(j + "NanTensorHook")("loss:0"),
            "StepCounterHook": lambda: J(j + "StepCounterHook")(
                jpype.JObject(never, "java.lang.Integer"), None, None, None
            ),
            "LoggingTensorHook": lambda: J(j + "LoggingTensorHook").everyNIter(
                J("java.util.Map").of("loss", "loss:0"), never
            ),
        }
    hooks = [make() for name, make in made.items() if only in (None, name)]
    if kind == "java":
        return [JavaHook(x) for x in hooks]
    if kind == "py_jvm":
        return [as_java_hook(x) for x in hooks]
    return hooks


def _p8_blocks(stack: contextlib.ExitStack) -> dict[str, Block]:
    """Every P8 variant, in an order that puts the variants of each ratio near each other: Python
    sessions "py:<kind>" (kind none, tf, py, java), JVM sessions "jvm:<kind>" (java, py, bare), then
    the same per hook ("py:tf/StopAtStepHook", ...)."""
    graph = _java_demo_graph(stack)
    suffixes = ("", *(f"/{name}" for name in STANDARD))
    jvm_kinds = (("java", "java_raw"), ("py", "py_jvm"))
    jvm_variants = {f"jvm:{k}{x}": _standard_hooks(made, x[1:] or None) for x in suffixes for k, made in jvm_kinds}
    jvm_blocks = _jvm_sessions(stack, graph, "train_step", ["global_step:0", "loss:0"], jvm_variants)
    blocks: dict[str, Block] = {"py:none": _python_session(stack, [], _demo_graph)}
    for x in suffixes:
        for kind in ("tf", "py", "java"):
            hooks = _standard_hooks(kind, x[1:] or None)
            blocks[f"py:{kind}{x}"] = _python_session(stack, hooks, _demo_graph, tf_hooks=kind == "tf")
        for kind, _ in jvm_kinds:
            blocks[f"jvm:{kind}{x}"] = jvm_blocks[f"jvm:{kind}{x}"]
        if not x:
            blocks["jvm:bare"] = jvm_blocks["bare"]
    return blocks


def p8(cfg) -> Rows:
    with contextlib.ExitStack() as stack:
        blocks = _p8_blocks(stack)
        four = {name: block for name, block in blocks.items() if "/" not in name}
        # the one-hook variants with a bare loop of their own: each ratio's variants in one interleaving
        alone = {name: block for name, block in blocks.items() if "/" in name or name == "jvm:bare"}
        t = timing.interleave(four, settings(cfg, "P8"))
        t_alone = timing.interleave(alone, settings(cfg, "P8/hook"))
    rows = {}
    t.update((name, v) for name, v in t_alone.items() if name != "jvm:bare")
    for suffix in ("", *(f"/{name}" for name in STANDARD)):
        bare = t_alone["jvm:bare"] if suffix else t["jvm:bare"]
        rows[f"P8a{suffix}"] = ratio(t[f"py:py{suffix}"], t[f"py:tf{suffix}"])
        rows[f"P8b{suffix}"] = ratio(t[f"py:java{suffix}"], t[f"py:tf{suffix}"])
        rows[f"P8c{suffix}"] = ratio(t[f"jvm:java{suffix}"], bare)
        rows[f"P8d{suffix}"] = ratio(t[f"jvm:py{suffix}"], bare)
        rows[f"P8e{suffix}"] = ratio(t[f"jvm:py{suffix}"], t[f"jvm:java{suffix}"])
        rows[f"P8f{suffix}"] = ratio(t[f"py:java{suffix}"], t[f"py:py{suffix}"])
    base = {"py": statistics.median(t["py:none"]), "jvm": statistics.median(t["jvm:bare"])}
    CURVES["P8 added us/step"] = {
        name: (statistics.median(v) - base[name.split(":")[0]]) * 1e6
        for name, v in t.items()
        if name not in ("py:none", "jvm:bare")
    }
    return rows


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


def p9(cfg) -> Rows:
    """P9a and P9b in one interleaving."""
    from jhooks.hooks import ProgressBarHook

    never = 10**9  # the bar's last step: beyond any run, so the bar never completes
    overhead = J("org.jhooks.bench.ProgressBarOverhead")
    with contextlib.ExitStack() as stack:
        discard = stack.enter_context(open(os.devnull, "w"))
        bar = ProgressBarHook(lastStep=never, tensors={"loss": "loss:0"}, stream=discard)
        graph = _closing_graph(stack, overhead.layerGraph(256, 512))
        jvm_variants = {"jvm:bar": [overhead.bar(never, "loss:0")], "jvm:none": []}
        blocks = {
            "py:bar": _python_session(stack, [bar], _layer_graph),
            "py:none": _python_session(stack, [], _layer_graph),
            **_jvm_sessions(stack, graph, "train_step", [], jvm_variants),
        }
        del blocks["bare"]
        t = timing.interleave(blocks, settings(cfg, "P9"))
    return {"P9a": ratio(t["py:bar"], t["py:none"]), "P9b": ratio(t["jvm:bar"], t["jvm:none"])}


def sizes(cfg) -> Rows:
    """Fetch cost against tensor size (for the plot): per-step time of each driver with a hook in
    each language fetching a variable of each size, and one memcpy of as many bytes."""
    labels = {
        "py:py": "Python session, Python hook",
        "py:java": "Python session, Java hook",
        "jvm:java": "JVM session, Java hook",
        "jvm:py": "JVM session, Python hook",
    }
    curve: dict[str, dict[int, list[float]]] = {label: {} for label in (*labels.values(), "memcpy")}
    s = settings(cfg, "sizes")
    s = timing.Settings(max(3, s.repeats // 2), s.min_block, s.warmup, s.clock)
    t: dict[str, list[float]] = {}
    for kb in cfg["sizes_kb"]:
        t = _fetch(kb / 1024, s)
        for key, label in labels.items():
            curve[label][kb] = t[key]
        curve["memcpy"][kb] = [_memcpy_seconds(kb * 1024)]
    CURVES["sizes"] = curve
    return {"sizes": ratio(t["py:java"], t["py:py"])}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    java = str(J("java.lang.System").getProperty("java.version"))
    return (
        f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB RAM, {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}, TensorFlow {tf.__version__}, JPype {jpype.__version__}, Java {java}"
    )


def runtime() -> dict[str, str]:
    """The settings a reader needs to judge the numbers: garbage collectors, JVM options, pinning."""
    management = J("java.lang.management.ManagementFactory")
    collectors = ", ".join(str(b.getName()) for b in management.getGarbageCollectorMXBeans())
    options = " ".join(str(a) for a in management.getRuntimeMXBean().getInputArguments()) or "none"
    affinity = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    return {
        "python_gc": (
            f"enabled, thresholds {gc.get_threshold()}, start-up objects frozen (again before each family), "
            "collected before every round"
        ),
        "jvm_gc": f"{collectors} (JVM defaults)",
        "jvm_options": options,
        "cpus": f"not pinned: CPUs {affinity} (TensorFlow's and the JVM's threads use them all)",
    }


FAMILIES: dict[str, Callable[[dict[str, Any]], Rows]] = {
    "P1": p1,
    "P2": p2,
    "P3": p3,
    "P4": p4,
    "P5": p5,
    "P6": p6,
    "P7": p7,
    "P8": p8,
    "P9": p9,
    "P10": p10,
    "P11": p11,
    "P12": p12,
    "sizes": sizes,
}
