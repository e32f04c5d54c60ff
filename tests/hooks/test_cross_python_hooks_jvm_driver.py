"""Each Python standard hook (jhooks.hooks) inside the JVM MonitoredSession (org.jhooks.tf).

The hooks cross with ``jhooks.bridge.as_java_hook``; the graphs are tensorflow-java graphs built
by the Java builders of the main sources (``org.jhooks.conformance.ModelRecipe``,
``org.jhooks.demo.DemoModel``) or, for FeedFnHook, with ``org.tensorflow.op.Ops`` from Python. The
session is driven from Python through JPype; one JVM for the module (the one-TF-runtime recipe,
so TensorFlow and TensorBoard read the files in the same process). Where the Java twin exists it
runs in the same session as a second expectation.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re

import jpype
import numpy as np
import pytest
import tensorflow as tf
from hooks_support import graph_files
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

import jhooks
from jhooks import hooks as pyhooks
from jhooks.bridge import as_java_hook
from jhooks.bridge.convert.arrays import to_numpy
from jhooks.bridge.process.calls import call_java

pytestmark = pytest.mark.timeout(120)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCREMENT = 0.5  # the recipe's counter grows by this per step; loss:0 is the counter before the step


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


def JHook(name):
    return jpype.JClass("org.jhooks.hooks." + name)


def Int(n):
    return jpype.JClass("java.lang.Integer")(n)


def java_map(items):
    m = jpype.JClass("java.util.LinkedHashMap")()
    for k, v in items.items():
        m.put(k, v)
    return m


def recipe_graph(**recipe):
    """ModelRecipe's graph: global_step, counter (+INCREMENT per ``train``), loss:0 = counter before
    the step (NaN at ``nanLossAtStep``), global_step_read:0 = the step before the run."""
    graph = jpype.JClass("org.tensorflow.Graph")()
    spec = (
        jpype.JClass("com.google.gson.JsonParser")
        .parseString(json.dumps({"counterIncrement": INCREMENT, **recipe}))
        .getAsJsonObject()
    )
    jpype.JClass("org.jhooks.conformance.ModelRecipe").build(graph, spec)
    return graph, "train"


def demo_graph():
    """DemoModel's logistic regression (w, b, global_step; loss:0, loss_summary:0, train_step)."""
    data = jpype.JClass("org.jhooks.demo.DemoData").load(
        jpype.JClass("java.nio.file.Path").of(os.path.join(REPO, "jhooks", "demo", "data", "wdbc.csv"), [])
    )
    demo = jpype.JClass("org.jhooks.demo.DemoModel")
    return demo.build(data, jpype.JFloat(demo.DEFAULT_LEARNING_RATE)), str(demo.TRAIN_OP)


def feed_graph():
    """v += x * x per ``train_step``; x is a float32 scalar placeholder with default 1."""
    graph = jpype.JClass("org.tensorflow.Graph")()
    ops = jpype.JClass("org.tensorflow.op.Ops").create(graph)
    v = ops.withName("v").variable(ops.constant(jpype.JFloat(0.0)))
    x = ops.withName("x").placeholderWithDefault(
        ops.constant(jpype.JFloat(1.0)), jpype.JClass("org.tensorflow.ndarray.Shape").scalar()
    )
    update = ops.withName("v_update").assignAdd(v, ops.math.mul(x, x))
    jpype.JClass("org.jhooks.tf.GlobalStep").create(ops, update)
    return graph, "train_step"


def run_jvm(hooks, built, steps):
    """Runs the train op of ``built`` (graph, train op) under a JVM MonitoredSession with ``hooks``
    (Python hooks crossed with as_java_hook, Java hooks as they are) until ``steps`` runs or a
    stop; returns runs, stop flag and the global step read raw at the end."""
    graph, train = built
    java_hooks = jpype.JClass("java.util.ArrayList")()
    for h in hooks:
        java_hooks.add(h if isinstance(h, jpype.JClass("org.jhooks.Hook")) else as_java_hook(h))
    try:
        session = call_java(jpype.JClass("org.jhooks.tf.MonitoredSession").builder(graph).hooks(java_hooks).build)
        try:
            runs = 0
            while runs < steps and not session.shouldStop():
                call_java(session.run, train)
                runs += 1
            out = {"runs": runs, "stopped": bool(session.shouldStop()), "lastStep": int(session.session().globalStep())}
        finally:
            call_java(session.close)
    finally:
        graph.close()
    return out


