"""StepCounterHook and SummarySaverHook: event files TensorBoard loads, same steps as TF's hooks."""

from __future__ import annotations

import logging
import os

import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, scoped_step_graph, train
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from jhooks.hooks import Scaffold, StepCounterHook, SummarySaverHook
from jhooks.hooks.event_writer import EventWriter
from jhooks.tf import to_tf_hooks


def load(logdir):
    ea = EventAccumulator(str(logdir))
    ea.Reload()
    return ea


def with_summaries():
    m = Model()
    tf.compat.v1.summary.scalar("train_loss", m.loss)
    tf.compat.v1.summary.histogram("w_hist", m.w)
    m.merged = tf.compat.v1.summary.merge_all()
    return m


@pytest.mark.parametrize("everyNSteps,runs", [(2, 9), (3, 10)])
def test_step_counter_writes_the_same_steps_as_tensorflow(tmp_path, everyNSteps, runs):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([tf.compat.v1.train.StepCounterHook(every_n_steps=everyNSteps, output_dir=str(tmp_path / "tf"))], m, runs)
        tf.compat.v1.summary.FileWriterCache.clear()  # TF's hook never flushes its cached writer
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = StepCounterHook(everyNSteps=everyNSteps, outputDir=str(tmp_path / "ours"))
        assert hook.lastRate() is None
        train([hook], m, runs)
    theirs = [e.step for e in load(tmp_path / "tf").Scalars("global_step/sec")]
    ours = load(tmp_path / "ours").Scalars("global_step/sec")
    assert [e.step for e in ours] == theirs and theirs
    assert all(e.value > 0 for e in ours) and hook.lastRate() == pytest.approx(ours[-1].value)


def test_step_counter_tags_its_summary_with_the_global_step_op_name_as_tensorflow(tmp_path, caplog):
    tags = {}
    for who in ("tf", "ours"):
        g = tf.Graph()
        with g.as_default():
            _, train_op = scoped_step_graph()
            if who == "tf":
                hook = tf.compat.v1.train.StepCounterHook(every_n_steps=1, output_dir=str(tmp_path / who))
            else:
                hook = to_tf_hooks([StepCounterHook(everyNSteps=1, outputDir=str(tmp_path / who))])[0]
            with caplog.at_level(logging.INFO), tf.compat.v1.train.MonitoredSession(hooks=[hook]) as sess:
                for _ in range(3):
                    sess.run(train_op)
            tf.compat.v1.summary.FileWriterCache.clear()
        tags[who] = load(tmp_path / who).Tags()["scalars"]
    assert tags["ours"] == tags["tf"] == ["bar/foo/sec"]
    lines = [r.getMessage() for r in caplog.records if r.name == "jhooks.hooks.step_counter"]
    assert lines and all(line.startswith("bar/foo/sec: ") for line in lines)


def test_step_counter_argument_errors():
    with pytest.raises(ValueError, match=r"^exactly one of every_n_steps and every_n_secs should be provided\.$"):
        StepCounterHook(everyNSteps=10, everyNSecs=1.0)
    with pytest.raises(ValueError, match=r"^exactly one of every_n_steps and every_n_secs should be provided\.$"):
        StepCounterHook(everyNSteps=None)


@pytest.mark.parametrize("saveSteps,runs", [(2, 7), (1, 3), (4, 9)])
def test_summary_saver_writes_the_same_events_as_tensorflow(tmp_path, saveSteps, runs):
    _, m = in_graph(with_summaries)
    with m.gs.graph.as_default():
        train(
            [
                tf.compat.v1.train.SummarySaverHook(
                    save_steps=saveSteps, output_dir=str(tmp_path / "tf"), summary_op=m.merged
                )
            ],
            m,
            runs,
        )
        tf.compat.v1.summary.FileWriterCache.clear()
    _, m = in_graph(with_summaries)
    with m.gs.graph.as_default():
        hook = SummarySaverHook(saveSteps=saveSteps, outputDir=str(tmp_path / "ours"), summaryOp=m.merged.name)
        train([hook], m, runs)
    theirs, ours = load(tmp_path / "tf"), load(tmp_path / "ours")
    assert [(e.step, e.value) for e in ours.Scalars("train_loss")] == [
        (e.step, e.value) for e in theirs.Scalars("train_loss")
    ]
    assert [e.step for e in ours.Histograms("w_hist")] == [e.step for e in theirs.Histograms("w_hist")]
    assert hook.writtenSteps() == [e.step for e in ours.Scalars("train_loss")]
    assert len(os.listdir(tmp_path / "ours")) == 1


