"""One meaning for an error whichever language raised it (docs/bridge.md, "Exceptions").

jhooks' own errors reach a caller in the caller's language whatever language the hook is in, the
other language's original kept as the cause with its stack; a Python exception that went through a
JVM session comes back to a Python caller as the original object; a Java Error from a hook names
the hook and callback. Directions: Python session + Java hooks (Python caller), JVM session +
Python hooks (Java caller and Python caller), JVM session + Java hooks (Python caller).
"""

from __future__ import annotations

import jpype
import pytest
from test_bad_inputs import J, java_list, run_python_driver

import jhooks
from jhooks.bridge import JavaHook, as_java_hook
from jhooks.bridge.process.calls import call_java
from jhooks.hooks import CheckpointSaveError, NanLossDuringTrainingError
from jhooks.tf import GraphNameError


def JC(name):
    return jpype.JClass(name)


# What a Python hook raises, and the Java class a Java caller must get (the twin).
PYTHON_ERRORS = {
    "NanLoss": (
        lambda: NanLossDuringTrainingError("NaN loss during training."),
        "org.jhooks.hooks.NanLossDuringTrainingException",
    ),
    "Hook": (lambda: jhooks.HookError("a python hook", "afterSessionRun", "is unhappy"), "org.jhooks.HookException"),
    "GraphName": (
        lambda: GraphNameError("a python hook", "afterSessionRun", "nope:0", "is missing"),
        "org.jhooks.tf.GraphNameException",
    ),
    "HookFeedConflict": (
        lambda: jhooks.HookFeedConflictError("x:0", "first python hook", "second python hook"),
        "org.jhooks.HookFeedConflictException",
    ),
    "CallerFeedConflict": (
        lambda: jhooks.CallerFeedConflictError("x:0", "a python hook"),
        "org.jhooks.CallerFeedConflictException",
    ),
    "CheckpointSave": (
        lambda: CheckpointSaveError("a python saver", "afterSessionRun", 4, "/ckpt/model.ckpt-4", OSError("disk full")),
        "org.jhooks.HookException",  # at least; org.jhooks.**.CheckpointSaveException where it exists
    ),
}

# What a Java hook (ThrowingHook) throws, and the Python class a Python caller must get.
JAVA_ERRORS = {
    "NanLoss": NanLossDuringTrainingError,
    "Hook": jhooks.HookError,
    "GraphName": GraphNameError,
    "HookFeedConflict": jhooks.HookFeedConflictError,
    "CallerFeedConflict": jhooks.CallerFeedConflictError,
}


class Raising(jhooks.Hook):
    def __init__(self, make):
        self.make = make
        self.raised = None

    def afterSessionRun(self, runContext, runValues):
        self.raised = self.make()
        raise self.raised


def checkpoint_save_exception():
    """The Java CheckpointSaveException where the checkpoint package has one, else None."""
    for name in ("org.jhooks.checkpoint.CheckpointSaveException", "org.jhooks.hooks.CheckpointSaveException"):
        try:
            return jpype.JClass(name)
        except TypeError:
            continue
    return None


@pytest.mark.parametrize("kind", sorted(PYTHON_ERRORS))
def test_jvm_session_python_hook_a_java_caller_gets_the_java_twin_caused_by_the_python_original(kind):
    make, java_class = PYTHON_ERRORS[kind]
    hook = Raising(make)
    thrown = J("JvmDriver").runCatching(java_list(as_java_hook(hook)), 3)
    assert isinstance(thrown, JC(java_class)), f"{thrown.getClass().getName()}: {thrown}"
    if kind == "CheckpointSave" and checkpoint_save_exception() is not None:
        assert isinstance(thrown, checkpoint_save_exception())
    assert str(thrown.getMessage()) == str(hook.raised)
    cause = thrown.getCause()
    assert isinstance(cause, JC("org.jhooks.bridge.PythonException"))
    assert str(cause.pythonType()) == f"{type(hook.raised).__module__}.{type(hook.raised).__qualname__}"
    stack = [str(f) for f in thrown.getStackTrace()]
    assert any("<python>.test_error_twins.afterSessionRun" in f for f in stack), stack[:5]
    if isinstance(hook.raised, jhooks.HookError):
        assert (str(thrown.hook()), str(thrown.callback())) == (hook.raised.hook, hook.raised.callback)


@pytest.mark.parametrize("kind", sorted(PYTHON_ERRORS))
def test_jvm_session_python_hook_a_python_caller_gets_the_original_object(kind):
    make, _ = PYTHON_ERRORS[kind]
    hook = Raising(make)
    with pytest.raises(BaseException) as e:
        call_java(J("JvmDriver").run, java_list(as_java_hook(hook)), 3, None)
    assert e.value is hook.raised
    assert any("Java stack trace" in n for n in e.value.__notes__)