def events(logdir):
    acc = EventAccumulator(str(logdir), size_guidance={"scalars": 0})
    acc.Reload()
    return acc


# --- LoggingTensorHook ----------------------------------------------------------------------------


def test_python_logging_tensor_hook_logs_the_jvm_values_as_the_java_twin(caplog):
    tensors = {"step": "global_step_read:0", "loss": "loss:0"}
    java_twin = JHook("LoggingTensorHook")(java_map(tensors), Int(2), None, True, None)
    hook = pyhooks.LoggingTensorHook(tensors, everyNIter=2, atEnd=True)
    with caplog.at_level(logging.INFO, logger="jhooks.hooks.logging_tensor"):
        run_jvm([hook, java_twin], recipe_graph(), 5)
    lines = [r.getMessage() for r in caplog.records if r.name == "jhooks.hooks.logging_tensor"]
    untimed = [re.sub(r" \(\d+\.\d{3} sec\)$", "", line) for line in lines]
    # runs 0, 2, 4, then at end (a raw run: step 5); every line but the first is timed, as TF
    assert untimed == ["loss = 0.0, step = 0", "loss = 1.0, step = 2", "loss = 2.0, step = 4", "loss = 2.5, step = 5"]
    assert [u != line for u, line in zip(untimed, lines)] == [False, True, True, True]
    assert untimed == [re.sub(r" \(\d+\.\d{3} sec\)$", "", str(s)) for s in java_twin.loggedLines()]


# --- StepCounterHook and SummarySaverHook: event files ---------------------------------------------


def test_python_step_counter_writes_global_step_per_sec_at_the_java_twins_steps(tmp_path):
    hook = pyhooks.StepCounterHook(everyNSteps=2, outputDir=str(tmp_path / "python"))
    java_twin = JHook("StepCounterHook")(Int(2), None, str(tmp_path / "java"), None)
    run_jvm([hook, java_twin], recipe_graph(), 7)
    ours = events(tmp_path / "python").Scalars("global_step/sec")
    assert [e.step for e in ours] == [e.step for e in events(tmp_path / "java").Scalars("global_step/sec")] == [3, 5, 7]
    assert all(e.value > 0 for e in ours) and hook.lastRate() == pytest.approx(ours[-1].value)


def test_python_summary_saver_writes_the_jvm_scalars_at_the_expected_steps(tmp_path):
    hook = pyhooks.SummarySaverHook(saveSteps=2, outputDir=str(tmp_path), summaryOp={"loss": "loss:0"})
    run_jvm([hook], recipe_graph(), 7)
    # fetched with the run that ends at that step: the counter before it
    assert [(e.step, e.value) for e in events(tmp_path).Scalars("loss")] == [
        (s, INCREMENT * (s - 1)) for s in (1, 3, 5, 7)
    ]
    assert hook.writtenSteps() == [1, 3, 5, 7]


@pytest.mark.parametrize("saveSteps,steps", [(3, [1, 4, 7]), (4, [1, 5, 9])])
def test_summary_savers_keep_their_interval_although_the_jvm_fetch_sees_the_increment(tmp_path, saveSteps, steps):
    """global_step:0 (a VariableV2) fetched with the train op comes back incremented; both twins
    must still write every saveSteps steps, as TF's hook (which fetches a read taken before)."""
    hook = pyhooks.SummarySaverHook(
        saveSteps=saveSteps, outputDir=str(tmp_path / "python"), summaryOp={"loss": "loss:0"}
    )
    java_twin = JHook("SummarySaverHook")(
        Int(saveSteps), None, str(tmp_path / "java"), None, None, java_map({"loss": "loss:0"})
    )
    run_jvm([hook, java_twin], recipe_graph(), 9)
    assert hook.writtenSteps() == steps
    assert [e.step for e in events(tmp_path / "java").Scalars("loss")] == steps


def test_python_summary_saver_writes_a_serialized_summary_of_the_jvm_graph(tmp_path):
    serialized = pyhooks.SummarySaverHook(saveSteps=3, outputDir=str(tmp_path / "proto"), summaryOp="loss_summary:0")
    scalar = pyhooks.SummarySaverHook(saveSteps=3, outputDir=str(tmp_path / "map"), summaryOp={"loss": "loss:0"})
    run_jvm([serialized, scalar], demo_graph(), 7)
    ours = [(e.step, e.value) for e in events(tmp_path / "proto").Scalars("loss")]
    assert [s for s, _ in ours] == [1, 4, 7]
    assert ours == [(e.step, e.value) for e in events(tmp_path / "map").Scalars("loss")]
    assert ours[0][1] == pytest.approx(np.log(2), rel=1e-5)  # w = b = 0: p = 0.5 for every row


