"""NanTensorHook under TF's MonitoredSession, against TF's own NanTensorHook."""

from __future__ import annotations

import logging

import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, monitored

from jhooks.hooks import NanLossDuringTrainingError, NanTensorHook


def run(makeHook, failOnNanLoss):
    """(runs completed, outcome) with a loss that is NaN from global step 3 on."""
    _, m = in_graph(lambda: Model(nanAt=3))
    with m.gs.graph.as_default():
        hook = makeHook(m, failOnNanLoss)
        runs = 0
        try:
            with monitored([hook]) as sess:
                while not sess.should_stop() and runs < 20:
                    sess.run(m.train)
                    runs += 1
            return runs, "stopped"
        except (NanLossDuringTrainingError, tf.compat.v1.train.NanLossDuringTrainingError) as e:
            return runs, str(e)


@pytest.mark.parametrize("failOnNanLoss", [True, False])
def test_same_stop_step_as_tensorflow(failOnNanLoss, caplog):
    caplog.set_level(logging.WARNING)
    ours = run(lambda m, f: NanTensorHook("loss:0", failOnNanLoss=f), failOnNanLoss)
    oursLogged = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "jhooks.hooks.nan_tensor"]
    theirs = run(lambda m, f: tf.compat.v1.train.NanTensorHook(m.loss, fail_on_nan_loss=f), failOnNanLoss)
    assert ours == theirs
    if failOnNanLoss:
        assert ours == (3, "NaN loss during training.")
        assert oursLogged == [("ERROR", "Model diverged with loss = NaN.")]
    else:
        assert ours == (4, "stopped")
        assert oursLogged == [("WARNING", "Model diverged with loss = NaN.")]


def test_no_nan_no_effect():
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        with monitored([NanTensorHook("loss:0")]) as sess:
            for _ in range(3):
                sess.run(m.train)
            assert not sess.should_stop()
