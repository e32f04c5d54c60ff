"""Each Java standard hook (org.jhooks.hooks) inside TensorFlow's Python MonitoredSession.

The hooks cross with ``jhooks.bridge.JavaHook`` and run on the real tf.compat.v1 graph of
``hooks_support.Model`` through ``jhooks.tf.to_tf_hooks``; one JVM for the module (started with
the one-TF-runtime recipe, so TensorFlow and tensorflow-java share the process). Where TF or the
Python twin has the same hook, its output on the same graph and steps is the expectation.
"""

from __future__ import annotations

import logging
import os
import re

import jpype
import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, read_checkpoint, scoped_step_graph, train
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

import jhooks
from jhooks import hooks as pyhooks
from jhooks.bridge import JavaHook
from jhooks.bridge.convert.arrays import to_java, to_numpy
from jhooks.hooks import NanLossDuringTrainingError
from jhooks.tf import GraphNameError, to_tf_hooks

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


def J(name):
    return jpype.JClass("org.jhooks.hooks." + name)


def Int(n):
    return jpype.JClass("java.lang.Integer")(n)


def Long(n):
    return None if n is None else jpype.JClass("java.lang.Long")(n)


def java_map(items):
    m = jpype.JClass("java.util.LinkedHashMap")()
    for k, v in items.items():
        m.put(k, v)
    return m


def events(logdir):
    acc = EventAccumulator(str(logdir), size_guidance={"scalars": 0, "histograms": 0})
    acc.Reload()
    return acc


class Recorder(jhooks.Hook):
    """Fetches ``tensors`` with every run and keeps ``(run, {tag: value})``."""

    def __init__(self, tensors):
        self.tensors, self.seen = tensors, []

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs(dict(self.tensors))

    def afterSessionRun(self, runContext, runValues):
        self.seen.append({k: v.item() for k, v in runValues.results.items()})


# --- LoggingTensorHook ----------------------------------------------------------------------------


def parse_line(line):
    """``"loss = 1.5, step = 2 (0.001 sec)"`` -> ({"loss": 1.5, "step": 2.0}, has the elapsed part)."""
    body, timed = re.subn(r" \(\d+\.\d{3} sec\)$", "", line)
    return {k: float(v) for k, v in (part.split(" = ") for part in body.split(", "))}, bool(timed)


def test_java_logging_tensor_hook_logs_the_python_twins_values_to_python_logging(caplog):
    tensors = {"step": "global_step:0", "loss": "loss:0"}
    _, m = in_graph(Model)
    java = J("LoggingTensorHook")(java_map(tensors), Int(2), None, True, None)
    twin = pyhooks.LoggingTensorHook(tensors, everyNIter=2, atEnd=True)
    with m.gs.graph.as_default(), caplog.at_level(logging.INFO):
        train([JavaHook(java), twin], m, 5)
    java_records = [r for r in caplog.records if r.name.startswith("org.jhooks")]
    python_records = [r for r in caplog.records if r.name == "jhooks.hooks.logging_tensor"]
    java_lines = [parse_line(r.getMessage()) for r in java_records]
    python_lines = [parse_line(r.getMessage()) for r in python_records]
    assert {(r.levelname, r.name) for r in java_records} == {("INFO", "org.jhooks.hooks.LoggingTensorHook")}
    # runs 0, 2, 4 (global step before each run's increment), then atEnd after 5 steps; as TF, every
    # line but the first carries the seconds since the previous one
    assert [(v["step"], timed) for v, timed in java_lines] == [(0, False), (2, True), (4, True), (5, True)]
    assert java_lines == python_lines
    # the same text too (float32 digits in both languages), but for the measured seconds
    assert [re.sub(r" \(.*sec\)$", "", r.getMessage()) for r in java_records] == [
        re.sub(r" \(.*sec\)$", "", r.getMessage()) for r in python_records
    ]
    assert len(set(v["loss"] for v, _ in java_lines)) == 4  # the loss changes as w, b train
    assert [str(s) for s in java.loggedLines()] == [r.getMessage() for r in java_records]


