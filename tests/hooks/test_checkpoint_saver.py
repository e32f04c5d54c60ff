"""CheckpointSaverHook (synchronous) under TF's MonitoredSession, against TF's own hook."""

from __future__ import annotations

import os

import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, RecordingListener, in_graph, read_checkpoint, restore_with_v1_saver, train

from jhooks.checkpoint import all_checkpoints, latest_checkpoint
from jhooks.hooks import CheckpointSaverHook, Saver, Scaffold


class TfStepListener(tf.compat.v1.train.CheckpointSaverListener):
    def __init__(self, log):
        self.log = log

    def before_save(self, session, global_step_value):
        self.log.append(f"beforeSave({global_step_value})")

    def after_save(self, session, global_step_value):
        self.log.append(f"afterSave({global_step_value})")


def steps_of(checkpointDir):
    return [int(p.rsplit("-", 1)[1]) for p in all_checkpoints(checkpointDir)]


@pytest.mark.parametrize("saveSteps,runs", [(3, 10), (1, 4), (5, 5)])
def test_same_save_steps_and_values_as_tensorflow(tmp_path, saveSteps, runs):
    tfLog, ourLog = [], []
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        tfHook = tf.compat.v1.train.CheckpointSaverHook(
            str(tmp_path / "tf"), save_steps=saveSteps, listeners=[TfStepListener(tfLog)]
        )
        train([tfHook], m, runs)
    _, m2 = in_graph(Model)
    with m2.gs.graph.as_default():
        hook = CheckpointSaverHook(
            str(tmp_path / "ours"), saveSteps=saveSteps, maxToKeep=0, listeners=[RecordingListener(ourLog)]
        )
        train([hook], m2, runs)
    assert ourLog[1:-1] == tfLog  # begin / end(...) are ours only (TF's listener ignores them)
    assert ourLog[0] == "begin" and ourLog[-1] == f"end({runs})"
    assert hook.savedSteps() == [int(e[len("afterSave(") : -1]) for e in tfLog if e.startswith("afterSave")]
    ours = latest_checkpoint(str(tmp_path / "ours"))
    theirs = tf.train.latest_checkpoint(str(tmp_path / "tf"))
    assert os.path.basename(ours) == os.path.basename(theirs) == f"model.ckpt-{runs}"
    a, b = read_checkpoint(ours), read_checkpoint(theirs)
    assert sorted(a) == sorted(b)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_checkpoints_are_read_by_tensorflow(tmp_path):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([CheckpointSaverHook(str(tmp_path), saveSteps=2)], m, 5)
    latest = tf.train.latest_checkpoint(str(tmp_path))
    assert latest == str(tmp_path / "model.ckpt-5")
    restored = restore_with_v1_saver(latest)
    assert restored["global_step"] == restored["count"] == 5
    np.testing.assert_array_equal(restored["big"], np.full([16], 5.0, np.float32))
    # and a new monitored session resumes from it
    _, m2 = in_graph(Model)
    log = []
    with m2.gs.graph.as_default():
        hook = CheckpointSaverHook(str(tmp_path), saveSteps=2, listeners=[RecordingListener(log)])
        out = train([hook], m2, 3, checkpointDir=str(tmp_path))
    assert out["lastStep"] == 8
    # restored from model.ckpt-5: not saved again after session creation (TF would rewrite it)
    assert hook.savedSteps() == [7, 8]
    assert log == ["begin", "beforeSave(7)", "afterSave(7)", "beforeSave(8)", "afterSave(8)", "end(8)"]


def test_max_to_keep_rotates_files_and_state(tmp_path):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = CheckpointSaverHook(str(tmp_path), saveSteps=1, maxToKeep=2)
        train([hook], m, 5)
    assert hook.savedSteps() == [0, 1, 2, 3, 4, 5]
    assert steps_of(str(tmp_path)) == [4, 5]
    assert sorted(f for f in os.listdir(tmp_path) if f.endswith(".index")) == [
        "model.ckpt-4.index",
        "model.ckpt-5.index",
    ]
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == ["model.ckpt-4", "model.ckpt-5"]
    assert not [f for f in os.listdir(tmp_path) if f.startswith("checkpoint.tmp")]