@pytest.mark.parametrize("kind", sorted(JAVA_ERRORS))
def test_python_session_java_hook_a_python_caller_gets_the_python_twin_caused_by_the_java_original(kind):
    with pytest.raises(JAVA_ERRORS[kind]) as e:
        run_python_driver([JavaHook(J("ThrowingHook")(kind))])
    assert type(e.value) is JAVA_ERRORS[kind]
    java = e.value.__cause__
    assert isinstance(java, JC("java.lang.Throwable")), repr(java)
    assert str(java.getClass().getSimpleName()).startswith(kind)
    assert str(e.value) == str(java.getMessage())
    assert any("at org.jhooks.bridgetest.ThrowingHook.afterSessionRun" in n for n in e.value.__notes__)
    if kind == "NanLoss":
        assert e.value.globalStep == 7
    if kind in ("Hook", "GraphName"):
        assert (e.value.hook, e.value.callback) == ("a java hook", "afterSessionRun")
    if kind == "GraphName":
        assert e.value.name == "nope:0"
    if kind == "HookFeedConflict":
        assert (e.value.tensor, e.value.firstHook, e.value.hook) == ("x:0", "first java hook", "second java hook")


@pytest.mark.parametrize("kind", sorted(JAVA_ERRORS))
def test_jvm_session_java_hook_a_python_caller_gets_the_python_twin(kind):
    with pytest.raises(JAVA_ERRORS[kind]) as e:
        call_java(J("JvmDriver").run, java_list(J("ThrowingHook")(kind)), 3, None)
    assert isinstance(e.value.__cause__, JC("java.lang.Throwable"))


def test_a_twin_that_returns_to_python_is_the_original_object():
    # Python -> Java -> Python, with nothing in between: the same object, not a copy
    from jhooks.bridge.convert.exceptions import to_java
    from jhooks.bridge.process.calls import from_java

    for original in (jhooks.HookError("h", "end", "x"), jhooks.SessionRunArgsError("a feed key must be a str")):
        java = to_java(original)
        assert str(java.getClass().getName()) == f"org.jhooks.{type(original).__name__[:-5]}Exception"
        assert from_java(java) is original


@pytest.mark.parametrize("error", ["StackOverflow", "OutOfMemory"])
def test_a_java_error_from_a_java_hook_in_a_python_session_names_hook_and_callback(error):
    with pytest.raises(jhooks.HookError) as e:
        run_python_driver([JavaHook(J("ThrowingHook")(error))])
    assert "org.jhooks.bridgetest.ThrowingHook, Java" in e.value.hook
    assert e.value.callback == "afterSessionRun"
    assert f"java.lang.{error}Error" in str(e.value)
    assert isinstance(e.value.__cause__, JC(f"java.lang.{error}Error"))


@pytest.mark.parametrize("error", ["StackOverflow", "OutOfMemory"])
def test_a_java_error_from_a_java_hook_in_a_jvm_session_propagates_as_itself(error, caplog):
    """The JVM driver lets a Java Error through as itself (it wrapped it in a HookException, so a
    Java caller could not catch the Error); the hook and callback are in a log record."""
    thrown = J("JvmDriver").runCatching(java_list(J("ThrowingHook")(error)), 3)
    assert isinstance(thrown, JC(f"java.lang.{error}Error")), thrown
    named = "hook #1 (org.jhooks.bridgetest.ThrowingHook).afterSessionRun: raised java.lang."
    assert f"{named}{error}Error" in caplog.text


def test_jvm_session_python_listener_a_python_caller_gets_the_original_object(tmp_path):
    from jhooks.bridge import as_java_listener

    class Failing(jhooks.CheckpointSaverListener):
        raised = None

        def afterSave(self, session, globalStep):
            if globalStep >= 2:
                self.raised = KeyError(f"listener failed at {globalStep}")
                raise self.raised
            return False

    listener = Failing()
    path = jpype.JClass("java.nio.file.Path").of(str(tmp_path), [])
    with pytest.raises(BaseException) as e:
        call_java(J("JvmDriver").train, path, java_list(), java_list(as_java_listener(listener)), 4, 2)
    if e.value is not listener.raised:  # a saver that wraps it (CheckpointSaveError) keeps it in the causes
        assert isinstance(e.value, jhooks.HookError), repr(e.value)
        causes, c = [], e.value.__cause__
        while c is not None and len(causes) < 10:
            causes.append(c)
            c = c.__cause__
        assert any(c is listener.raised for c in causes), causes
