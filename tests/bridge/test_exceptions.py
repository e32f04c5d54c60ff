"""Exceptions both ways keep type name, message, remote stack and cause; none lost on Java threads."""

import traceback

import jpype
import pytest

import jhooks
from jhooks.bridge.convert.exceptions import java_stack_trace, to_java, type_name
from jhooks.bridge.hooks.java_hooks import JavaCheckpointSaverListener, JavaHook
from jhooks.bridge.hooks.python_hooks import as_java_hook, as_java_listener
from jhooks.bridge.process.calls import call_java


def CallingBack():
    return jpype.JClass("org.jhooks.bridgetest.CallingBack")


class ConfigError(Exception):
    """A type without a standard Java counterpart (a ValueError would reach Java as an
    IllegalArgumentException caused by the carrier: tests/bridge/test_standard_errors.py)."""


class RaisingHook(jhooks.Hook):
    def afterSessionRun(self, runContext, runValues):
        try:
            parse_config({})
        except LookupError as e:
            raise ConfigError("bad learning rate -1") from e


def parse_config(config):
    if "learning_rate" not in config:
        raise LookupError("learning_rate")
    return config["learning_rate"]


def test_a_python_exception_reaches_java_with_type_message_traceback_and_cause():
    thrown = CallingBack().afterSessionRunThrown(as_java_hook(RaisingHook()))
    PythonException = jpype.JClass("org.jhooks.bridge.PythonException")
    assert isinstance(thrown, PythonException)
    assert str(thrown.pythonType()) == "test_exceptions.ConfigError"
    assert str(thrown.getMessage()) == "test_exceptions.ConfigError: bad learning rate -1"
    assert 'raise ConfigError("bad learning rate -1") from e' in str(thrown.pythonTraceback())
    assert [str(c) for c in CallingBack().causeChain(thrown)] == [
        "org.jhooks.bridge.PythonException: test_exceptions.ConfigError: bad learning rate -1",
        "org.jhooks.bridge.PythonException: builtins.LookupError: learning_rate",
    ]
    frames = [(str(f.getClassName()), str(f.getMethodName())) for f in thrown.getStackTrace()]
    assert frames[0] == ("<python>.test_exceptions", "afterSessionRun")
    # then the Java frames that called into Python
    assert ("org.jhooks.bridge.PythonHook", "afterSessionRun") in frames
    assert frames[-1][0] in ("org.jhooks.bridgetest.CallingBack", "java.lang.Thread") or any(
        c == "org.jhooks.bridgetest.CallingBack" for c, _ in frames
    )
    cause_frames = [(str(f.getClassName()), str(f.getMethodName())) for f in thrown.getCause().getStackTrace()]
    assert cause_frames[0] == ("<python>.test_exceptions", "parse_config")
    printed = java_stack_trace(thrown)
    assert (
        "at <python>.test_exceptions.parse_config(" in printed
        and "Caused by: org.jhooks.bridge.PythonException" in printed
    )


def test_the_original_python_exception_comes_back_when_it_returns_to_python():
    original = None

    class Remember(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            nonlocal original
            original = ArithmeticError("step 3 diverged")
            raise original

    Trigger = jpype.JClass("org.jhooks.testing.Trigger")
    with pytest.raises(ArithmeticError) as e:
        call_java(Trigger.afterSessionRunConcurrently, as_java_hook(Remember()), 1, 1, 60_000)
    assert e.value is original


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no str")


def test_an_exception_whose_str_fails_still_reaches_java_with_its_type_and_stack():
    class Raising(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            raise Unprintable()

    thrown = CallingBack().afterSessionRunThrown(as_java_hook(Raising()))
    assert [str(c) for c in CallingBack().causeChain(thrown)] == [
        "org.jhooks.bridge.PythonException: test_exceptions.Unprintable: <exception str() failed>"
    ]
    assert str(thrown.getStackTrace()[0].getMethodName()) == "afterSessionRun"


def test_a_three_level_cause_chain_crosses_both_ways():
    class Raising(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            try:
                try:
                    raise LookupError("level3")
                except LookupError as e:
                    raise OSError("level2") from e
            except OSError as e:
                raise ConfigError("level1") from e

    thrown = CallingBack().afterSessionRunThrown(as_java_hook(Raising()))
    assert [str(c) for c in CallingBack().causeChain(thrown)] == [
        "org.jhooks.bridge.PythonException: test_exceptions.ConfigError: level1",
        "org.jhooks.bridge.PythonException: builtins.OSError: level2",
        "org.jhooks.bridge.PythonException: builtins.LookupError: level3",
    ]
    # and back: the original Python objects, chain intact
    with pytest.raises(ConfigError) as e:
        call_java(CallingBack().rethrow, thrown)
    assert [str(e.value), str(e.value.__cause__), str(e.value.__cause__.__cause__)] == ["level1", "level2", "level3"]


def test_implicit_context_becomes_the_java_cause():
    try:
        try:
            raise OSError("disk full")
        except OSError:
            raise ConfigError("could not save")  # noqa: B904 (the implicit context is what is tested)
    except ConfigError as e:
        java = to_java(e)
    assert [str(c) for c in CallingBack().causeChain(java)] == [
        "org.jhooks.bridge.PythonException: test_exceptions.ConfigError: could not save",
        "org.jhooks.bridge.PythonException: builtins.OSError: disk full",
    ]


def test_a_java_exception_reaches_python_with_class_message_stack_and_cause(java_log):
    hook = JavaHook("org.jhooks.bridgetest.FailingHook", "loss is NaN")
    with pytest.raises(jpype.JClass("java.lang.IllegalStateException")) as e:
        hook.afterSessionRun(jhooks.SessionRunContext(jhooks.SessionRunArgs(), None), jhooks.SessionRunValues())
    err = e.value
    assert type_name(err) == "java.lang.IllegalStateException"
    assert str(err) == "java.lang.IllegalStateException: hook failed: loss is NaN"
    assert str(err.getCause().getClass().getName()) == "java.lang.ArithmeticException"
    printed = "".join(traceback.format_exception(err))
    assert "java.lang.IllegalStateException: hook failed: loss is NaN" in printed
    assert "at org.jhooks.bridgetest.FailingHook.afterSessionRun(FailingHook.java" in printed
    assert "Caused by: java.lang.ArithmeticException: / by zero" in printed
    assert "at org.jhooks.bridgetest.FailingHook.divide(FailingHook.java" in printed
    # the type as Python prints it: the Java class name once (JPype's class read java.lang.java.lang....)
    assert traceback.format_exception_only(err)[0].startswith("java.lang.IllegalStateException: ")
    assert "java.lang.java.lang" not in printed


def test_no_exception_is_lost_on_a_java_thread_python_did_not_start():
    seen = []

    class Listener(jhooks.CheckpointSaverListener):
        def afterSave(self, session, globalStep):
            seen.append(globalStep)
            raise OSError(f"cannot upload checkpoint {globalStep}")

    Trigger = jpype.JClass("org.jhooks.testing.Trigger")
    with pytest.raises(OSError, match="cannot upload checkpoint 42"):
        call_java(Trigger.afterSaveOnThread, as_java_listener(Listener()), None, 42)
    assert seen == [42]


def test_a_java_listener_exception_reaches_python():
    listener = JavaCheckpointSaverListener("org.jhooks.bridgetest.FailingListener")
    with pytest.raises(jpype.JClass("java.io.UncheckedIOException"), match="upload failed at 7") as e:
        listener.afterSave(None, 7)
    assert "Caused by: java.io.IOException: network down" in "".join(traceback.format_exception(e.value))
