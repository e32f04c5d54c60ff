"""A hook that makes a hooked run of its own monitored session from inside one of its callbacks
gets a clear error naming the hook and the callback, in every direction, instead of running the
hooks again until the stack overflows (a SIGSEGV when the recursion goes through Python and Java);
later sessions in the same JVM still work and report errors normally."""

from __future__ import annotations

import jpype
import pytest
import tensorflow as tf
from test_bad_inputs import J, java_list, python_graph

import jhooks
from jhooks.bridge import JavaHook, as_java_hook
from jhooks.bridge.process.calls import call_java
from jhooks.tf import to_tf_hooks

DIRECTIONS = ["python-driver-python-hook", "python-driver-java-hook", "jvm-driver-java-hook", "jvm-driver-python-hook"]


class PyReentrant(jhooks.Hook):
    """Makes a hooked run of its own monitored session in afterSessionRun of its second run."""

    def __init__(self, hooked_run):
        self.hooked_run = hooked_run
        self.runs = 0

    def afterSessionRun(self, runContext, runValues):
        self.runs += 1
        if self.runs == 2:
            self.hooked_run()


def run_python_driver(make_hook, steps=4):
    """TF's MonitoredSession with the hook ``make_hook(hooked_run)`` makes."""
    holder = {}

    def hooked_run():
        holder["session"].run("train_step", feed_dict={"x:0": 1.0})

    with python_graph().as_default():
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([make_hook(hooked_run)])) as s:
            holder["session"] = s
            for i in range(steps):
                s.run("train_step", feed_dict={"x:0": float(i + 1)})


def reentrant_hook(direction):
    if direction == "python-driver-python-hook":
        return lambda hooked_run: PyReentrant(hooked_run)
    if direction == "python-driver-java-hook":
        return lambda hooked_run: JavaHook(
            J("ReentrantHook")(jpype.JProxy("java.lang.Runnable", dict={"run": hooked_run}))
        )
    if direction == "jvm-driver-java-hook":
        return J("ReentrantHook").onJvmDriver()
    return as_java_hook(PyReentrant(lambda: call_java(J("JvmDriver").current.run, jpype.JString("train_step"))))


def chain(error):
    """The exception and its causes (Python ``__cause__`` and Java ``getCause()``)."""
    out = []
    while error is not None and len(out) < 20:
        out.append(error)
        nxt = getattr(error, "__cause__", None)
        if nxt is None and isinstance(error, jpype.JException):
            nxt = error.getCause()
        error = nxt
    return out


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_a_hooked_run_from_inside_a_callback_is_refused_naming_hook_and_callback(direction):
    label = "PyReentrant" if direction.endswith("python-hook") else "ReentrantHook"
    with pytest.raises(jhooks.HookError) as e:
        if direction.startswith("python"):
            run_python_driver(reentrant_hook(direction))
        else:
            call_java(J("JvmDriver").run, java_list(reentrant_hook(direction)), 4, None)
    assert label in e.value.hook and e.value.callback == "afterSessionRun", str(e.value)
    assert "re-entrant" in str(e.value)
    names = [type(c).__name__ for c in chain(e.value)] + [
        str(c.getClass().getName()) for c in chain(e.value) if isinstance(c, jpype.JException)
    ]
    assert not any("RecursionError" in n or "StackOverflowError" in n for n in names), names
    if direction.startswith("jvm"):  # a Java caller gets HookException naming the same
        thrown = J("JvmDriver").runCatching(java_list(reentrant_hook(direction)), 4)
        assert isinstance(thrown, jpype.JClass("org.jhooks.HookException")), thrown
        assert label in str(thrown.hook()) and str(thrown.callback()) == "afterSessionRun"


def test_after_re_entrance_later_sessions_in_the_same_jvm_work_and_report_errors_normally():
    for direction in DIRECTIONS:
        with pytest.raises(jhooks.HookError):
            if direction.startswith("python"):
                run_python_driver(reentrant_hook(direction))
            else:
                call_java(J("JvmDriver").run, java_list(reentrant_hook(direction)), 4, None)
    # a normal session still runs, and errors still arrive with their types (no class left
    # unusable by a failed static initializer: that would be NoClassDefFoundError here)
    assert call_java(J("JvmDriver").run, java_list(J("RecordingHook")("after", None)), 3, None) == 3
    with pytest.raises(jhooks.HookError, match="is unhappy"):
        call_java(J("JvmDriver").run, java_list(J("ThrowingHook")("Hook")), 3, None)
    thrown = J("JvmDriver").runCatching(java_list(J("ThrowingHook")("NanLoss")), 3)
    assert str(thrown.getClass().getName()) == "org.jhooks.hooks.NanLossDuringTrainingException"

    class Failing(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            raise ValueError("plain failure")

    with pytest.raises(ValueError, match="plain failure"):
        call_java(J("JvmDriver").run, java_list(as_java_hook(Failing())), 3, None)
    with pytest.raises(ValueError, match="plain failure"):
        run_python_driver(lambda hooked_run: Failing())
