"""AsyncCheckpointSaverHook under TF's MonitoredSession: schedule, consistency, overlap, failures."""

from __future__ import annotations

import logging
import os
import shutil
import threading

import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, RecordingListener, in_graph, read_checkpoint, restore_with_v1_saver, train

import jhooks
from jhooks.api.errors import HookError
from jhooks.checkpoint import all_checkpoints, latest_checkpoint
from jhooks.hooks import AsyncCheckpointSaverHook, CheckpointSaveError, Saver


class GatedAsyncSaver(AsyncCheckpointSaverHook):
    """Fault injection: each background write is held until the training thread waits for it
    (the next due save, or end), so every save overlaps the previous write, deterministically;
    ``failAt`` makes the write of that step raise."""

    def __init__(self, *args, failAt=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.trainingWaits = threading.Event()
        self.failAt = failAt
        self.writesStarted = []

    def _awaitIdle(self):
        self.trainingWaits.set()
        super()._awaitIdle()

    def _writer(self):
        real = super()._writer()
        hook = self

        class Held:
            def nonFinite(self, values):
                return real.nonFinite(values)

            def writeSnapshot(self, prefix, values):
                step = int(prefix.rsplit("-", 1)[1])
                hook.writesStarted.append(step)
                assert hook.trainingWaits.wait(timeout=60), "training thread never waited"
                hook.trainingWaits.clear()
                if step == hook.failAt:
                    raise OSError(f"injected write failure for {prefix}")
                real.writeSnapshot(prefix, values)

            def close(self):
                real.close()

        return Held()


def steps_on_disk(d):
    return sorted(int(f[len("model.ckpt-") : -len(".index")]) for f in os.listdir(d) if f.endswith(".index"))


def assert_consistent(prefix, step):
    values = read_checkpoint(prefix)
    assert int(values["global_step"]) == int(values["count"]) == step, prefix
    np.testing.assert_array_equal(values["big"], np.full(values["big"].shape, float(step), np.float32))


@pytest.mark.parametrize("saveSteps,runs", [(3, 10), (1, 5)])
def test_same_save_steps_and_final_values_as_tensorflow_sync_hook(tmp_path, saveSteps, runs):
    tfSteps = []

    class TfListener(tf.compat.v1.train.CheckpointSaverListener):
        def after_save(self, session, step):
            tfSteps.append(int(step))

    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train(
            [
                tf.compat.v1.train.CheckpointSaverHook(
                    str(tmp_path / "tf"), save_steps=saveSteps, listeners=[TfListener()]
                )
            ],
            m,
            runs,
        )
    _, m2 = in_graph(Model)
    with m2.gs.graph.as_default():
        hook = AsyncCheckpointSaverHook(str(tmp_path / "ours"), saveSteps=saveSteps, maxToKeep=0)
        train([hook], m2, runs)
    assert hook.savedSteps() == tfSteps
    assert steps_on_disk(tmp_path / "ours") == sorted(set(tfSteps))
    a = read_checkpoint(tf.train.latest_checkpoint(str(tmp_path / "ours")))
    b = read_checkpoint(tf.train.latest_checkpoint(str(tmp_path / "tf")))
    assert sorted(a) == sorted(b)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_each_checkpoint_holds_the_values_of_its_step_while_training_goes_on(tmp_path):
    _, m = in_graph(lambda: Model(size=4096))
    with m.gs.graph.as_default():
        hook = GatedAsyncSaver(str(tmp_path), saveSteps=2, maxToKeep=0)
        train([hook], m, 9)
    assert hook.savedSteps() == [0, 2, 4, 6, 8, 9]
    for step in hook.savedSteps():
        assert_consistent(str(tmp_path / f"model.ckpt-{step}"), step)
    restored = restore_with_v1_saver(tf.train.latest_checkpoint(str(tmp_path)), size=4096)
    assert restored["global_step"] == restored["count"] == 9


def test_overlapping_saves_wait_are_counted_and_logged(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger="jhooks.hooks")
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = GatedAsyncSaver(str(tmp_path), saveSteps=1, maxToKeep=0)
        train([hook], m, 4)
    assert hook.savedSteps() == [0, 1, 2, 3, 4]  # nothing skipped
    assert hook.overlapCount() == 4  # saves 1..4 each waited for the previous write
    waited = [r.getMessage() for r in caplog.records if "waited" in r.getMessage()]
    assert [w.split(" waited")[0] for w in waited] == [
        f"AsyncCheckpointSaverHook: save for step {s}" for s in (1, 2, 3, 4)
    ]
    assert [w.split("for the save of step ")[1] for w in waited] == [f"{s - 1} (overlap #{s})" for s in (1, 2, 3, 4)]


def test_after_save_runs_on_the_training_thread_after_files_and_state_are_on_disk(tmp_path):
    seen = []

    def check(session, step):
        prefix = str(tmp_path / f"model.ckpt-{step}")
        seen.append(
            (
                step,
                os.path.exists(prefix + ".index"),
                latest_checkpoint(str(tmp_path)) is not None,
                prefix in all_checkpoints(str(tmp_path)),
            )
        )

    log = []
    listener = RecordingListener(log, onAfterSave=check)
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = GatedAsyncSaver(str(tmp_path), saveSteps=2, maxToKeep=0, listeners=[listener])
        train([hook], m, 5)
    assert log == [
        "begin",
        "beforeSave(0)",
        "afterSave(0)",
        "beforeSave(2)",
        "afterSave(2)",
        "beforeSave(4)",
        "afterSave(4)",
        "beforeSave(5)",
        "afterSave(5)",
        "end(5)",
    ]
    assert seen == [(s, True, True, True) for s in (0, 2, 4, 5)]
    assert set(listener.threads) == {threading.main_thread().name}


def test_listener_stop_request_is_honoured(tmp_path):
    log = []
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = AsyncCheckpointSaverHook(str(tmp_path), saveSteps=1, listeners=[RecordingListener(log, stopAfter=2)])
        out = train([hook], m, 100)
    # afterSave(2) is delivered during run 3 at the latest (the save of step 3 waits for write 2)
    assert out["stopped"] and out["runs"] == 3
    assert log[-1] == "end(3)"


def test_background_write_failure_reaches_the_training_thread(tmp_path):
    _, m = in_graph(Model)
    runs = []
    with m.gs.graph.as_default():
        hook = GatedAsyncSaver(str(tmp_path), saveSteps=2, failAt=2, maxToKeep=0)
        with pytest.raises(CheckpointSaveError) as e:
            with tf.compat.v1.train.MonitoredSession(hooks=__import__("jhooks.tf").tf.to_tf_hooks([hook])) as sess:
                for i in range(10):
                    sess.run(m.train)
                    runs.append(i)
    assert isinstance(e.value, HookError)
    assert e.value.globalStep == 2 and e.value.prefix == str(tmp_path / "model.ckpt-2")
    assert isinstance(e.value.__cause__, OSError)
    assert str(e.value).startswith("AsyncCheckpointSaverHook.")
    assert "checkpoint save of global step 2 to " in str(e.value) and "injected write failure" in str(e.value)
    assert len(runs) < 10
    assert hook.savedSteps() == [0]
    assert latest_checkpoint(str(tmp_path)) == str(tmp_path / "model.ckpt-0")
    hook.close()  # nothing pending any more: the failure was raised once


def test_real_io_failure_checkpoint_dir_replaced_by_a_file(tmp_path):
    ckpt = tmp_path / "ckpt"

    def sabotage(session, step):
        if step == 0:  # after the first checkpoint: the directory becomes a plain file
            shutil.rmtree(ckpt)
            ckpt.write_text("not a directory")

    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = AsyncCheckpointSaverHook(str(ckpt), saveSteps=1, listeners=[RecordingListener([], onAfterSave=sabotage)])
        with pytest.raises(CheckpointSaveError) as e:
            train([hook], m, 20)
    assert e.value.globalStep >= 1
    assert isinstance(e.value.__cause__, (tf.errors.OpError, OSError))


def test_failure_in_the_final_save_is_raised_by_end(tmp_path):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = GatedAsyncSaver(str(tmp_path), saveSteps=100, failAt=3)
        with pytest.raises(CheckpointSaveError) as e:
            train([hook], m, 3)
    assert e.value.callback == "end" and e.value.globalStep == 3


def test_wait_for_pending_saves_and_explicit_variables(tmp_path):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = AsyncCheckpointSaverHook(str(tmp_path), saveSteps=1, saver=Saver(["count", "global_step"], maxToKeep=2))
        with tf.compat.v1.train.MonitoredSession(hooks=__import__("jhooks.tf").tf.to_tf_hooks([hook])) as sess:
            for _ in range(3):
                sess.run(m.train)
            hook.waitForPendingSaves()
            assert hook.savedSteps() == [0, 1, 2, 3]
            assert latest_checkpoint(str(tmp_path)) == str(tmp_path / "model.ckpt-3")
    assert sorted(read_checkpoint(str(tmp_path / "model.ckpt-3"))) == ["count", "global_step"]
    assert [os.path.basename(p) for p in all_checkpoints(str(tmp_path))] == [
        "model.ckpt-2",
        "model.ckpt-3",
    ]


def test_view_without_saveable_variables_is_named(tmp_path):
    class BareView(jhooks.Session):  # a view that inherits globalStep() but lists no variables
        def __init__(self, inner):
            self.inner = inner

        def run(self, fetches, feeds=None, options=None):
            return self.inner.run(fetches, feeds, options)

        def globalStepTensorName(self):
            return self.inner.globalStepTensorName()

    class Wrap(AsyncCheckpointSaverHook):
        def afterCreateSession(self, session, coord):
            super().afterCreateSession(BareView(session), coord)

    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        with pytest.raises(NotImplementedError, match="this session view cannot list its variables"):
            train([Wrap(str(tmp_path), saveSteps=1)], m, 1)


def test_saveable_variables_are_what_session_save_writes(tmp_path):
    class Capture(AsyncCheckpointSaverHook):
        def afterCreateSession(self, session, coord):
            self.listed = session.saveableVariables()
            session.save(str(tmp_path / "by-save"))
            super().afterCreateSession(session, coord)

    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = Capture(str(tmp_path / "async"), saveSteps=10)
        train([hook], m, 1)
    assert (
        sorted(hook.listed)
        == sorted(read_checkpoint(str(tmp_path / "by-save")))
        == ["b", "big", "count", "global_step", "w"]
    )
    assert hook.listed["w"] == "w/Read/ReadVariableOp:0"
    a, b = read_checkpoint(str(tmp_path / "by-save")), read_checkpoint(str(tmp_path / "async" / "model.ckpt-0"))
    assert sorted(a) == sorted(b)
    for key in a:
        assert a[key].dtype == b[key].dtype and a[key].shape == b[key].shape, key