def test_rotation_continues_after_restart(tmp_path):
    for _ in range(2):
        _, m = in_graph(Model)
        with m.gs.graph.as_default():
            train([CheckpointSaverHook(str(tmp_path), saveSteps=2, maxToKeep=3)], m, 4, checkpointDir=str(tmp_path))
    assert steps_of(str(tmp_path)) == [4, 6, 8]
    assert len([f for f in os.listdir(tmp_path) if f.endswith(".index")]) == 3


def test_listener_stop_request_is_honoured(tmp_path):
    log = []
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = CheckpointSaverHook(str(tmp_path), saveSteps=2, listeners=[RecordingListener(log, stopAfter=4)])
        out = train([hook], m, 100)
    assert out == {"runs": 4, "stopped": True, "lastStep": None}
    assert log == [
        "begin",
        "beforeSave(0)",
        "afterSave(0)",
        "beforeSave(2)",
        "afterSave(2)",
        "beforeSave(4)",
        "afterSave(4)",
        "end(4)",
    ]


def test_listener_stop_at_session_creation_is_honoured(tmp_path):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        out = train(
            [CheckpointSaverHook(str(tmp_path), saveSteps=2, listeners=[RecordingListener([], stopAfter=0)])], m, 100
        )
    assert out["runs"] == 0 and out["stopped"]


def test_explicit_variables_are_snapshotted(tmp_path):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        saver = Saver(variables={"count": "count:0", "global_step": "global_step:0"}, maxToKeep=0)
        hook = CheckpointSaverHook(str(tmp_path), saveSteps=3, scaffold=Scaffold(saver=saver))
        train([hook], m, 4)
    values = read_checkpoint(str(tmp_path / "model.ckpt-3"))
    assert sorted(values) == ["count", "global_step"]
    assert int(values["count"]) == int(values["global_step"]) == 3


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(saveSteps=1, saveSecs=1.0), "Can not provide both every_secs and every_steps."),
        (dict(), "Either every_secs or every_steps should be provided."),
        (dict(saveSteps=0), "saveSteps must be positive, got 0"),
        (dict(saveSecs=-1), "saveSecs must be positive, got -1"),
        (dict(saveSteps=1, saver=Saver(), scaffold=Scaffold()), "You cannot provide both saver and scaffold."),
        (dict(saveSteps=1, saver=Saver(), maxToKeep=2), "You cannot provide both saver and maxToKeep."),
        (dict(saveSteps=1, maxToKeep=-1), "maxToKeep must be >= 0, got -1"),
    ],
)
def test_argument_errors(tmp_path, kwargs, message):
    with pytest.raises(ValueError) as e:
        CheckpointSaverHook(str(tmp_path), **kwargs)
    assert str(e.value) == message


def test_checkpoint_dir_must_be_given():
    with pytest.raises(ValueError, match="^checkpointDir must be given$"):
        CheckpointSaverHook("", saveSteps=1)


@pytest.mark.parametrize("hookClass", ["sync", "async"])
def test_save_secs_saves_at_creation_and_end_when_the_timer_does_not_fire(tmp_path, hookClass):
    from jhooks.hooks import AsyncCheckpointSaverHook

    cls = CheckpointSaverHook if hookClass == "sync" else AsyncCheckpointSaverHook
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = cls(str(tmp_path), saveSecs=3600)
        train([hook], m, 4)
    assert hook.savedSteps() == [0, 4]


@pytest.mark.parametrize("hookClass", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
def test_a_checkpoint_dir_that_is_a_file_fails_in_begin_naming_hook_and_dir(tmp_path, hookClass):
    import jhooks.hooks
    from jhooks.api.errors import HookError

    path = tmp_path / "afile"
    path.write_text("not a dir")
    log = []
    hook = getattr(jhooks.hooks, hookClass)(str(path), saveSteps=1, listeners=[RecordingListener(log)])
    _, m = in_graph(Model)
    with m.gs.graph.as_default(), pytest.raises(HookError) as err:
        train([hook], m, 2)
    assert (
        str(err.value)
        == f"{hookClass}.begin: cannot create checkpointDir {str(path)!r}: it exists and is not a directory"
    )
    assert isinstance(err.value.__cause__, FileExistsError)
    assert log == [] and path.read_text() == "not a dir"
