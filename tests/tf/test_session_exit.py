"""The process exit's stop request to Python sessions (jhooks.api.session_exit): what jhooks' signal
handler asks of TensorFlow's MonitoredSession with jhooks hooks, without a signal. The session
stops after the run in progress, as a hook's requestStop() would, and its close runs every hook's
end(); only the sessions open at the request are asked; a closed session is not driven."""

from __future__ import annotations

import tensorflow as tf

import jhooks
from jhooks.api import session_exit
from jhooks.tf import to_tf_hooks


class Recorder(jhooks.Hook):
    """Records its runs and its end(); asks the exit's stop at run ``ask_at`` (as the handler would)."""

    def __init__(self, ask_at: int | None = None) -> None:
        self.runs = 0
        self.ended = False
        self.driven_in_run: bool | None = None
        self.ask_at = ask_at

    def afterSessionRun(self, runContext, runValues):
        self.runs += 1
        if self.runs == self.ask_at:
            self.driven_in_run = session_exit.request_stop()

    def end(self, session):
        self.ended = True


def train(hooks, max_runs: int = 50) -> int:
    """Runs a global-step graph until should_stop() (at most ``max_runs``); returns the runs."""
    with tf.Graph().as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        train_op = step.assign_add(1)
        runs = 0
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks(hooks)) as session:
            while not session.should_stop() and runs < max_runs:
                session.run(train_op)
                runs += 1
    return runs


def test_a_stop_request_ends_the_loop_after_the_run_in_progress_and_every_end_runs():
    asker, other = Recorder(ask_at=3), Recorder()
    assert train([asker, other]) == 3
    assert asker.ended and other.ended and other.runs == 3
    assert asker.driven_in_run is True  # the session was in its run: the exit would wait for it
    assert not session_exit.driven(idle_seconds=0.0)  # closed, as every earlier test's: nothing in a run


def test_a_session_whose_run_raised_is_not_waited_for():
    class Raising(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            raise ValueError("no run")

    try:
        train([Recorder(), Raising()])
    except ValueError:
        pass
    else:
        raise AssertionError("the run did not raise")
    assert not session_exit.driven(idle_seconds=0.0)  # in a run when it raised, but TensorFlow closed it


def test_a_session_opened_after_the_request_is_not_asked_to_stop():
    assert train([Recorder(ask_at=1)]) == 1
    later = Recorder()
    assert train([later], max_runs=7) == 7
    assert later.ended