# --- StepCounterHook and SummarySaverHook: event files ---------------------------------------------


def test_java_step_counter_writes_global_step_per_sec_at_tensorflows_steps(tmp_path):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([tf.compat.v1.train.StepCounterHook(every_n_steps=2, output_dir=str(tmp_path / "tf"))], m, 7)
        tf.compat.v1.summary.FileWriterCache.clear()
    _, m = in_graph(Model)
    java = J("StepCounterHook")(Int(2), None, str(tmp_path / "java"), None)
    with m.gs.graph.as_default():
        train([JavaHook(java)], m, 7)
    theirs = [e.step for e in events(tmp_path / "tf").Scalars("global_step/sec")]
    ours = events(tmp_path / "java").Scalars("global_step/sec")
    assert [e.step for e in ours] == theirs == [3, 5, 7]
    assert all(e.value > 0 for e in ours)
    assert float(java.lastRate()) == pytest.approx(ours[-1].value)


def test_java_step_counter_tags_its_summary_with_the_global_step_op_name(tmp_path):
    g = tf.Graph()
    with g.as_default():
        _, train_op = scoped_step_graph()
        java = J("StepCounterHook")(Int(1), None, str(tmp_path), None)
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([JavaHook(java)])) as sess:
            for _ in range(3):
                sess.run(train_op)
    assert events(tmp_path).Tags()["scalars"] == ["bar/foo/sec"]  # TF's tag (TF's test_global_step_name)


def with_summaries():
    m = Model()
    m.scalar = tf.compat.v1.summary.scalar("train_loss", m.loss)
    # of the fed-by-default x: w read in the training run races with its update; a histogram proto
    # ends in NUL bytes (an empty last bucket)
    tf.compat.v1.summary.histogram("x_hist", m.x)
    m.merged = tf.compat.v1.summary.merge_all()
    return m


def run_tf_summary_saver(logdir, saveSteps, runs):
    _, m = in_graph(with_summaries)
    with m.gs.graph.as_default():
        train(
            [tf.compat.v1.train.SummarySaverHook(save_steps=saveSteps, output_dir=str(logdir), summary_op=m.merged)],
            m,
            runs,
        )
        tf.compat.v1.summary.FileWriterCache.clear()
    return events(logdir)


def test_java_summary_saver_scalar_map_matches_tensorflows_summaries(tmp_path):
    theirs = run_tf_summary_saver(tmp_path / "tf", 2, 7).Scalars("train_loss")
    _, m = in_graph(Model)
    java = J("SummarySaverHook")(Int(2), None, str(tmp_path / "java"), None, None, java_map({"train_loss": "loss:0"}))
    with m.gs.graph.as_default():
        train([JavaHook(java)], m, 7)
    ours = events(tmp_path / "java").Scalars("train_loss")
    assert [(e.step, e.value) for e in ours] == [(e.step, e.value) for e in theirs]
    assert [e.step for e in ours] == [1, 3, 5, 7] and [int(s) for s in java.writtenSteps()] == [1, 3, 5, 7]


def test_java_summary_saver_writes_tensorflows_serialized_summaries(tmp_path):
    theirs = run_tf_summary_saver(tmp_path / "tf", 2, 7)
    _, m = in_graph(with_summaries)
    java = J("SummarySaverHook")(Int(2), None, str(tmp_path / "java"), None, None, m.merged.name)
    with m.gs.graph.as_default():
        train([JavaHook(java)], m, 7)
    ours = events(tmp_path / "java")
    assert [(e.step, e.value) for e in ours.Scalars("train_loss")] == [
        (e.step, e.value) for e in theirs.Scalars("train_loss")
    ]
    assert [(e.step, e.histogram_value) for e in ours.Histograms("x_hist")] == [
        (e.step, e.histogram_value) for e in theirs.Histograms("x_hist")
    ]
    assert [e.step for e in ours.Histograms("x_hist")] == [1, 3, 5, 7]


