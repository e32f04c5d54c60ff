"""StopAtStepHook under TF's MonitoredSession, against TF's own StopAtStepHook."""

from __future__ import annotations

import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, monitored

from jhooks.hooks import CheckpointSaverHook, StopAtStepHook


def run_until_stop(hooks, checkpointDir=None):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        runs = 0
        with monitored(hooks(), checkpointDir) as sess:
            while not sess.should_stop() and runs < 100:
                sess.run(m.train)
                runs += 1
    return runs


def final_step(checkpointDir):
    return int(tf.train.load_checkpoint(tf.train.latest_checkpoint(checkpointDir)).get_tensor("global_step"))


@pytest.mark.parametrize("kwargs", [dict(numSteps=5), dict(lastStep=7), dict(numSteps=1), dict(lastStep=1)])
def test_same_stop_step_as_tensorflow_also_after_a_restore(tmp_path, kwargs):
    tfNames = {"numSteps": "num_steps", "lastStep": "last_step"}

    def session_pair(who):
        """A session from scratch, then one resumed from its checkpoint; (runs, final step) of each."""
        d = str(tmp_path / who)
        out = []
        for _ in range(2):
            stop = (
                tf.compat.v1.train.StopAtStepHook(**{tfNames[k]: v for k, v in kwargs.items()})
                if who == "tf"
                else StopAtStepHook(**kwargs)
            )
            runs = run_until_stop(lambda: [stop, CheckpointSaverHook(d, saveSteps=1000)], d)
            out.append((runs, final_step(d)))
        return out

    ours, theirs = session_pair("ours"), session_pair("tf")
    if "numSteps" in kwargs:  # numSteps counts from the restored global step
        n = kwargs["numSteps"]
        assert ours == theirs == [(n, n), (n, 2 * n)]
    else:  # a session resumed at lastStep trains no further step; TF's hook runs one more
        last = kwargs["lastStep"]
        assert ours == [(last, last), (0, last)]
        assert theirs == [(last, last), (1, last + 1)]


def test_last_step_is_computed_at_the_first_session_creation():
    hook = StopAtStepHook(numSteps=3)
    assert hook.lastStep() is None
    run_until_stop(lambda: [hook])
    assert hook.lastStep() == 3


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(), "One of num_steps or last_step must be specified."),
        (dict(numSteps=1, lastStep=2), "Only one of num_steps or last_step can be specified."),
        (dict(numSteps=0), "Number of steps must be positive."),
    ],
)
def test_argument_errors(kwargs, message):
    with pytest.raises(ValueError) as e:
        StopAtStepHook(**kwargs)
    assert str(e.value) == message
