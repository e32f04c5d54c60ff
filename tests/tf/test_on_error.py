"""Hook.onError under TF's MonitoredSession through jhooks.tf.OnErrorSession (docs/contract.md, "onError")."""

from __future__ import annotations

import threading

import pytest
import tensorflow as tf
from tf_support import Counter

import jhooks
from jhooks.api.suppressed import suppressed
from jhooks.tf import OnErrorSession, to_tf_hooks


class Worker(jhooks.Hook):
    """Starts a thread in afterCreateSession that runs until onError or end stops it."""

    def __init__(self):
        self.stopEvent = threading.Event()
        self.thread = None
        self.errors = []
        self.sessionOpen = None

    def afterCreateSession(self, session, coord):
        self.thread = threading.Thread(target=self.stopEvent.wait)
        self.thread.start()

    def onError(self, session, error):
        self.errors.append(error)
        self.sessionOpen = session is not None and session.globalStep() >= 0
        self.stopEvent.set()

    def end(self, session):
        self.stopEvent.set()


class Failing(jhooks.Hook):
    def __init__(self, callback, message="boom"):
        self.callback, self.message = callback, message

    def _maybe(self, callback):
        if callback == self.callback:
            raise ValueError(f"{self.message} in {callback}")

    def afterCreateSession(self, session, coord):
        self._maybe("afterCreateSession")

    def afterSessionRun(self, runContext, runValues):
        self._maybe("afterSessionRun")

    def end(self, session):
        self._maybe("end")

    def onError(self, session, error):
        self._maybe("onError")


def run_session(hooks, runs=3, graph_kw=None):
    g = tf.Graph()
    with g.as_default():
        m = Counter(**(graph_kw or {}))
        tf_hooks = to_tf_hooks(hooks)
        with OnErrorSession.create(lambda: tf.compat.v1.train.MonitoredSession(hooks=tf_hooks), tf_hooks) as s:
            for _ in range(runs):
                m.step(s, 1)


@pytest.mark.parametrize("callback", ["afterCreateSession", "afterSessionRun", "end"])
def test_a_thread_started_in_after_create_session_is_stopped_on_any_hook_failure(callback):
    worker = Worker()
    with pytest.raises(ValueError, match=f"boom in {callback}"):
        run_session([worker, Failing(callback)])
    worker.thread.join(timeout=10)
    assert not worker.thread.is_alive()
    assert len(worker.errors) == 1 and str(worker.errors[0]) == f"boom in {callback}"
    assert worker.sessionOpen  # called before TF closed the raw session


def test_a_failed_run_calls_on_error_once_and_an_on_error_failure_is_attached():
    worker, failing = Worker(), Failing("onError", "cleanup failed")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        # x_below fails the run: the x fed (1.0) is not below 1
        run_session([failing, worker], graph_kw={"assert_below": 1})
    assert worker.errors == [e.value]
    attached = suppressed(e.value)
    assert [str(x) for x in attached] == ["cleanup failed in onError"]
    assert any("onError raised ValueError: cleanup failed in onError" in n for n in e.value.__notes__)


def test_end_of_input_and_normal_ends_do_not_call_on_error():
    worker = Worker()
    run_session([worker], runs=5, graph_kw={"inputs": 2})  # the with block swallows OutOfRangeError
    run_session([worker], runs=2)
    assert worker.errors == []


def test_hooks_that_never_got_a_session_get_no_on_error():
    first, second = Worker(), Worker()
    with pytest.raises(ValueError):
        run_session([first, Failing("afterCreateSession"), second])
    first.thread.join(timeout=10)
    assert len(first.errors) == 1 and second.errors == [] and second.thread is None
