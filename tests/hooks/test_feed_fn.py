"""FeedFnHook under TF's MonitoredSession, against TF's own FeedFnHook."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, monitored

from jhooks.hooks import FeedFnHook


def feeds():
    calls = iter(range(100))
    return lambda: np.full([4], float(next(calls)), np.float32)


def test_same_training_as_tensorflow():
    results = []
    for who in ("tf", "ours"):
        _, m = in_graph(Model)
        with m.gs.graph.as_default():
            nextX = feeds()
            hook = (
                tf.compat.v1.train.FeedFnHook(lambda: {m.x: nextX()})
                if who == "tf"
                else FeedFnHook(lambda: {"x:0": nextX()})
            )
            with monitored([hook]) as sess:
                losses = [float(sess.run([m.train, m.loss])[1]) for _ in range(4)]
                results.append((losses, float(sess.run(m.w))))
    assert results[0] == results[1]
    assert results[1][0][0] == pytest.approx(30.0)  # x = 0: loss = mean(y^2)


def test_conflict_with_the_caller_feed_is_named():
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        # TF's own merger (the Python driver) reports it before jhooks could: TF's RuntimeError
        with pytest.raises(RuntimeError, match="fed by a SessionRunHook and user.*x:0"):
            with monitored([FeedFnHook(lambda: {"x:0": np.ones([4], np.float32)})]) as sess:
                sess.run(m.train, feed_dict={m.x: np.ones([4], np.float32)})


def test_feed_fn_must_be_callable():
    with pytest.raises(ValueError):
        FeedFnHook({"x:0": 1.0})
