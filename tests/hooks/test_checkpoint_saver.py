"""CheckpointSaverHook (synchronous) under TF's MonitoredSession, against TF's own hook."""

from __future__ import annotations

import os

import numpy as np
import pytest
import tensorflow as tf
from hooks_support import (
    Model,
    RecordingListener,
    graph_files,
    in_graph,
    read_checkpoint,
    restore_with_v1_saver,
    train,
)

from jhooks.api.hook import Hook
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


def saver_hook(language, kind, checkpointDir, **kwargs):
    """The saver ``kind`` of ``language`` for TF's MonitoredSession (a Java one through JavaHook)."""
    if language == "python":
        import jhooks.hooks

        return getattr(jhooks.hooks, kind)(checkpointDir, **kwargs)
    from jhooks.bridge import JavaHook
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()
    return JavaHook("org.jhooks.hooks." + kind, checkpointDir=checkpointDir, **kwargs)


@pytest.mark.parametrize("kind", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
@pytest.mark.parametrize("language", ["python", "java"])
def test_graph_pbtxt_and_the_graph_events_as_tensorflows_summary_writer_defs(tmp_path, language, kind):
    """TF's test_summary_writer_defs, next to TF's own hook in the same session: at session creation
    the saver writes graph.pbtxt (the text GraphDef of the training graph) and a graph_def event and
    a meta_graph_def event (TF's create_meta_graph_def of that graph) into its dir's event file;
    the meta graph's saver_def is that of the saver that writes the checkpoints, so TF's
    import_meta_graph restores them."""
    g, m = in_graph(Model)
    with g.as_default():
        theirs = tf.compat.v1.train.CheckpointSaverHook(str(tmp_path / "tf"), save_steps=2)
        ours = saver_hook(language, kind, str(tmp_path / "ours"), saveSteps=2)
        train([theirs, ours], m, 3)
    tfGraph, tfEvents = graph_files(tmp_path / "tf")
    graph, events = graph_files(tmp_path / "ours")
    assert [k for k, _ in events] == ["graph_def", "meta_graph_def"]
    # TF's SummaryWriterCache makes its FileWriter with the graph, which writes both once more first
    assert [k for k, _ in tfEvents] == ["graph_def", "meta_graph_def"] * 2
    assert {"global_step", "w", "b", "count", "big", "loss", "train"} <= {n.name for n in graph.node}
    assert graph == tfGraph and events[0][1] == graph == tfEvents[2][1]
    meta, tfMeta = events[1][1], tfEvents[3][1]
    assert meta.graph_def == tfMeta.graph_def == graph
    assert meta.collection_def == tfMeta.collection_def
    assert meta.meta_info_def == tfMeta.meta_info_def
    assert meta.saver_def.restore_op_name in {n.name for n in graph.node}
    with tf.Graph().as_default(), tf.compat.v1.Session() as s:
        tf.compat.v1.train.import_meta_graph(meta).restore(s, latest_checkpoint(str(tmp_path / "ours")))
        restored = {v.op.name: v for v in tf.compat.v1.global_variables()}  # the meta graph's collections
        assert int(s.run(restored["global_step"])) == int(s.run(restored["count"])) == 3


def test_each_session_creation_writes_the_graph_again_and_a_view_without_a_graph_none(tmp_path):
    """As TF's hook, every after_create_session writes graph.pbtxt and appends the graph events (a
    second session, restored from the dir, too); a session view without graphDef gets neither."""
    for _ in range(2):
        g, m = in_graph(Model)
        with g.as_default():
            train([CheckpointSaverHook(str(tmp_path), saveSteps=2)], m, 1, checkpointDir=str(tmp_path))
    graph, events = graph_files(tmp_path)
    assert [k for k, _ in events] == ["graph_def", "meta_graph_def"] * 2
    assert events[2][1] == graph

    bare = tmp_path / "bare"
    g, m = in_graph(Model)
    with g.as_default():
        train([WithoutGraph(CheckpointSaverHook(str(bare), saveSteps=100))], m, 1)
    assert sorted(os.listdir(bare)) == ["checkpoint", *(f"model.ckpt-{s}{x}" for s in (0, 1) for x in (DATA, ".index"))]


DATA = ".data-00000-of-00001"


class NoGraph:
    """A session view of the protocol's required methods only: no graphDef / metaGraphDef."""

    def __init__(self, view):
        self.view = view

    def run(self, fetches, feeds=None, options=None):
        return self.view.run(fetches, feeds, options)

    def save(self, prefix):
        self.view.save(prefix)

    def restore(self, prefix):
        self.view.restore(prefix)

    def globalStepTensorName(self):
        return self.view.globalStepTensorName()

    def globalStep(self):
        return self.view.globalStep()


class WithoutGraph(Hook):
    """Runs ``hook`` with session views that have no graph (NoGraph)."""

    def __init__(self, hook):
        self.hook = hook

    def begin(self):
        self.hook.begin()

    def afterCreateSession(self, session, coord):
        self.hook.afterCreateSession(NoGraph(session), coord)

    def beforeSessionRun(self, runContext):
        return self.hook.beforeSessionRun(runContext)

    def afterSessionRun(self, runContext, runValues):
        self.hook.afterSessionRun(runContext, runValues)

    def end(self, session):
        self.hook.end(NoGraph(session))


@pytest.mark.parametrize("kind", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
@pytest.mark.parametrize("language", ["python", "java"])
def test_a_graph_pbtxt_that_cannot_be_written_is_an_error_naming_hook_callback_and_file(tmp_path, language, kind):
    """graph.pbtxt taken by a directory: the write fails; a HookError naming the hook,
    afterCreateSession and the file, the OSError as cause (Java: HookException), never swallowed;
    nothing is saved, no temporary left, the directory untouched."""
    from jhooks.api.errors import HookError

    (tmp_path / "graph.pbtxt").mkdir()
    (tmp_path / "graph.pbtxt" / "keep").write_text("mine")
    (tmp_path / "graph.pbtxt.tmp0stale").write_text("a killed write's")
    g, m = in_graph(Model)
    with g.as_default(), pytest.raises(HookError) as e:
        train([saver_hook(language, kind, str(tmp_path), saveSteps=2)], m, 3)
    assert str(e.value).startswith(f"{kind}.afterCreateSession: cannot write the graph to {tmp_path / 'graph.pbtxt'}")
    assert sorted(os.listdir(tmp_path)) == ["graph.pbtxt"]
    assert os.listdir(tmp_path / "graph.pbtxt") == ["keep"]
