"""No poisoned checkpoints: once a NanTensorHook sees a NaN loss, no saver of the session writes
that step or a later one (the timer's save in the same run, the final save in end), whatever the
order of the hooks, under TensorFlow's MonitoredSession with real checkpoints on disk; Java hooks
through the bridge share the same CheckpointGuard. TensorFlow's own hooks write the NaN weights
(the deliberate difference, checked last)."""

from __future__ import annotations

import glob
import logging
import os

import jpype
import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, monitored, read_checkpoint

from jhooks.api.checkpoint_guard import CheckpointGuard
from jhooks.bridge import JavaHook
from jhooks.checkpoint.state import latest_checkpoint
from jhooks.hooks import (
    AsyncCheckpointSaverHook,
    CheckpointSaverHook,
    NanLossDuringTrainingError,
    NanTensorHook,
    Saver,
)

pytestmark = pytest.mark.timeout(180)

NAN_AT = 3  # the run starting at global step 3 has a NaN loss; its update makes step 4 NaN
POISONED = NAN_AT + 1


def train_until_nan(hooks, model, ckpt, maxRuns=10):
    """Runs until stop, NaN error or maxRuns; returns (runs, outcome)."""
    runs = 0
    try:
        with monitored(hooks, ckpt) as sess:
            while runs < maxRuns and not sess.should_stop():
                sess.run(model.train)
                runs += 1
        return runs, "stopped"
    except NanLossDuringTrainingError:
        return runs, "nan"


def steps_on_disk(ckpt):
    return sorted(int(p.rsplit("-", 1)[1].split(".")[0]) for p in glob.glob(os.path.join(ckpt, "model.ckpt-*.index")))


def assert_no_poison(ckpt, lastFinite):
    assert steps_on_disk(ckpt)[-1] == lastFinite
    assert not glob.glob(os.path.join(ckpt, f"model.ckpt-{POISONED}*"))
    latest = latest_checkpoint(ckpt)
    assert latest == os.path.join(os.path.abspath(ckpt), f"model.ckpt-{lastFinite}")
    for step in steps_on_disk(ckpt):
        values = read_checkpoint(os.path.join(ckpt, f"model.ckpt-{step}"))
        assert np.isfinite(values["w"]) and np.isfinite(values["b"]), step
        assert int(values["global_step"]) == step


def warnings_about(caplog, step):
    return [r.getMessage() for r in caplog.records if f"not saving the checkpoint of step {step}" in r.getMessage()]