# --- FeedFnHook -----------------------------------------------------------------------------------


def test_python_feed_fn_hook_feeds_the_placeholder_that_trains_the_jvm_model():
    xs = [1.0, 2.0, 0.5, 3.0]
    calls = []

    def feed():
        calls.append(len(calls))
        return {"x:0": np.float32(xs[len(calls) - 1])}

    final = pyhooks.FinalOpsHook({"v": "v:0"})
    run_jvm([pyhooks.FeedFnHook(feed), final], feed_graph(), len(xs))
    assert calls == [0, 1, 2, 3]
    assert float(final.finalOpsValues()["v"]) == sum(x * x for x in xs) == 14.25
    unfed = pyhooks.FinalOpsHook({"v": "v:0"})
    run_jvm([unfed], feed_graph(), len(xs))
    assert float(unfed.finalOpsValues()["v"]) == 4.0


# --- ProgressBarHook ------------------------------------------------------------------------------


def test_python_progress_bar_prints_its_lines_up_to_the_last_step():
    stream = io.StringIO()
    hook = pyhooks.ProgressBarHook(lastStep=6, tensors={"loss": "loss:0"}, everyNIter=2, stream=stream)
    run_jvm([hook], recipe_graph(), 6)
    lines = stream.getvalue().splitlines()
    assert all(re.fullmatch(r"\d/6 steps \(\d+%\), [\d.]+ s, [\d.]+ step/s, loss=[\d.]+", line) for line in lines), (
        lines
    )
    assert lines[-1].startswith("6/6 steps (100%), ") and hook.position() == 6


# --- FinalOpsHook, StopAtStepHook, NanTensorHook --------------------------------------------------


def test_python_final_ops_hook_gets_the_jvm_values_as_the_java_twin():
    ops = {"step": "global_step:0", "counter": "counter:0", "loss": "loss:0"}
    hook = pyhooks.FinalOpsHook(ops)
    java_twin = JHook("FinalOpsHook")(java_map(ops))
    run_jvm([hook, java_twin], recipe_graph(), 3)
    got = hook.finalOpsValues()
    assert {k: (v.item(), v.dtype.name, v.shape) for k, v in got.items()} == {
        "step": (3, "int64", ()),
        "counter": (1.5, "float32", ()),
        "loss": (1.5, "float32", ()),
    }
    twin = {str(k): to_numpy(v) for k, v in java_twin.finalOpsValues().items()}
    assert {k: v.item() for k, v in twin.items()} == {k: v.item() for k, v in got.items()}


@pytest.mark.parametrize("kwargs,runs", [(dict(numSteps=3), 3), (dict(lastStep=4), 4)])
def test_python_stop_at_step_hook_stops_the_jvm_session_at_its_step(kwargs, runs):
    hook = pyhooks.StopAtStepHook(**kwargs)
    out = run_jvm([hook], recipe_graph(), 10)
    assert out == {"runs": runs, "stopped": True, "lastStep": runs}
    assert hook.lastStep() == runs


def test_python_nan_tensor_hook_error_crosses_the_jvm_driver_as_itself():
    steps = []
    recorder = pyhooks.FinalOpsHook("global_step:0")  # end() is not called after an error
    log = pyhooks.LoggingTensorHook(
        {"step": "global_step_read:0"}, everyNIter=1, formatter=lambda v: steps.append(int(v["step"])) or ""
    )
    with pytest.raises(pyhooks.NanLossDuringTrainingError, match=r"^NaN loss during training\.") as e:
        run_jvm([log, pyhooks.NanTensorHook("loss:0"), recorder], recipe_graph(nanLossAtStep=3), 10)
    assert steps == [0, 1, 2]  # the NaN run is the third (global step 2 before it)
    notes = "\n".join(e.value.__notes__)
    assert "at <python>.jhooks.hooks.nan_tensor.afterSessionRun(" in notes
    # on the JVM it was jhooks' Java twin (what a Java caller gets), caused by the Python original
    assert re.search(
        r"hook #2 \(.*\)\.afterSessionRun: raised org\.jhooks\.hooks\.NanLossDuringTrainingException", notes
    )
    assert recorder.finalOpsValues() is None


