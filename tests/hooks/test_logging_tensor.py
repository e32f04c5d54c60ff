"""LoggingTensorHook under TF's MonitoredSession, against TF's own LoggingTensorHook."""

from __future__ import annotations

import logging
import re

import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, monitored

from jhooks.hooks import LoggingTensorHook


def logged_lines(caplog, loggerName):
    return [r.getMessage() for r in caplog.records if r.name == loggerName and " = " in r.getMessage()]


def feed(m, i):
    """Logged values are fed ones: a variable read in the training run races with its update."""
    return {m.x: np.full([4], float(i), np.float32)}


def without_secs(lines):
    return [re.sub(r" \(\d+\.\d{3} sec\)$", "", line) for line in lines]


@pytest.mark.parametrize(
    "kwargs", [dict(everyNIter=2), dict(everyNIter=1, atEnd=True), dict(atEnd=True), dict(everyNIter=3)]
)
def test_same_lines_as_tensorflow(caplog, kwargs):
    caplog.set_level(logging.INFO)
    tfArgs = {{"everyNIter": "every_n_iter", "atEnd": "at_end"}[k]: v for k, v in kwargs.items()}
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        with monitored([tf.compat.v1.train.LoggingTensorHook({"sum": m.xsum, "x": m.x}, **tfArgs)]) as s:
            for i in range(5):
                s.run(m.train, feed_dict=feed(m, i))
    theirs = logged_lines(caplog, "tensorflow")
    caplog.clear()
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        # dict tags are logged sorted, as TF does
        with monitored([LoggingTensorHook({"x": "x:0", "sum": "xsum:0"}, **kwargs)]) as s:
            for i in range(5):
                s.run(m.train, feed_dict=feed(m, i))
    ours = logged_lines(caplog, "jhooks.hooks.logging_tensor")
    assert without_secs(ours) == without_secs(theirs)
    if "everyNIter" in kwargs:
        assert ours[0] == "sum = 0.0, x = [0. 0. 0. 0.]"
    else:  # at end: a raw run, x takes its default (ones)
        assert ours == ["sum = 4.0, x = [1. 1. 1. 1.]"]
    timed = [bool(re.search(r" \(\d+\.\d{3} sec\)$", line)) for line in ours]
    if "everyNIter" in kwargs:  # every periodic line but the first carries the seconds since the previous
        periodic = timed[:-1] if kwargs.get("atEnd") else timed
        assert periodic == [False] + [True] * (len(periodic) - 1)


def test_float32_digits_and_the_timed_end_line_as_tensorflow(caplog):
    """TF prints a float32 loss with float32 digits ("%s") and times its at-end line too."""
    caplog.set_level(logging.INFO)
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        with monitored([tf.compat.v1.train.LoggingTensorHook({"loss": m.loss}, every_n_iter=2, at_end=True)]) as s:
            for _ in range(5):
                s.run(m.train)
    theirs = logged_lines(caplog, "tensorflow")
    caplog.clear()
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        with monitored([LoggingTensorHook({"loss": "loss:0"}, everyNIter=2, atEnd=True)]) as s:
            for _ in range(5):
                s.run(m.train)
    ours = logged_lines(caplog, "jhooks.hooks.logging_tensor")
    assert without_secs(ours) == without_secs(theirs) and len(ours) == 4
    assert ours[1].startswith("loss = 22.199265 (")
    assert [line != without_secs([line])[0] for line in ours] == [False, True, True, True]


def test_list_of_names_and_formatter(caplog):
    caplog.set_level(logging.INFO)
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hooks = [
            LoggingTensorHook(["xsum:0", "y:0"], everyNIter=2),
            LoggingTensorHook({"s": "xsum:0"}, everyNIter=4, formatter=lambda v: f"sum = {int(v['s'])}!"),
        ]
        with monitored(hooks) as s:
            for i in range(5):
                s.run(m.train, feed_dict=feed(m, i))
    assert without_secs(logged_lines(caplog, "jhooks.hooks.logging_tensor")) == [
        "xsum:0 = 0.0, y:0 = [2. 4. 6. 8.]",
        "sum = 0!",
        "xsum:0 = 8.0, y:0 = [2. 4. 6. 8.]",
        "xsum:0 = 16.0, y:0 = [2. 4. 6. 8.]",
        "sum = 16!",
    ]


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(), "either at_end and/or exactly one of every_n_iter and every_n_secs must be provided."),
        (
            dict(everyNIter=1, everyNSecs=1.0),
            "either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.",
        ),
        (
            dict(everyNIter=1, everyNSecs=1.0, atEnd=True),
            "either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.",
        ),
        (dict(everyNIter=0), "invalid every_n_iter=0."),
    ],
)
def test_argument_errors(kwargs, message):
    with pytest.raises(ValueError) as e:
        LoggingTensorHook(["loss:0"], **kwargs)
    assert str(e.value) == message
