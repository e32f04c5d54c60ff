"""Bad input from a hook names the hook, the callback and the value, in the caller's language, in
every direction: Python session + Python / Java hooks, JVM session + Java / Python hooks (the JVM
session seen both by a Java caller and by a Python caller). Also: hooks accept coord=None."""

from __future__ import annotations

import jpype
import numpy as np
import pytest
import tensorflow as tf

import jhooks
from jhooks.bridge import JavaHook, as_java_hook
from jhooks.bridge.process.calls import call_java
from jhooks.tf import to_tf_hooks


def J(name):
    return jpype.JClass(f"org.jhooks.bridgetest.{name}")


class PyBadArgs(jhooks.Hook):
    """The Python twin of org.jhooks.bridgetest.BadArgsHook (same kinds of bad input)."""

    def __init__(self, what):
        self.what = what

    def beforeSessionRun(self, runContext):
        what = self.what
        if what == "pastOutputs":
            return jhooks.SessionRunArgs("double:5")
        if what == "nullKey":
            return jhooks.SessionRunArgs(None, {None: np.float32(1)})
        if what == "wrongFetchType":
            return jhooks.SessionRunArgs(3)
        if what == "notAnArray":
            return jhooks.SessionRunArgs(None, {"y:0": object()})
        if what == "feedsNotMapping":
            return jhooks.SessionRunArgs(None, [("y:0", 1.0)])
        if what == "rawPastOutputs":
            runContext.session.run("double:5")
        if what == "rawWrongFetchType":
            runContext.session.run(3)
        if what == "rawFeedsNotMapping":
            runContext.session.run("y_times_3:0", [1.0])
        return None


# kind of bad input -> what the message must show of the value (a Python hook's, a Java hook's)
CASES = {
    "pastOutputs": ("double:5", "double:5"),
    "nullKey": ("None", "null"),
    "wrongFetchType": ("int 3", "Integer 3"),
    "notAnArray": ("object", "java.lang.Float 2.5"),
    "rawPastOutputs": ("double:5", "double:5"),
    "rawWrongFetchType": ("int 3", "Integer 3"),
    "feedsNotMapping": ("list", None),  # Java feeds are a Map by type
    "rawFeedsNotMapping": ("list", None),
}
DIRECTIONS = ["python-driver-python-hook", "python-driver-java-hook", "jvm-driver-java-hook", "jvm-driver-python-hook"]


def python_graph():
    """The graph of org.jhooks.bridgetest.JvmDriver, in TensorFlow: same names."""
    g = tf.Graph()
    with g.as_default():
        gs = tf.compat.v1.train.get_or_create_global_step()
        v = tf.compat.v1.get_variable("v", initializer=0.0, use_resource=False)
        x = tf.compat.v1.placeholder(tf.float32, shape=(), name="x")
        tf.multiply(x, 2.0, name="double")
        y = tf.compat.v1.placeholder_with_default(0.0, shape=(), name="y")
        tf.multiply(y, 3.0, name="y_times_3")
        tf.group(v.assign_add(1.0), gs.assign_add(1), name="train_step")
    return g


def run_python_driver(hooks, steps=3):
    with python_graph().as_default():
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks(hooks)) as s:
            for i in range(steps):
                if s.should_stop():
                    break
                s.run("train_step", feed_dict={"x:0": float(i + 1)})


def java_list(*items):
    out = jpype.JClass("java.util.ArrayList")()
    for i in items:
        out.add(i)
    return out


def hook_for(direction, what):
    """The bad hook for ``direction`` as its driver takes it, and how messages name it."""
    if direction.endswith("python-hook"):
        py = PyBadArgs(what)
        label = f"{__name__}.PyBadArgs"
        return (as_java_hook(py) if direction.startswith("jvm") else py), label
    java = J("BadArgsHook")(what)
    return (java if direction.startswith("jvm") else JavaHook(java)), "org.jhooks.bridgetest.BadArgsHook"


def value_text(direction, what):
    python_text, java_text = CASES[what]
    return python_text if direction.endswith("python-hook") else java_text


def cases():
    for direction in DIRECTIONS:
        for what in CASES:
            if value_text(direction, what) is not None:
                yield pytest.param(direction, what, id=f"{direction}-{what}")


@pytest.mark.parametrize("direction,what", list(cases()))
def test_bad_input_names_hook_callback_and_value_for_a_python_caller(direction, what):
    hook, label = hook_for(direction, what)
    with pytest.raises(jhooks.HookError) as e:
        if direction.startswith("python"):
            run_python_driver([hook])
        else:
            call_java(J("JvmDriver").run, java_list(hook), 3, None)
    message = str(e.value)
    assert label in message and ".beforeSessionRun" in message, message
    assert value_text(direction, what) in message, message
    assert e.value.callback == "beforeSessionRun"
    if direction.startswith("jvm"):  # the Java original is the cause, with its stack
        assert isinstance(e.value.__cause__, jpype.JClass("org.jhooks.HookException")), repr(e.value.__cause__)


@pytest.mark.parametrize("direction,what", [p for p in cases() if p.values[0].startswith("jvm")], ids=lambda v: str(v))
def test_bad_input_names_hook_callback_and_value_for_a_java_caller(direction, what):
    hook, label = hook_for(direction, what)
    thrown = J("JvmDriver").runCatching(java_list(hook), 3)
    assert isinstance(thrown, jpype.JClass("org.jhooks.HookException")), thrown
    message = str(thrown.getMessage())
    assert label in message and ".beforeSessionRun" in message, message
    assert value_text(direction, what) in message, message
    assert str(thrown.callback()) == "beforeSessionRun"


def test_a_java_hook_accepts_coord_none_in_after_create_session():
    # TensorFlow's hooks accept None for coord (some TF code passes none); so does a Java hook,
    # which then gets null, and its later callbacks work.
    J("BadArgsHook").LOG.clear()
    hook = JavaHook(J("BadArgsHook")("none"))
    with python_graph().as_default(), tf.compat.v1.Session() as raw:
        raw.run(tf.compat.v1.global_variables_initializer())
        adapter = to_tf_hooks([hook])[0]
        adapter.begin()
        adapter.after_create_session(raw, None)
        ctx = tf.compat.v1.train.SessionRunContext(tf.compat.v1.train.SessionRunArgs("train_step", {"x:0": 1.0}), raw)
        assert adapter.before_run(ctx) is None
        adapter.after_run(ctx, tf.compat.v1.train.SessionRunValues(None, None, None))
        adapter.end(raw)
    assert list(map(str, J("BadArgsHook").LOG)) == ["afterCreateSession coord=null"]


def test_a_python_hook_behind_the_bridge_accepts_a_null_coordinator():
    seen = []

    class Hook(jhooks.Hook):
        def afterCreateSession(self, session, coord):
            seen.append(coord)

    as_java_hook(Hook()).afterCreateSession(None, None)
    assert seen == [None]