def test_python_nan_tensor_hook_without_fail_stops_the_jvm_session():
    out = run_jvm([pyhooks.NanTensorHook("loss:0", failOnNanLoss=False)], recipe_graph(nanLossAtStep=3), 10)
    assert out == {"runs": 3, "stopped": True, "lastStep": 3}


# --- a callback patched on the instance -----------------------------------------------------------


@pytest.mark.parametrize("when", ["before registration", "after registration"])
def test_a_python_hook_patched_with_the_wrong_signature_fails_at_its_first_call_on_the_jvm(when):
    hook = pyhooks.StopAtStepHook(numSteps=10)
    java_hook = as_java_hook(hook) if when == "after registration" else None
    hook.afterSessionRun = lambda runContext: None  # one parameter short
    with pytest.raises(jhooks.HookValidationError) as err:
        run_jvm([java_hook or hook], recipe_graph(), 3)
    # the message validate_hook gives the same signature on the class
    assert str(err.value) == (
        "jhooks.hooks.stop_at_step.StopAtStepHook.afterSessionRun has the wrong signature; "
        "expected afterSessionRun(self, runContext, runValues)"
    )


def test_a_python_hook_patched_before_registration_with_a_callback_its_class_lacks_is_called_on_the_jvm():
    seen = []

    class Plain(jhooks.Hook):
        pass

    hook = Plain()
    hook.afterSessionRun = lambda runContext, runValues: seen.append("after")
    assert run_jvm([hook], recipe_graph(), 3)["runs"] == 3
    assert seen == ["after"] * 3


# --- CheckpointSaverHook and AsyncCheckpointSaverHook without explicit variables ------------------


@pytest.mark.parametrize("cls", [pyhooks.CheckpointSaverHook, pyhooks.AsyncCheckpointSaverHook])
def test_python_saver_writes_every_variable_of_the_jvm_graph(tmp_path, cls):
    ckpt = str(tmp_path)
    hook = cls(ckpt, saveSteps=2)
    out = run_jvm([hook], recipe_graph(), 5)
    hook.close()
    assert out["runs"] == 5
    assert hook.savedSteps() == [0, 2, 4, 5]
    assert tf.train.latest_checkpoint(ckpt) == os.path.join(ckpt, "model.ckpt-5")
    assert [os.path.basename(p) for p in tf.train.get_checkpoint_state(ckpt).all_model_checkpoint_paths] == [
        f"model.ckpt-{s}" for s in (0, 2, 4, 5)
    ]
    for step in (0, 2, 4, 5):
        reader = tf.train.load_checkpoint(os.path.join(ckpt, f"model.ckpt-{step}"))
        assert reader.get_variable_to_dtype_map() == {"global_step": tf.int64, "counter": tf.float32}
        assert (reader.get_tensor("global_step"), reader.get_tensor("counter")) == (step, INCREMENT * step)


def saver(language, kind, checkpointDir):
    if language == "python":
        return getattr(pyhooks, kind)(checkpointDir, saveSteps=2)
    return JHook(kind).builder(checkpointDir).saveSteps(2).build()