# --- FeedFnHook -----------------------------------------------------------------------------------


def final_values(m):
    return tf.compat.v1.train.FinalOpsHook({"w": m.w.value(), "b": m.b.value()})


def test_java_feed_fn_hook_feeds_the_placeholder_that_trains_the_model():
    batches = [np.full([4], k, np.float32) for k in (1.0, 2.0, 0.5, 3.0)]

    def reference(feed):
        _, m = in_graph(Model)
        with m.gs.graph.as_default():
            final = final_values(m)
            train([final], m, len(batches), feed=(lambda i: {m.x: batches[i]}) if feed else None)
        return final.final_ops_values

    calls = []

    def supplier():
        calls.append(len(calls))
        return java_map({"x:0": to_java(batches[len(calls) - 1])})

    _, m = in_graph(Model)
    java = J("FeedFnHook")(jpype.JProxy("java.util.function.Supplier", dict={"get": supplier}))
    with m.gs.graph.as_default():
        final = final_values(m)
        train([JavaHook(java), final], m, len(batches))
    assert calls == [0, 1, 2, 3]
    assert final.final_ops_values == reference(feed=True)
    assert final.final_ops_values != reference(feed=False)


def test_a_java_hook_feeding_bools_into_a_float_tensor_is_refused_by_the_python_driver():
    # TF's session would feed them as 1.0/0.0; the contract (and the JVM driver) refuse a non-number
    supplier = jpype.JProxy(
        "java.util.function.Supplier", dict={"get": lambda: java_map({"x:0": to_java(np.ones([4], bool))})}
    )
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        with pytest.raises(GraphNameError) as err:
            train([JavaHook(J("FeedFnHook")(supplier))], m, 1)
    assert "FeedFnHook" in str(err.value) and err.value.callback == "beforeSessionRun"
    assert err.value.name == "x:0" and str(err.value).endswith(
        "cannot be fed a value of shape (4,) (bool) as float32: only numbers convert to other number types"
    )


# --- ProgressBarHook ------------------------------------------------------------------------------


def test_java_progress_bar_prints_its_lines_to_its_stream_up_to_the_last_step():
    out = jpype.JClass("java.io.ByteArrayOutputStream")()
    stream = jpype.JClass("java.io.PrintStream")(out, True, "UTF-8")
    _, m = in_graph(Model)
    java = J("ProgressBarHook")(Long(6), java_map({"loss": "loss:0"}), Int(2), stream)
    losses = Recorder({"loss": "loss:0"})
    with m.gs.graph.as_default():
        train([losses, JavaHook(java)], m, 6)
    text = str(out.toString("UTF-8"))
    lines = text.splitlines()
    assert "\r" not in text and all(
        re.fullmatch(r"\d/6 steps \(\d+%\), [\d.]+ s, [\d.]+ step/s, loss=\S+", line) for line in lines
    ), text
    # the first run is sampled: the global step re-read after it is 1 (16 %, a line), with its loss
    assert lines[0].startswith("1/6 steps (16%), ")
    assert float(re.search(r", loss=(\S+)$", lines[0]).group(1)) == pytest.approx(losses.seen[0]["loss"])
    assert lines[-1].startswith("6/6 steps (100%), ")
    assert java.position() == 6


# --- FinalOpsHook, StopAtStepHook, NanTensorHook -------------------------------------------------