def test_summary_saver_with_scaffold_and_own_writer_and_shared_dir(tmp_path):
    _, m = in_graph(with_summaries)
    with m.gs.graph.as_default():
        writer = EventWriter(str(tmp_path / "own"))
        own = SummarySaverHook(saveSteps=2, summaryWriter=writer, scaffold=Scaffold(summaryOp=[m.merged.name]))
        # a step counter and a summary saver on one directory share one event file
        shared = [
            StepCounterHook(everyNSteps=1, outputDir=str(tmp_path / "shared")),
            SummarySaverHook(saveSteps=1, outputDir=str(tmp_path / "shared"), summaryOp=m.merged.name),
        ]
        train([own] + shared, m, 4)
        writer.close()
    assert [e.step for e in load(tmp_path / "own").Scalars("train_loss")] == [1, 3]
    assert len(os.listdir(tmp_path / "shared")) == 1
    ea = load(tmp_path / "shared")
    assert [e.step for e in ea.Scalars("train_loss")] == [1, 2, 3, 4]
    assert [e.step for e in ea.Scalars("global_step/sec")] == [2, 3, 4]


def test_summary_saver_scalar_map_matches_serialized_summaries(tmp_path):
    """The language-neutral form {tag: scalar tensor} gives the same scalars as the summary op."""
    _, m = in_graph(with_summaries)
    with m.gs.graph.as_default():
        train(
            [
                SummarySaverHook(saveSteps=2, outputDir=str(tmp_path / "proto"), summaryOp=m.merged.name),
                SummarySaverHook(saveSteps=2, outputDir=str(tmp_path / "map"), summaryOp={"train_loss": "loss:0"}),
            ],
            m,
            6,
        )
    proto, plain = load(tmp_path / "proto").Scalars("train_loss"), load(tmp_path / "map").Scalars("train_loss")
    assert [(e.step, e.value) for e in plain] == [(e.step, e.value) for e in proto] and len(plain) == 3


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(saveSteps=1, outputDir="x"), "Exactly one of scaffold or summary_op must be provided."),
        (
            dict(saveSteps=1, outputDir="x", summaryOp="s:0", scaffold=Scaffold()),
            "Exactly one of scaffold or summary_op must be provided.",
        ),
        (dict(outputDir="x", summaryOp="s:0"), "Either every_secs or every_steps should be provided."),
        (
            dict(saveSteps=1, saveSecs=1, outputDir="x", summaryOp="s:0"),
            "Can not provide both every_secs and every_steps.",
        ),
        (dict(saveSteps=1, summaryOp="s:0"), "one of outputDir or summaryWriter must be given"),
    ],
)
def test_summary_saver_argument_errors(kwargs, message):
    with pytest.raises(ValueError) as e:
        SummarySaverHook(**kwargs)
    assert str(e.value) == message


@pytest.mark.parametrize("language", ["python", "java"])
def test_summary_saver_scalar_map_writes_unsigned_scalars_as_their_numbers(tmp_path, language):
    """A uint8 240 / uint16 48000 scalar is written as 240 / 48000 by both twins (the Java hook
    read the signed byte/short and wrote -16 / -17536)."""
    import jpype

    from jhooks.bridge import JavaHook
    from jhooks.bridge.process import jvm

    def build():
        m = Model()
        tf.constant(240, tf.uint8, name="u8")
        tf.constant(48000, tf.uint16, name="u16")
        return m

    tags = {"u8": "u8:0", "u16": "u16:0"}
    _, m = in_graph(build)
    with m.gs.graph.as_default():
        if language == "python":
            hook = SummarySaverHook(saveSteps=1, outputDir=str(tmp_path), summaryOp=tags)
        else:
            jvm.start()
            cls = jpype.JClass("org.jhooks.hooks.SummarySaverHook")
            hook = JavaHook(
                cls(
                    jpype.JInt(1),
                    None,
                    str(tmp_path),
                    None,
                    None,
                    jpype.JClass("java.util.Map").of(*sum(tags.items(), ())),
                )
            )
        train([hook], m, 2)
    events = load(tmp_path)
    assert {e.value for e in events.Scalars("u8")} == {240.0}
    assert {e.value for e in events.Scalars("u16")} == {48000.0}
