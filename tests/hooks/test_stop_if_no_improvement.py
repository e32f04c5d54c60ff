"""StopIfNoImprovementHook under TF's MonitoredSession, against Keras' EarlyStopping on the same values."""

from __future__ import annotations

import logging
import math

import numpy as np
import pytest
from hooks_support import Model, in_graph, monitored

from jhooks.hooks import StopIfNoImprovementHook


def train_on(hook, metric, maxRuns=None):
    """Trains feeding ``x`` so that ``xsum:0`` (the metric) is metric[i] in run i; returns the runs made."""
    _, m = in_graph(Model)
    runs = 0
    with m.gs.graph.as_default(), monitored([hook]) as sess:
        while not sess.should_stop() and runs < (maxRuns or len(metric)):
            sess.run(m.train, feed_dict={m.x: np.full([4], metric[runs] / 4, np.float32)})
            runs += 1
    return runs


def keras_stop_epoch(metric, mode, patience, minDelta):
    """The 1-based epoch after which Keras' EarlyStopping stops on ``metric``, or None."""
    from keras.callbacks import EarlyStopping

    class FakeModel:
        stop_training = False

    cb = EarlyStopping(monitor="m", mode=mode, patience=patience, min_delta=minDelta)
    model = FakeModel()
    cb.set_model(model)
    cb.on_train_begin()
    for epoch, value in enumerate(metric):
        cb.on_epoch_end(epoch, {"m": value})
        if model.stop_training:
            return epoch + 1
    return None


SEQUENCES = [
    ("min", 1, 0.0, [5.0, 4.0, 4.0, 3.0, 2.0, 2.0]),
    ("min", 2, 0.0, [5.0, 4.0, 4.0, 3.0, 3.5, 3.2, 1.0, 7.0]),
    ("min", 2, 0.5, [5.0, 4.8, 4.4, 4.0, 3.9, 3.8, 3.7]),
    ("max", 3, 0.0, [1.0, 2.0, 2.0, 1.0, 3.0, 3.0, 3.0, 3.0, 9.0]),
    ("max", 1, 1.0, [0.0, 2.0, 2.5, 3.5, 4.0]),
    ("min", 2, 0.0, [1.0, math.nan, math.nan, 0.5]),
    ("max", 4, 0.0, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
]


@pytest.mark.parametrize("mode,patience,minDelta,metric", SEQUENCES)
def test_stops_after_the_same_evaluation_as_keras_early_stopping(mode, patience, minDelta, metric):
    hook = StopIfNoImprovementHook("xsum:0", mode=mode, patience=patience, minDelta=minDelta)
    runs = train_on(hook, metric)
    expected = keras_stop_epoch(metric, mode, patience, minDelta)
    assert runs == (expected if expected is not None else len(metric))


def test_best_value_step_and_log_line(caplog):
    hook = StopIfNoImprovementHook("xsum:0", mode="min", patience=2)
    with caplog.at_level(logging.INFO, logger="jhooks.hooks.stop_if_no_improvement"):
        assert train_on(hook, [8.0, 4.0, 6.0, 5.0, 1.0]) == 4
    assert hook.best() == 4.0 and hook.bestStep() == 2 and hook.evaluationsWithoutImprovement() == 2
    assert caplog.messages == [
        "Requesting early stopping at global step 4: xsum:0 did not improve for 2 evaluations "
        "(best 4.0 at global step 2)."
    ]


def test_evaluates_every_n_global_steps():
    # evaluations at global steps 1, 4, 7: 10 (best), 9 (improves), 9 (no): stop after run 7
    hook = StopIfNoImprovementHook("xsum:0", patience=1, everyNSteps=3)
    assert train_on(hook, [10.0, 0.0, 0.0, 9.0, 0.0, 0.0, 9.0, 0.0, 0.0, 0.0]) == 7
    assert hook.bestStep() == 4


def test_a_metric_that_is_no_scalar_is_an_error_naming_it():
    _, m = in_graph(Model)
    hook = StopIfNoImprovementHook("x:0")
    with pytest.raises(Exception) as e:
        with m.gs.graph.as_default(), monitored([hook]) as sess:
            sess.run(m.train)
    assert "x:0" in str(e.value) and "numeric scalar" in str(e.value)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(mode="down"), "StopIfNoImprovementHook: mode must be 'min' or 'max', got 'down'"),
        (dict(patience=0), "StopIfNoImprovementHook: patience must be >= 1, got 0"),
        (dict(minDelta=-1.0), "StopIfNoImprovementHook: minDelta must be >= 0, got -1.0"),
        (dict(everyNSteps=0), "StopIfNoImprovementHook: everyNSteps must be >= 1, got 0"),
        # were a bare TypeError ("'<' not supported ...") naming neither the hook nor the value
        (dict(patience="3"), "StopIfNoImprovementHook: patience must be >= 1, got '3'"),
        (dict(minDelta="x"), "StopIfNoImprovementHook: minDelta must be >= 0, got 'x'"),
        (dict(minDelta=float("nan")), "StopIfNoImprovementHook: minDelta must be >= 0, got nan"),
        # were truncated silently to 1 (the Java twin's Integer cannot hold them)
        (dict(patience=1.5), "StopIfNoImprovementHook: patience must be >= 1, got 1.5"),
        (dict(everyNSteps=2.5), "StopIfNoImprovementHook: everyNSteps must be >= 1, got 2.5"),
        (dict(patience=True), "StopIfNoImprovementHook: patience must be >= 1, got True"),
        (dict(metric=None), "StopIfNoImprovementHook: metric must be a tensor name (str), got None"),
    ],
)
def test_argument_errors(kwargs, message):
    with pytest.raises(ValueError) as e:
        StopIfNoImprovementHook(**{"metric": "loss:0", **kwargs})
    assert str(e.value) == message


def test_none_means_the_default_as_the_java_twins_null():
    """Java's ``new StopIfNoImprovementHook("loss:0", null, null, null, null)`` is the defaults;
    Python's None arguments were a bare TypeError."""
    hook = StopIfNoImprovementHook("loss:0", mode=None, patience=None, minDelta=None, everyNSteps=None)
    assert (hook._mode, hook._patience, hook._minDelta) == ("min", 1, 0.0)
    assert StopIfNoImprovementHook("loss:0", patience=np.int64(3))._patience == 3
