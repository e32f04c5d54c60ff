"""What TensorFlow's own hook tests (basic_session_run_hooks_test.py) do to a hook, done to both twins
through the TF adapter (``jhooks.tf.to_tf_hooks``), next to TensorFlow's hook: a ``_HookedSession``
over a plain ``tf.compat.v1.Session`` with ``after_create_session(sess, None)`` (no coordinator), and
``before_run(None)`` for a hook that does not read its context (a GlobalStepWaiterHook for step 0)."""

from __future__ import annotations

import pytest
import tensorflow as tf
from tensorflow.python.training import monitored_session

from jhooks import hooks as pyhooks
from jhooks.bridge import JavaHook
from jhooks.tf import to_tf_hooks


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


TWINS = {
    "python": lambda name, **kw: to_tf_hooks([getattr(pyhooks, name)(**kw)])[0],
    "java": lambda name, **kw: to_tf_hooks([JavaHook("org.jhooks.hooks." + name, **kw)])[0],
}


def stops_after(make_hook):
    """TF's StopAtStepTest.test_stop_based_on_last_step: global step 5, last step 10; which
    runs of a no-op (global step set by hand) see should_stop()."""
    with tf.Graph().as_default():
        gstep = tf.compat.v1.train.get_or_create_global_step()
        hook = make_hook()
        hook.begin()
        no_op = tf.no_op()
        seen = []
        with tf.compat.v1.Session() as sess:
            mon_sess = monitored_session._HookedSession(sess, [hook])
            sess.run(tf.compat.v1.assign(gstep, 5))
            hook.after_create_session(sess, None)
            for step in (5, 9, 10):
                if mon_sess.should_stop():
                    break
                sess.run(tf.compat.v1.assign(gstep, step))
                mon_sess.run(no_op)
                seen.append((step, mon_sess.should_stop()))
        return seen


@pytest.mark.parametrize("twin", sorted(TWINS))
def test_stop_at_step_after_create_session_without_a_coordinator_as_tensorflows(twin):
    theirs = stops_after(lambda: tf.compat.v1.train.StopAtStepHook(last_step=10))
    ours = stops_after(lambda: TWINS[twin]("StopAtStepHook", lastStep=10))
    assert ours == theirs == [(5, False), (9, False), (10, True)]


@pytest.mark.parametrize("twin", sorted(TWINS))
def test_global_step_waiter_for_step_zero_takes_before_run_none_as_tensorflows(twin):
    with tf.Graph().as_default():
        tf.compat.v1.train.get_or_create_global_step()
        theirs = tf.compat.v1.train.GlobalStepWaiterHook(wait_until_step=0)
        theirs.begin()
        assert theirs.before_run(None) is None
        ours = TWINS[twin]("GlobalStepWaiterHook", waitUntilStep=0)
        ours.begin()
        assert ours.before_run(None) is None


def test_a_java_hook_takes_none_contexts_through_java_hook():
    hook = JavaHook("org.jhooks.hooks.GlobalStepWaiterHook", 0)
    hook.beginSession()
    assert hook.beforeSessionRun(None) is None


@pytest.mark.parametrize("twin", sorted(TWINS))
def test_a_hook_asking_for_fetches_in_before_run_none_is_named(twin):
    """TF's NanTensorHook would return its fetch to no run; the adapter refuses, naming the hook."""
    from jhooks.api.errors import HookError

    with tf.Graph().as_default():
        tf.compat.v1.train.get_or_create_global_step()
        tf.constant(1.0, name="loss")
        hook = TWINS[twin]("NanTensorHook", lossTensor="loss:0")
        hook.begin()
        with pytest.raises(HookError, match=r"NanTensorHook.*beforeSessionRun: returned .* for before_run\(None\)"):
            hook.before_run(None)