@pytest.mark.parametrize("saverClass", [CheckpointSaverHook, AsyncCheckpointSaverHook])
@pytest.mark.parametrize("nanFirst", [True, False], ids=["nan-hook-first", "saver-first"])
@pytest.mark.parametrize("failOnNanLoss", [True, False], ids=["raise", "stop"])
def test_timer_save_of_the_nan_step_is_not_written(tmp_path, caplog, saverClass, nanFirst, failOnNanLoss):
    caplog.set_level(logging.WARNING)
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(lambda: Model(nanAt=NAN_AT, nanWeights=True))
    with m.gs.graph.as_default():
        saver = saverClass(ckpt, saveSteps=1)
        nan = NanTensorHook("loss:0", failOnNanLoss=failOnNanLoss)
        runs, outcome = train_until_nan([nan, saver] if nanFirst else [saver, nan], m, ckpt)
        saver.close()  # after an error (no end()), waits for the write in flight (docs/standard-hooks.md)
    assert (runs, outcome) == ((NAN_AT, "nan") if failOnNanLoss else (POISONED, "stopped"))
    assert_no_poison(ckpt, NAN_AT)
    # a saver after a raising NanTensorHook never gets the run's afterSessionRun: nothing to refuse
    attempted = not (failOnNanLoss and nanFirst)
    assert bool(warnings_about(caplog, POISONED)) == attempted, [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("saverClass", [CheckpointSaverHook, AsyncCheckpointSaverHook])
@pytest.mark.parametrize("nanFirst", [True, False], ids=["nan-hook-first", "saver-first"])
def test_final_save_in_end_is_not_written(tmp_path, caplog, saverClass, nanFirst):
    caplog.set_level(logging.WARNING)
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(lambda: Model(nanAt=NAN_AT, nanWeights=True))
    with m.gs.graph.as_default():
        saver = saverClass(ckpt, saveSteps=100)
        nan = NanTensorHook("loss:0", failOnNanLoss=False)
        runs, outcome = train_until_nan([nan, saver] if nanFirst else [saver, nan], m, ckpt)
    assert (runs, outcome) == (POISONED, "stopped")
    assert steps_on_disk(ckpt) == [0]
    assert_no_poison(ckpt, 0)
    assert any("(end)" in w for w in warnings_about(caplog, POISONED))
    assert saver.savedSteps() == [0]


def test_without_a_nan_hook_no_nan_weights_are_saved_either(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(lambda: Model(nanAt=NAN_AT, nanWeights=True))
    with m.gs.graph.as_default():
        runs, outcome = train_until_nan([CheckpointSaverHook(ckpt, saveSteps=1)], m, ckpt, maxRuns=5)
    assert (runs, outcome) == (5, "stopped")
    assert steps_on_disk(ckpt)[-4:] == [0, 1, 2, 3]  # the saver checks what it saves, NaN hook or not
    assert_no_poison(ckpt, NAN_AT)
    assert warnings_about(caplog, POISONED) and warnings_about(caplog, POISONED + 1)


def test_guard_is_per_raw_session_and_shared_by_every_view():
    from jhooks.tf.session_view import TfSessionView

    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0, name="c")
    with tf.compat.v1.Session(graph=g) as a, tf.compat.v1.Session(graph=g) as b:
        guard = CheckpointGuard.of(TfSessionView(a))
        assert CheckpointGuard.of(TfSessionView(a)) is guard
        assert CheckpointGuard.of(TfSessionView(b)) is not guard
        guard.watchLoss("loss:0")
        guard.watchLoss("loss:0")
        guard.reportNanLoss(7, "loss:0")
        guard.reportNanLoss(9, "other:0")
        guard.reportNanLoss(5, "loss:0")
        assert guard.watchedLosses() == ["loss:0"]
        assert (guard.nanStep(), guard.nanLoss()) == (5, "loss:0")
        assert guard.allowsSave(4) and not guard.allowsSave(5) and not guard.allowsSave(6)
        assert CheckpointGuard.of(TfSessionView(b)).allowsSave(10**9)


# --- across the bridge: Java hooks in the Python session ------------------------------------------


@pytest.fixture(scope="module")
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


def java_saver(kind, ckpt, saveSteps):
    cls = jpype.JClass(f"org.jhooks.hooks.{kind}")
    return JavaHook(cls.builder(ckpt).saveSteps(jpype.JInt(saveSteps)).build())


def java_nan(failOnNanLoss):
    return JavaHook(jpype.JClass("org.jhooks.hooks.NanTensorHook")("loss:0", failOnNanLoss))


@pytest.mark.parametrize("kind", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
@pytest.mark.parametrize("nanFirst", [True, False], ids=["nan-hook-first", "saver-first"])
def test_java_saver_and_python_nan_hook(jvm, tmp_path, kind, nanFirst):
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(lambda: Model(nanAt=NAN_AT, nanWeights=True))
    with m.gs.graph.as_default():
        saver = java_saver(kind, ckpt, 1)
        nan = NanTensorHook("loss:0", failOnNanLoss=False)
        runs, outcome = train_until_nan([nan, saver] if nanFirst else [saver, nan], m, ckpt)
    assert (runs, outcome) == (POISONED, "stopped")
    assert_no_poison(ckpt, NAN_AT)


@pytest.mark.parametrize("saverClass", [CheckpointSaverHook, AsyncCheckpointSaverHook])
@pytest.mark.parametrize("nanFirst", [True, False], ids=["nan-hook-first", "saver-first"])
def test_python_saver_and_java_nan_hook(jvm, tmp_path, saverClass, nanFirst):
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(lambda: Model(nanAt=NAN_AT, nanWeights=True))
    with m.gs.graph.as_default():
        saver = saverClass(ckpt, saveSteps=100)
        nan = java_nan(False)
        runs, outcome = train_until_nan([nan, saver] if nanFirst else [saver, nan], m, ckpt)
    assert (runs, outcome) == (POISONED, "stopped")
    assert steps_on_disk(ckpt) == [0]  # the final save of step 4 in end() was refused
    assert_no_poison(ckpt, 0)


# --- the deliberate difference -------------------------------------------------------------------


def test_tensorflows_own_saver_writes_the_nan_weights(tmp_path):
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(lambda: Model(nanAt=NAN_AT, nanWeights=True))
    with m.gs.graph.as_default():
        hooks = [
            tf.compat.v1.train.NanTensorHook(m.loss, fail_on_nan_loss=False),
            tf.compat.v1.train.CheckpointSaverHook(ckpt, save_steps=1),
        ]
        with tf.compat.v1.train.MonitoredSession(
            session_creator=tf.compat.v1.train.ChiefSessionCreator(checkpoint_dir=ckpt), hooks=hooks
        ) as sess:
            while not sess.should_stop():
                sess.run(m.train)
    latest = tf.train.latest_checkpoint(ckpt)
    assert latest.endswith(f"model.ckpt-{POISONED}")
    assert not np.isfinite(read_checkpoint(latest)["w"])


# --- weights that turn NaN one run before the loss does (issue 30) -------------------------------


class NanWeightsFirst:
    """A real graph whose run starting at global step NAN_AT has a finite loss and a NaN gradient:
    the loss adds the norm of ``w - stop_gradient(w) + c``, with ``c`` 1 before NAN_AT and 0 from
    then on; the norm of the zero vector is 0, its gradient 0/0. So step POISONED holds NaN weights
    while the loss of the run that made it was finite; the next run's loss is NaN."""

    def __init__(self) -> None:
        self.gs = tf.compat.v1.train.get_or_create_global_step()
        self.w = tf.compat.v1.get_variable("w", initializer=np.ones([3], np.float32))
        self.count = tf.compat.v1.get_variable("count", initializer=np.int64(0))
        c = tf.cast(self.gs < NAN_AT, tf.float32)
        d = self.w - tf.stop_gradient(self.w) + c
        self.loss = tf.identity(tf.reduce_sum(tf.square(self.w - 2.0)) + tf.norm(d), name="loss")
        step = tf.compat.v1.train.GradientDescentOptimizer(0.01).minimize(self.loss)
        with tf.control_dependencies([step, self.gs._graph_element]):
            inc = self.gs.assign_add(1)
        with tf.control_dependencies([inc]):
            self.train = tf.group(self.count.assign_add(1), name="train")


def assert_latest_finite(ckpt, lastFinite):
    steps = steps_on_disk(ckpt)
    assert steps[-1] == lastFinite, steps
    assert latest_checkpoint(ckpt) == os.path.join(os.path.abspath(ckpt), f"model.ckpt-{lastFinite}")
    for step in steps:
        values = read_checkpoint(os.path.join(ckpt, f"model.ckpt-{step}"))
        assert np.isfinite(values["w"]).all(), (step, values["w"])
        assert int(values["global_step"]) == step


def run_nan_weights_first(ckpt, hooks, maxRuns=8):
    _, m = in_graph(NanWeightsFirst)
    with m.gs.graph.as_default():
        runs, outcome = train_until_nan(hooks(), m, ckpt, maxRuns=maxRuns)
    return runs, outcome


@pytest.mark.parametrize("saverClass", [CheckpointSaverHook, AsyncCheckpointSaverHook])
@pytest.mark.parametrize("nanFirst", [True, False], ids=["nan-hook-first", "saver-first"])
@pytest.mark.parametrize("explicit", [False, True], ids=["all-variables", "saver-variables"])
def test_weights_nan_one_run_before_the_loss_are_not_saved(tmp_path, caplog, saverClass, nanFirst, explicit):
    caplog.set_level(logging.WARNING)
    ckpt = str(tmp_path / "ckpt")
    savers = []

    def hooks():
        if explicit:
            saver = saverClass(ckpt, saveSteps=1, saver=Saver(["w", "global_step", "count"], maxToKeep=None))
        else:
            saver = saverClass(ckpt, saveSteps=1, maxToKeep=None)
        savers.append(saver)
        nan = NanTensorHook("loss:0", failOnNanLoss=False)
        return [nan, saver] if nanFirst else [saver, nan]

    runs, outcome = run_nan_weights_first(ckpt, hooks)
    assert (runs, outcome) == (POISONED + 1, "stopped")  # the loss turns NaN in the run after the weights
    assert_latest_finite(ckpt, NAN_AT)
    assert savers[0].savedSteps() == list(range(NAN_AT + 1))
    refused = warnings_about(caplog, POISONED)
    assert refused and "variables w hold NaN or infinity" in refused[0], refused


@pytest.mark.parametrize("kind", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
@pytest.mark.parametrize("nanFirst", [True, False], ids=["nan-hook-first", "saver-first"])
def test_java_saver_refuses_weights_nan_before_the_loss(jvm, tmp_path, kind, nanFirst):
    ckpt = str(tmp_path / "ckpt")

    def hooks():
        saver = java_saver(kind, ckpt, 1)
        nan = NanTensorHook("loss:0", failOnNanLoss=False)
        return [nan, saver] if nanFirst else [saver, nan]

    runs, outcome = run_nan_weights_first(ckpt, hooks)
    assert (runs, outcome) == (POISONED + 1, "stopped")
    assert_latest_finite(ckpt, NAN_AT)


def test_tensorflows_own_saver_writes_weights_nan_before_the_loss(tmp_path):
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(NanWeightsFirst)
    with m.gs.graph.as_default():
        hooks = [
            tf.compat.v1.train.NanTensorHook(m.loss, fail_on_nan_loss=False),
            tf.compat.v1.train.CheckpointSaverHook(ckpt, save_steps=1),
        ]
        with tf.compat.v1.train.MonitoredSession(
            session_creator=tf.compat.v1.train.ChiefSessionCreator(checkpoint_dir=ckpt), hooks=hooks
        ) as sess:
            for _ in range(POISONED):
                sess.run(m.train)
    latest = tf.train.latest_checkpoint(ckpt)
    assert latest.endswith(f"model.ckpt-{POISONED}")
    assert not np.isfinite(read_checkpoint(latest)["w"]).any()