@pytest.mark.parametrize("kind", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
@pytest.mark.parametrize("first", ["python", "java"])
def test_python_and_java_savers_write_the_jvm_graph_and_its_meta_graph_as_tensorflows_hook(tmp_path, first, kind):
    """TF's test_summary_writer_defs on the JVM driver, a Python and a Java saver in one session:
    each writes graph.pbtxt (the text GraphDef of the JVM graph, read back by TF's text format) and
    a graph_def event and a meta_graph_def event of it into its dir's event file. The first saver's
    graph has no saver yet; the synchronous saver's save builds tensorflow-java's (save/restore_all),
    so the second's meta graph holds that SaverDef, with which TF's import_meta_graph restores its
    checkpoint."""
    second = "java" if first == "python" else "python"
    hooks = [saver(first, kind, str(tmp_path / "first")), saver(second, kind, str(tmp_path / "second"))]
    assert run_jvm(hooks, recipe_graph(), 3)["runs"] == 3
    for h in hooks:
        h.close()
    metas = []
    for which in ("first", "second"):
        graph, events = graph_files(tmp_path / which)
        names = {n.name for n in graph.node}
        assert {"global_step", "counter", "counter_update", "loss", "train"} <= names, which
        assert [k for k, _ in events] == ["graph_def", "meta_graph_def"], which
        assert events[0][1] == graph and events[1][1].graph_def == graph, which
        assert events[1][1].meta_info_def.tensorflow_version == tf.__version__, which
        metas.append((names, events[1][1]))
    (firstNames, firstMeta), (secondNames, secondMeta) = metas
    assert "save/restore_all" not in firstNames and not firstMeta.HasField("saver_def")
    if kind == "AsyncCheckpointSaverHook":  # it writes from snapshot buffers: tensorflow-java's saver is never built
        assert "save/restore_all" not in secondNames and not secondMeta.HasField("saver_def")
        return
    assert "save/restore_all" in secondNames
    assert secondMeta.saver_def == tf.compat.v1.train.SaverDef(
        filename_tensor_name="save/filename:0",
        save_tensor_name="save/control_dependency",
        restore_op_name="save/restore_all",
    )
    with tf.Graph().as_default(), tf.compat.v1.Session() as s:
        tf.compat.v1.train.import_meta_graph(secondMeta).restore(
            s, tf.train.latest_checkpoint(str(tmp_path / "second"))
        )
        assert s.run(["global_step:0", "counter:0"]) == [3, 3 * INCREMENT]


# --- ProfilerHook ---------------------------------------------------------------------------------


def test_python_and_java_profiler_hooks_write_chrome_traces_of_jvm_runs(tmp_path):
    python = pyhooks.ProfilerHook(saveSteps=2, outputDir=str(tmp_path / "python"), showMemory=True)
    java = JHook("ProfilerHook")(Int(2), None, str(tmp_path / "java"), None, jpype.JBoolean(True))
    assert run_jvm([python, java], recipe_graph(), 5)["runs"] == 5
    for who in ("python", "java"):
        names = sorted(n for n in os.listdir(tmp_path / who) if not n.startswith("events.out.tfevents."))
        assert names == ["timeline-2.json", "timeline-4.json"], who
        # as TF's ProfilerHook: each traced run's RunMetadata in the event file, tagged step_N
        tagged = [
            e.tagged_run_metadata
            for f in os.listdir(tmp_path / who)
            if f.startswith("events.out.tfevents.")
            for e in tf.compat.v1.train.summary_iterator(str(tmp_path / who / f))
            if e.HasField("tagged_run_metadata")
        ]
        assert [t.tag for t in tagged] == ["step_2", "step_4"], who
        assert all(len(tf.compat.v1.RunMetadata.FromString(t.run_metadata).step_stats.dev_stats) > 0 for t in tagged)
        for name in names:
            with open(tmp_path / who / name, encoding="utf-8") as f:
                events = json.load(f)["traceEvents"]
            ops = {e["args"]["name"] for e in events if e["ph"] == "X"}
            assert any(n.startswith("global_step") for n in ops), (who, sorted(ops))
            assert any(e["ph"] == "C" for e in events)  # showMemory
    assert [os.path.basename(p) for p in python.writtenFiles()] == ["timeline-2.json", "timeline-4.json"]


# --- the global step warning ----------------------------------------------------------------------


def test_python_step_counter_warns_as_tensorflows_when_the_jvm_global_step_does_not_advance(caplog):
    graph, train = recipe_graph()
    hooks = [pyhooks.StepCounterHook(everyNSteps=100), pyhooks.StopAtStepHook(lastStep=100)]
    java_hooks = jpype.JClass("java.util.ArrayList")()
    for h in hooks:
        java_hooks.add(as_java_hook(h))
    with caplog.at_level(logging.WARNING):
        try:
            session = call_java(jpype.JClass("org.jhooks.tf.MonitoredSession").builder(graph).hooks(java_hooks).build)
            try:
                for i in range(10):
                    call_java(session.run, train if i < 2 else "counter_read:0")
            finally:
                call_java(session.close)
        finally:
            graph.close()
    messages = [(r.name, r.getMessage()) for r in caplog.records if "has not been increased" in r.getMessage()]
    # 8 runs without training; the step fetched with run 2 may be read before or after its increment
    # (a JVM VariableV2), so run 3 may not look stale yet: 7 or 8 stale runs, the first 5 warned, only by
    # the step counter (TF's StepCounterHook condition; StopAtStepHook never warns, as TF's)
    assert [name for name, _ in messages] == ["jhooks.hooks.step_counter"] * 5
    assert all("Current value (could be stable): 2 vs previous value: 2." in m for _, m in messages)
