"""TfSessionView checkpoints and the checkpoint state file, on disk, with real sessions."""

import os

import numpy as np
import tensorflow as tf
from tf_support import Counter, open_session

import jhooks
from jhooks.checkpoint import state as checkpoint_state


class Saving(jhooks.Hook):
    """Saves after step 1, then at end restores that checkpoint and reads v back."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.readings = {}

    def afterSessionRun(self, runContext, runValues):
        if int(runContext.originalArgs.feeds["x:0"]) == 1:
            s = runContext.session
            self.readings["saved"] = s.run({"v": "v:0", "gs": s.globalStepTensorName()})
            s.save(self.prefix)

    def end(self, session):
        self.readings["before_restore"] = session.run("v:0")
        session.restore(self.prefix)
        self.readings["restored"] = session.run(["v:0", "global_step:0"])


def test_save_restore_round_trip_and_state_file(graph, tmp_path):
    c = Counter()
    prefix = str(tmp_path / "ckpt" / "model.ckpt-2")
    hook = Saving(prefix)
    with open_session("monitored", [hook]) as sess:
        for i in range(4):
            c.step(sess, i)
    r = hook.readings
    assert float(r["saved"]["v"]) == 1.0 and int(r["saved"]["gs"]) == 2
    assert float(r["before_restore"]) == 6.0
    assert [float(r["restored"][0]), int(r["restored"][1])] == [1.0, 2]
    assert os.path.exists(prefix + ".index") and os.path.exists(prefix + ".data-00000-of-00001")
    assert not os.path.exists(tmp_path / "ckpt" / "checkpoint")  # save() leaves the state file alone
    reader = tf.train.load_checkpoint(prefix)
    assert reader.get_tensor("global_step") == 2 and reader.get_tensor("v") == np.float32(1.0)

    d = str(tmp_path / "ckpt")
    older = str(tmp_path / "ckpt" / "model.ckpt-1")
    elsewhere = str(tmp_path / "elsewhere" / "model.ckpt-0")
    names = [checkpoint_state.relative_name(d, p) for p in (elsewhere, older, prefix)]
    checkpoint_state.write_state(d, checkpoint_state.CheckpointState(names[-1], names))
    assert tf.train.latest_checkpoint(d) == prefix == checkpoint_state.latest_checkpoint(d)
    assert list(tf.train.get_checkpoint_state(d).all_model_checkpoint_paths) == [elsewhere, older, prefix]
    with open(os.path.join(d, "checkpoint")) as f:  # relative inside the dir, absolute outside it
        assert [line.split(": ")[1].strip() for line in f] == [
            '"model.ckpt-2"',
            f'"{elsewhere}"',
            '"model.ckpt-1"',
            '"model.ckpt-2"',
        ]
    assert [n for n in os.listdir(d) if ".tmp" in n] == []

    tf.compat.v1.train.update_checkpoint_state(d, prefix, all_model_checkpoint_paths=[elsewhere, prefix])
    assert checkpoint_state.all_checkpoints(d) == [elsewhere, prefix]  # TF's own file, with its timestamps


def test_global_step_name_without_a_global_step(graph):
    names = []

    class Peek(jhooks.Hook):
        def afterCreateSession(self, session, coord):
            names.append(session.globalStepTensorName())

    x = tf.compat.v1.placeholder_with_default(1.0, shape=(), name="x")
    with open_session("monitored", [Peek()]) as sess:
        sess.run(x)
    assert names == ["global_step:0"]


def test_training_session_with_its_own_checkpoint_saver_still_works(graph, tmp_path):
    """Our saver stays out of the SAVERS collection, so the Scaffold's default saver is built as usual."""
    c = Counter()
    d = str(tmp_path / "run")
    for _ in range(2):
        with open_session("training", [jhooks.Hook()], checkpoint_dir=d, save_checkpoint_steps=1) as sess:
            c.step(sess, 0)
    assert tf.train.load_checkpoint(tf.train.latest_checkpoint(d)).get_tensor("global_step") == 2


class StepReader(jhooks.Hook):
    """Reads the global step as a Java hook would: ``session.globalStep()``."""

    def __init__(self):
        self.steps = []

    def afterCreateSession(self, session, coord):
        self.steps.append(("created", session.globalStep()))

    def afterSessionRun(self, runContext, runValues):
        self.steps.append(("after", runContext.session.globalStep()))

    def end(self, session):
        self.steps.append(("end", session.globalStep()))


def test_views_read_the_global_step_like_javas_session(graph):
    c = Counter()
    hook = StepReader()
    with open_session("monitored", [hook]) as sess:
        for i in range(2):
            c.step(sess, i)
    assert hook.steps == [("created", 0), ("after", 1), ("after", 2), ("end", 2)]
    assert all(type(step) is int for _, step in hook.steps)
    assert isinstance(jhooks.tf.TfSessionView(None), jhooks.Session)
