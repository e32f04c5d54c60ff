"""A graph without a global step: a hook that needs one fails with TensorFlow's own text, "Global
step should be created to use StopAtStepHook.", naming the hook's class, as part of the error for
the missing name (docs/contract.md), in every direction; StopAtStepHook reads the step first in
afterCreateSession (a finished run stays finished), so that callback is the one named
(Python / JVM session × Python / Java StopAtStepHook). Real sessions, a real JVM."""

from __future__ import annotations

import jpype
import pytest
import tensorflow as tf

from jhooks.bridge import JavaHook, as_java_hook
from jhooks.bridge.process.calls import call_java
from jhooks.hooks import StopAtStepHook
from jhooks.tf import to_tf_hooks
from jhooks.tf.errors import GraphNameError

TEXT = "Global step should be created to use StopAtStepHook."


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start(natives=True)


def _python_session(hook):
    with tf.Graph().as_default():
        v = tf.compat.v1.get_variable("v", initializer=0.0, use_resource=False)
        train = tf.compat.v1.assign_add(v, 1.0)
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook])) as sess:
            while not sess.should_stop():
                sess.run(train)


def _jvm_session(hook):
    graph = jpype.JClass("org.tensorflow.Graph")()
    try:
        ops = jpype.JClass("org.tensorflow.op.Ops").create(graph)
        v = ops.withName("v").variable(ops.constant(jpype.JFloat(0.0)))
        ops.withName("train").assignAdd(v, ops.constant(jpype.JFloat(1.0)))
        hooks = jpype.JClass("java.util.ArrayList")()
        hooks.add(hook)
        session = call_java(jpype.JClass("org.jhooks.tf.MonitoredSession").builder(graph).hooks(hooks).build)
        try:
            for _ in range(3):
                call_java(session.run, "train")
        finally:
            call_java(session.close)
    finally:
        graph.close()


def test_python_session_python_hook():
    with pytest.raises(GraphNameError) as e:
        _python_session(StopAtStepHook(lastStep=3))
    assert str(e.value) == (
        "jhooks.hooks.stop_at_step.StopAtStepHook.afterCreateSession: 'global_step:0' is not in the "
        "session's graph (\"The name 'global_step:0' refers to a Tensor which does not exist. The operation, "
        "'global_step', does not exist in the graph.\"): " + TEXT
    )


def test_python_session_java_hook():
    with pytest.raises(Exception) as e:
        _python_session(JavaHook("org.jhooks.hooks.StopAtStepHook", lastStep=3))
    assert TEXT in str(e.value)


def test_jvm_session_java_hook():
    with pytest.raises(Exception) as e:
        _jvm_session(jpype.JClass("org.jhooks.hooks.StopAtStepHook").ofLastStep(3))
    assert TEXT in str(e.value) or TEXT in str(e.value.__cause__)


def test_jvm_session_python_hook():
    with pytest.raises(Exception) as e:
        _jvm_session(as_java_hook(StopAtStepHook(lastStep=3)))
    assert TEXT in str(e.value) or TEXT in str(e.value.__cause__)
