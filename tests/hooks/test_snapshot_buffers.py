"""AsyncCheckpointSaverHook's reused snapshot buffers (Python driver): the training thread copies
every variable into buffers of the training graph with one run, the writer thread writes them. The
checkpoints must be exact (every dtype, ref and resource variables, the files TF's Saver writes for
the same values), consistent (each variable at the labelled step while training goes on), refused
when the weights are NaN, and the buffers reused (no memory growth save after save)."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, read_checkpoint, train
from test_async_checkpoint_saver import GatedAsyncSaver, assert_consistent

from jhooks.hooks import AsyncCheckpointSaverHook, Saver
from jhooks.tf import session_view, to_tf_hooks


@pytest.fixture
def takes(monkeypatch):
    """Counts the real snapshot-buffer runs (the real method is called)."""
    calls = []
    real = session_view.TfSessionView.takeSnapshot

    def counted(self):
        step = real(self)
        calls.append(step)
        return step

    monkeypatch.setattr(session_view.TfSessionView, "takeSnapshot", counted)
    return calls


def test_the_async_saver_snapshots_into_the_buffers_and_each_checkpoint_holds_its_step(tmp_path, takes):
    _, m = in_graph(lambda: Model(size=4096))
    with m.gs.graph.as_default():
        hook = GatedAsyncSaver(str(tmp_path), saveSteps=2, maxToKeep=0)  # every write overlaps training
        train([hook], m, 9)
    assert takes == [0, 2, 4, 6, 8, 9] == hook.savedSteps()
    for step in hook.savedSteps():
        assert_consistent(str(tmp_path / f"model.ckpt-{step}"), step)


def test_explicit_variables_are_fetched_not_buffered(tmp_path, takes):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = AsyncCheckpointSaverHook(str(tmp_path), saveSteps=2, saver=Saver(variables=["big", "global_step"]))
        train([hook], m, 3)
    assert takes == []
    assert sorted(read_checkpoint(str(tmp_path / "model.ckpt-3"))) == ["big", "global_step"]


def _every_dtype_graph(use_resource: bool):
    graph = tf.Graph()
    with graph.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        initial = {
            "f32": np.arange(12, dtype=np.float32).reshape(3, 4) / 7,
            "f64": np.array([np.pi, -0.0, 1e300]),
            "f16": np.array([0.5, 65504.0], np.float16),
            "i32": np.array([-(2**31), 2**31 - 1], np.int32),
            "i64": np.int64(-(2**62)),
            "u8": np.array([[0, 255]], np.uint8),
            "flag": np.array([True, False]),
            "text": np.array([b"a", b"\x00\xff", b""], object),
        }
        variables = {
            k: tf.compat.v1.get_variable(k, initializer=v, use_resource=use_resource) for k, v in initial.items()
        }
        with tf.control_dependencies([step.assign_add(1)]):
            train_op = tf.group(
                variables["f32"].assign_add(tf.ones([3, 4])),
                variables["i64"].assign_add(1),
                variables["text"].assign(tf.strings.join([variables["text"], "x"])),
            )
    return graph, train_op


@pytest.mark.parametrize("use_resource", [True, False], ids=["resource", "ref"])
def test_every_dtype_is_written_exactly_as_tensorflows_saver_writes_it(tmp_path, takes, use_resource):
    graph, train_op = _every_dtype_graph(use_resource)
    with graph.as_default():
        hook = AsyncCheckpointSaverHook(str(tmp_path / "ours"), saveSteps=2)
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook])) as session:
            for _ in range(4):
                session.run(train_op)
            hook.waitForPendingSaves()
            theirs = saver.save(session._tf_sess(), str(tmp_path / "tf" / "model.ckpt"), global_step=4)
    assert takes == [0, 2, 4]
    ours, tf_values = read_checkpoint(str(tmp_path / "ours" / "model.ckpt-4")), read_checkpoint(theirs)
    assert sorted(ours) == sorted(tf_values)
    for key, value in tf_values.items():
        assert ours[key].dtype == value.dtype and ours[key].shape == value.shape, key
        np.testing.assert_array_equal(ours[key], value, err_msg=key)
    assert ours["text"].tolist() == [b"axxxx", b"\x00\xffxxxx", b"xxxx"]


def test_buffers_are_no_variables_of_the_graph(tmp_path):
    """No Saver, initializer or readiness check sees the buffers: TF's own Saver restores our
    checkpoints and the Scaffold's checks pass with buffers never assigned."""
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = AsyncCheckpointSaverHook(str(tmp_path), saveSteps=100)
        train([hook], m, 2)
        names = {v.op.name for v in tf.compat.v1.global_variables() + tf.compat.v1.local_variables()}
        assert not [n for n in names if "jhooks_snapshot" in n]
        assert [op for op in m.gs.graph.get_operations() if op.type == "VariableV2" and "jhooks_snapshot" in op.name]
    _, m2 = in_graph(Model)
    with m2.gs.graph.as_default():
        restored = train([], m2, 1, checkpointDir=str(tmp_path))
    assert restored["lastStep"] == 3


