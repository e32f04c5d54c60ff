"""GlobalStepWaiterHook under TF's MonitoredSession, against TF's own GlobalStepWaiterHook."""

from __future__ import annotations

import logging
import threading
import time

import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, monitored

from jhooks.api.hook import Hook
from jhooks.hooks import GlobalStepWaiterHook


class Advancer(Hook):
    """Makes ``steps`` raw train runs from another thread once the session exists."""

    def __init__(self, train, steps):
        self._train, self._steps = train, steps
        self.thread = None
        self.failure = None

    def afterCreateSession(self, session, coord):
        def work():
            try:
                for _ in range(self._steps):
                    time.sleep(0.02)
                    session.run(self._train.name)
            except BaseException as e:  # kept for the test thread
                self.failure = e

        self.thread = threading.Thread(target=work)
        self.thread.start()


class StepsBeforeRuns(Hook):
    def __init__(self):
        self.seen = []

    def beforeSessionRun(self, runContext):
        self.seen.append(runContext.session.globalStep())


def run_with_waiter(make_waiter, advance=5, runs=3):
    _, m = in_graph(Model)
    advancer, seen = Advancer(m.train, advance), StepsBeforeRuns()
    with m.gs.graph.as_default(), monitored([advancer, make_waiter(), seen]) as sess:
        for _ in range(runs):
            sess.run(m.train)
        # the waiter can see the last step while that raw run is still returning: let it return
        # before the session closes, or it is cancelled (seen in CI under load)
        advancer.thread.join()
    assert advancer.failure is None
    return seen.seen


@pytest.mark.parametrize("waitUntilStep", [5, 2])
def test_first_run_starts_at_the_awaited_step_like_tensorflow(waitUntilStep, caplog):
    """Another thread makes exactly waitUntilStep steps: the first run waits for all of them."""
    with caplog.at_level(logging.INFO, logger="jhooks.hooks.global_step_waiter"):
        ours = run_with_waiter(lambda: GlobalStepWaiterHook(waitUntilStep, pollSecs=0.01), advance=waitUntilStep)
    assert ours == [waitUntilStep, waitUntilStep + 1, waitUntilStep + 2]  # never waits again
    assert caplog.messages == [f"Waiting for global step {waitUntilStep} before starting training."]
    theirs = run_with_waiter(lambda: tf.compat.v1.train.GlobalStepWaiterHook(waitUntilStep), advance=waitUntilStep)
    assert theirs == ours


def test_a_reached_or_non_positive_step_does_not_wait(caplog):
    _, m = in_graph(Model)
    seen = StepsBeforeRuns()
    with caplog.at_level(logging.INFO, logger="jhooks.hooks.global_step_waiter"):
        with m.gs.graph.as_default(), monitored([GlobalStepWaiterHook(0), seen]) as sess:
            sess.run(m.train)
            sess.run(m.train)
    assert seen.seen == [0, 1] and caplog.messages == []


def test_poll_secs_must_be_positive():
    with pytest.raises(ValueError, match="pollSecs must be positive, got 0"):
        GlobalStepWaiterHook(3, pollSecs=0)


@pytest.mark.parametrize(
    "args, message",
    [
        ((None,), "waitUntilStep must be an int (a global step), got None"),  # was int()'s TypeError
        (("5",), "waitUntilStep must be an int (a global step), got '5'"),
        ((2.5,), "waitUntilStep must be an int (a global step), got 2.5"),  # was truncated to 2
        ((3, float("nan")), "pollSecs must be positive, got nan"),  # accepted; Java's twin refuses NaN
        ((3, None), "pollSecs must be positive, got None"),
    ],
)
def test_bad_arguments_name_the_hook_and_the_value(args, message):
    with pytest.raises(ValueError) as e:
        GlobalStepWaiterHook(*args)
    assert str(e.value) == "GlobalStepWaiterHook: " + message


def test_step_zero_does_not_read_the_run_context_in_either_twin_as_tensorflows():
    """TF's test_not_wait_for_step_zero calls before_run with a bare context; both twins take None."""
    import jpype

    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()
    theirs = tf.compat.v1.train.GlobalStepWaiterHook(wait_until_step=0)
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.train.get_or_create_global_step()
        theirs.begin()
    assert theirs.before_run(None) is None
    python = GlobalStepWaiterHook(0)
    python.beginSession()
    assert python.beforeSessionRun(None) is None
    java = jpype.JClass("org.jhooks.hooks.GlobalStepWaiterHook")(jpype.JLong(0))
    java.beginSession()
    assert java.beforeSessionRun(None) is None