def test_java_final_ops_hook_gets_the_values_of_the_python_twin():
    ops = {"step": "global_step:0", "loss": "loss:0", "big": "big:0"}
    _, m = in_graph(Model)
    java = J("FinalOpsHook")(java_map(ops))
    twin = pyhooks.FinalOpsHook(ops)
    with m.gs.graph.as_default():
        train([JavaHook(java), twin], m, 3)
    got = {str(k): to_numpy(v) for k, v in java.finalOpsValues().items()}
    want = twin.finalOpsValues()
    assert got["step"] == 3 and got["step"].dtype == np.int64
    np.testing.assert_array_equal(got["big"], np.full([16], 3.0, np.float32))
    for k in ops:
        np.testing.assert_array_equal(got[k], want[k])
        assert got[k].dtype == want[k].dtype


@pytest.mark.parametrize("numSteps,lastStep,runs", [(3, None, 3), (None, 4, 4)])
def test_java_stop_at_step_hook_stops_at_its_step(numSteps, lastStep, runs):
    _, m = in_graph(Model)
    java = J("StopAtStepHook")(Long(numSteps), Long(lastStep))
    final = pyhooks.FinalOpsHook("global_step:0")
    with m.gs.graph.as_default():
        out = train([JavaHook(java), final], m, 10)
    assert (out["runs"], out["stopped"], int(final.finalOpsValues())) == (runs, True, runs)
    assert int(java.lastStep()) == runs


def test_java_nan_tensor_hook_raises_the_python_twin_of_its_java_error_into_the_python_driver():
    # The Python caller gets jhooks' Python error, the Java original as __cause__ (docs/bridge.md)
    _, m = in_graph(lambda: Model(nanAt=3))
    runs = Recorder({"step": "global_step:0"})
    with m.gs.graph.as_default(), pytest.raises(NanLossDuringTrainingError) as e:
        train([runs, JavaHook(J("NanTensorHook")("loss:0"))], m, 10)
    message = "NaN loss during training. (NanTensorHook.afterSessionRun: loss:0 is NaN at global step 4)"
    assert str(e.value) == message
    assert e.value.globalStep == 4
    java = e.value.__cause__
    assert str(java.getClass().getName()) == "org.jhooks.hooks.NanLossDuringTrainingException"
    assert str(java.getMessage()) == message
    assert any("at org.jhooks.hooks.NanTensorHook.afterSessionRun" in n for n in e.value.__notes__)
    assert [r["step"] for r in runs.seen] == [0, 1, 2, 3]


def test_java_nan_tensor_hook_without_fail_requests_a_stop():
    _, m = in_graph(lambda: Model(nanAt=3))
    with m.gs.graph.as_default():
        out = train([JavaHook(J("NanTensorHook")("loss:0", False))], m, 10)
    assert (out["runs"], out["stopped"]) == (4, True)


# --- CheckpointSaverHook and AsyncCheckpointSaverHook without explicit variables ------------------


@pytest.mark.parametrize("kind", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
def test_java_saver_writes_every_variable_of_the_python_graph(tmp_path, kind):
    ckpt = str(tmp_path)
    _, m = in_graph(Model)
    java = J(kind).builder(ckpt).saveSteps(2).build()
    with m.gs.graph.as_default():
        out = train([JavaHook(java)], m, 5)
    java.close()
    assert out["runs"] == 5
    assert [int(s) for s in java.savedSteps()] == [0, 2, 4, 5]
    assert tf.train.latest_checkpoint(ckpt) == os.path.join(ckpt, "model.ckpt-5")
    state = tf.train.get_checkpoint_state(ckpt)
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [f"model.ckpt-{s}" for s in (0, 2, 4, 5)]
    for step in (0, 2, 4, 5):
        values = read_checkpoint(os.path.join(ckpt, f"model.ckpt-{step}"))
        assert sorted(values) == ["b", "big", "count", "global_step", "w"]
        assert (values["global_step"], values["count"]) == (step, step)
        np.testing.assert_array_equal(values["big"], np.full([16], float(step), np.float32))
    assert read_checkpoint(os.path.join(ckpt, "model.ckpt-0"))["w"] == np.float32(0.5)
    assert read_checkpoint(os.path.join(ckpt, "model.ckpt-5"))["w"] != np.float32(0.5)