@pytest.mark.parametrize("nanFirst", [False, True])
def test_nan_weights_in_the_buffers_are_refused_on_the_writer_thread(tmp_path, caplog, takes, nanFirst):
    from jhooks.hooks import NanTensorHook

    _, m = in_graph(lambda: Model(nanAt=3, nanWeights=True))
    with m.gs.graph.as_default():
        hook = AsyncCheckpointSaverHook(str(tmp_path), saveSteps=2)
        nan = NanTensorHook("loss:0", failOnNanLoss=False)
        train([nan, hook] if nanFirst else [hook, nan], m, 6)
    assert 0 in takes and 2 in takes
    assert hook.savedSteps() == [0, 2]
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-2")
    assert np.isfinite(read_checkpoint(str(tmp_path / "model.ckpt-2"))["w"])


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_the_buffers_are_reused_save_after_save(tmp_path, takes):
    """Twenty saves of 64 MB of variables: the resident set grows by the one snapshot at the first
    save and not after (a fresh snapshot per save would add up to 64 MB a save until freed)."""
    elements = 16 * 2**20 // 4
    graph = tf.Graph()
    with graph.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        big = [tf.compat.v1.get_variable(f"big{i}", [elements], tf.float32, tf.zeros_initializer()) for i in range(4)]
        with tf.control_dependencies([v.assign_add(tf.ones([elements])) for v in big]):
            train_op = step.assign_add(1)
        hook = AsyncCheckpointSaverHook(str(tmp_path), saveSteps=1, maxToKeep=1)
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook])) as session:
            for _ in range(3):
                session.run(train_op)
            hook.waitForPendingSaves()
            before = _rss_mb()
            for _ in range(20):
                session.run(train_op)
            hook.waitForPendingSaves()
            grown = _rss_mb() - before
    assert len(takes) == 24
    values = read_checkpoint(tf.train.latest_checkpoint(str(tmp_path)))
    assert int(values["global_step"]) == 23 and np.all(values["big3"] == 23)
    assert grown < 48, f"the resident set grew by {grown:.0f} MB over 20 saves of 64 MB"


def test_a_java_async_saver_in_the_python_session_fetches_its_snapshot(tmp_path, takes):
    """The Java view of a Python session offers no buffers (TF's close would not wait for the Java
    writer): the Java saver fetches the values, and each checkpoint still holds its step."""
    import jpype

    from jhooks.bridge.hooks.java_hooks import JavaHook
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()
    _, m = in_graph(lambda: Model(size=4096))
    with m.gs.graph.as_default():
        saver = jpype.JClass("org.jhooks.hooks.AsyncCheckpointSaverHook").builder(str(tmp_path))
        saver = saver.saveSteps(jpype.JInt(2)).maxToKeep(jpype.JInt(0)).build()
        train([JavaHook(saver)], m, 5)
    assert takes == []
    assert [int(s) for s in saver.savedSteps()] == [0, 2, 4, 5]
    for step in (0, 2, 4, 5):
        assert_consistent(str(tmp_path / f"model.ckpt-{step}"), step)


class SlowWrites(AsyncCheckpointSaverHook):
    """Fault injection: each background write starts 0.5 s late."""

    def _writer(self):
        real = super()._writer()

        class Late:
            def nonFinite(self, snapshot):
                return real.nonFinite(snapshot)

            def writeSnapshot(self, prefix, snapshot):
                time.sleep(0.5)
                real.writeSnapshot(prefix, snapshot)

            def close(self):
                real.close()

        return Late()


def test_a_session_closed_by_an_error_waits_for_the_write_in_flight(tmp_path, takes):
    """TF's close joins the writer (registered with the coordinator) before closing the session
    the buffers live in: the checkpoint in flight when training fails is written."""

    class Fails(tf.compat.v1.train.SessionRunHook):
        def after_run(self, run_context, run_values):
            if run_context.session.run(m.gs) == 3:
                raise RuntimeError("training fails after step 3")

    _, m = in_graph(lambda: Model(size=4096))
    hook = SlowWrites(str(tmp_path), saveSteps=2, maxToKeep=0)
    with m.gs.graph.as_default():
        with pytest.raises(RuntimeError, match="training fails"):
            with tf.compat.v1.train.MonitoredSession(hooks=[*to_tf_hooks([hook]), Fails()]) as session:
                for _ in range(5):
                    session.run(m.train)
    hook.close()  # no failure is pending: the write of step 2 finished before the session closed
    assert takes == [0, 2] and hook.savedSteps() == [0, 2]
    assert_consistent(str(tmp_path / "model.ckpt-2"), 2)
