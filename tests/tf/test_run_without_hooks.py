"""jhooks.tf.run_without_hooks: runs that fire no hooks, with TF's recovery (twin of the JVM's
MonitoredSession.runWithoutHooks; TF #11971)."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from tf_support import Counter

import jhooks
from jhooks.testing.fault_injection import FaultInjectingSessionCreator
from jhooks.tf import OnErrorSession, run_without_hooks, to_tf_hooks
from jhooks.tf.errors import GraphNameError


class Counting(jhooks.Hook):
    def __init__(self):
        self.calls = []

    def afterCreateSession(self, session, coord):
        self.calls.append("afterCreateSession")

    def beforeSessionRun(self, runContext):
        self.calls.append("before")

    def afterSessionRun(self, runContext, runValues):
        self.calls.append("after")


def session_of(hook, creator=None):
    return tf.compat.v1.train.MonitoredSession(session_creator=creator, hooks=to_tf_hooks([hook]))


def test_evaluation_and_initializer_runs_fire_no_hook_and_keep_the_structure():
    hook = Counting()
    g = tf.Graph()
    with g.as_default():
        m = Counter()
        reset = tf.compat.v1.assign(m.v, 0.0, name="reset_v").op
        with session_of(hook) as s:
            m.step(s, 3)
            out = run_without_hooks(s, {"v": "v:0", "both": ["doubled:0", "global_step:0"]}, feeds={"x:0": 5.0})
            assert run_without_hooks(s, "reset_v") is None  # an initializer-like target
            after = run_without_hooks(s, ("v:0",))
    assert reset is not None
    assert hook.calls == ["afterCreateSession", "before", "after"]
    assert isinstance(out["v"], np.ndarray) and out["v"].shape == () and float(out["v"]) == 3.0
    assert float(out["both"][0]) == 10.0 and int(out["both"][1]) == 1
    assert isinstance(after, tuple) and float(after[0]) == 0.0


def test_an_aborted_run_without_hooks_is_retried_on_a_recreated_session():
    hook = Counting()
    g = tf.Graph()
    with g.as_default():
        Counter()
        # attempt 1: the hooked train run; attempt 2 (the run without hooks) raises Aborted once
        creator = FaultInjectingSessionCreator(
            tf.compat.v1.train.ChiefSessionCreator(), failAt={2}, countedTarget="train"
        )
        with OnErrorSession(session_of(hook, creator)) as s:
            s.run(g.get_operation_by_name("train"))
            result = s.runWithoutHooks(["train", "global_step:0"])
    assert creator.sessions == 2 and creator.attempts == 3
    assert hook.calls == ["afterCreateSession", "before", "after", "afterCreateSession"]
    assert result[0] is None and int(result[1]) in (0, 1)  # re-initialized: the retried train run is the first


def test_a_name_not_in_the_graph_names_the_caller():
    g = tf.Graph()
    with g.as_default():
        Counter()
        with session_of(Counting()) as s:
            with pytest.raises(GraphNameError, match="runWithoutHooks") as e:
                run_without_hooks(s, "nope:0")
    assert "nope" in str(e.value)
