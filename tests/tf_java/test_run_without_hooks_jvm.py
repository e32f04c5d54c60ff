"""The JVM driver's ``MonitoredSession.runWithoutHooks`` driven from Python with a Python hook in it:
it fires no hook and recovers like TensorFlow's ``run_step_fn`` (and its Python twin
``jhooks.tf.run_without_hooks``; TF #11971). Real tensorflow-java sessions over
``org.jhooks.conformance.ModelRecipe``'s graph; faults injected by
``org.jhooks.testing.FaultInjectingSessionCreator``. The JUnit twin is ``RunWithoutHooksTest``."""

from __future__ import annotations

import json

import jpype
import pytest

import jhooks
from jhooks.bridge import as_java_hook
from jhooks.bridge.convert.arrays import to_numpy
from jhooks.bridge.process.calls import call_java

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start(natives=True)


class Recording(jhooks.Hook):
    def __init__(self):
        self.calls = []
        self.errors = []

    def begin(self):
        self.calls.append("begin")

    def afterCreateSession(self, session, coord):
        self.calls.append("afterCreateSession")

    def beforeSessionRun(self, runContext):
        self.calls.append("before")

    def afterSessionRun(self, runContext, runValues):
        self.calls.append("after")

    def end(self, session):
        self.calls.append("end")

    def onError(self, session, error):
        self.calls.append("onError")
        self.errors.append(error)


def recipe_graph(**recipe):
    graph = jpype.JClass("org.tensorflow.Graph")()
    spec = jpype.JClass("com.google.gson.JsonParser").parseString(json.dumps(recipe)).getAsJsonObject()
    jpype.JClass("org.jhooks.conformance.ModelRecipe").build(graph, spec)
    return graph


def faulty_creator(*aborted_runs):
    creator = jpype.JClass("org.jhooks.testing.FaultInjectingSessionCreator")(
        jpype.JClass("org.jhooks.tf.CheckpointRestoringSessionCreator")(None), "train"
    )
    for run in aborted_runs:
        creator.failRun(run, jpype.JClass("org.jhooks.tf.ErrorCodes$Code").ABORTED)
    return creator


def session_of(graph, hook, creator):
    hooks = jpype.JClass("java.util.ArrayList")()
    hooks.add(as_java_hook(hook))
    builder = jpype.JClass("org.jhooks.tf.MonitoredSession").builder(graph).hooks(hooks).sessionCreator(creator)
    return call_java(builder.build)


def java_list(*names):
    out = jpype.JClass("java.util.ArrayList")()
    for name in names:
        out.add(name)
    return out


def no_feeds():
    return jpype.JClass("java.util.Map").of()


def test_an_aborted_run_without_hooks_is_retried_on_a_recreated_session_and_fires_no_hook():
    hook = Recording()
    creator = faulty_creator(2)  # counted runs of train: 1 the hooked run, 2 the run without hooks
    graph = recipe_graph()
    try:
        session = session_of(graph, hook, creator)
        try:
            call_java(session.run, "train")
            result = call_java(session.runWithoutHooks, java_list("train", "global_step_read:0"), no_feeds(), None)
            assert session.recoveryCount() == 1
            assert int(session.session().globalStep()) == 1  # initialized again, then the retried run
        finally:
            call_java(session.close)
    finally:
        graph.close()
    assert (creator.sessionCount(), creator.runCount()) == (2, 3)
    assert result.get(0) is None
    assert int(to_numpy(result.get(1))) == 0  # the retried run read the step of the new session
    assert hook.calls == ["begin", "afterCreateSession", "before", "after", "afterCreateSession", "end"]


def test_another_error_in_a_run_without_hooks_reaches_the_caller_after_on_error_and_end_is_not_called():
    hook = Recording()
    graph = recipe_graph(failAtStep=2)
    try:
        session = session_of(graph, hook, faulty_creator())
        call_java(session.run, "train")
        with pytest.raises(Exception, match="fail_at") as e:
            call_java(session.runWithoutHooks, "train", no_feeds(), None)
        assert session.recoveryCount() == 0
        assert bool(session.shouldStop())
        call_java(session.close)
    finally:
        graph.close()
    assert hook.calls == ["begin", "afterCreateSession", "before", "after", "onError"]
    assert "fail_at" in str(hook.errors[0]) and "fail_at" in str(e.value)
