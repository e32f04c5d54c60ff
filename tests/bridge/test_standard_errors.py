"""Java's standard exceptions are Python's built-in ones for a Python caller, and a Python hook's
built-in exception is Java's standard one for a Java caller (jhooks.bridge.convert.standard_errors).

Directions: a Python caller of a Java hook (constructing it, a Python session running it), of a JVM
session with Java hooks, and of any Java method directly through JPype; a Java caller of a Python
hook in a JVM session. Each Java exception is one the JDK itself throws, from a real Java hook.
"""

from __future__ import annotations

import jpype
import pytest
from test_bad_inputs import J, java_list, run_python_driver

import jhooks
from jhooks.bridge import JavaHook, as_java_hook
from jhooks.bridge.process.calls import call_java

# ThrowingHook's kind -> (the Java class the JDK throws, the Python type a Python caller catches)
JDK_THROWS = {
    "NumberFormat": ("java.lang.NumberFormatException", ValueError),
    "IllegalState": ("java.lang.IllegalStateException", RuntimeError),
    "UnsupportedOperation": ("java.lang.UnsupportedOperationException", NotImplementedError),
    "Arithmetic": ("java.lang.ArithmeticException", ArithmeticError),
    "ClassCast": ("java.lang.ClassCastException", TypeError),
    "NoSuchElement": ("java.util.NoSuchElementException", LookupError),
    "IndexOutOfBounds": ("java.lang.IndexOutOfBoundsException", IndexError),
}


def test_a_java_hooks_refused_argument_is_a_value_error_and_an_illegal_argument_exception():
    # TF's StopAtStepHook(num_steps=1, last_step=2) raises ValueError with this text
    with pytest.raises(ValueError, match="^java.lang.IllegalArgumentException: Only one of num_steps or last_step"):
        JavaHook("org.jhooks.hooks.StopAtStepHook", 1, 2)
    with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException")) as e:
        JavaHook("org.jhooks.hooks.StopAtStepHook", numSteps=1, lastStep=2)
    assert str(e.value.getMessage()) == "Only one of num_steps or last_step can be specified."


@pytest.mark.parametrize("kind", sorted(JDK_THROWS))
def test_a_java_hooks_standard_exception_in_a_python_session_is_the_python_type(kind):
    java_class, python_type = JDK_THROWS[kind]
    with pytest.raises(python_type) as e:
        run_python_driver([JavaHook(J("ThrowingHook")(kind))])
    assert isinstance(e.value, jpype.JClass(java_class))  # still the Java exception, stack and all
    assert any("at org.jhooks.bridgetest.ThrowingHook.afterSessionRun" in n for n in e.value.__notes__)


@pytest.mark.parametrize("kind", sorted(JDK_THROWS))
def test_a_java_hooks_standard_exception_in_a_jvm_session_driven_from_python_is_the_python_type(kind):
    java_class, python_type = JDK_THROWS[kind]
    with pytest.raises(python_type) as e:
        call_java(J("JvmDriver").run, java_list(J("ThrowingHook")(kind)), 3, None)
    assert isinstance(e.value, jpype.JClass(java_class))


@pytest.mark.parametrize("kind", sorted(JDK_THROWS))
def test_a_direct_jpype_call_raises_the_python_type_too(kind):
    """No jhooks code between: JvmDriver.run called as any Java method."""
    java_class, python_type = JDK_THROWS[kind]
    with pytest.raises(python_type) as e:
        J("JvmDriver").run(java_list(J("ThrowingHook")(kind)), 3, None)
    assert isinstance(e.value, jpype.JClass(java_class))


def test_python_code_still_constructs_raises_and_catches_the_java_classes():
    IllegalArgument = jpype.JClass("java.lang.IllegalArgumentException")
    cause = jpype.JClass("java.lang.RuntimeException")("inner")
    made = IllegalArgument("outer", cause)
    assert str(made.getMessage()) == "outer" and made.getCause().equals(cause)
    assert isinstance(made, ValueError)
    with pytest.raises(IllegalArgument):
        raise jpype.JClass("java.lang.NumberFormatException")("not a number")
    unsupported = jpype.JClass("java.lang.UnsupportedOperationException")()
    assert unsupported.getMessage() is None and isinstance(unsupported, NotImplementedError)
    with pytest.raises(TypeError, match="no public constructor"):
        IllegalArgument(1, 2, 3)


class Raising(jhooks.Hook):
    def __init__(self, make):
        self.make = make
        self.raised = None

    def afterSessionRun(self, runContext, runValues):
        self.raised = self.make()
        raise self.raised


# What a Python hook raises -> the Java class a Java caller catches
PYTHON_RAISES = {
    "ValueError": (lambda: ValueError("learning rate -1 is not positive"), "java.lang.IllegalArgumentException"),
    "TypeError": (lambda: TypeError("a str is not a tensor"), "java.lang.IllegalArgumentException"),
    "RuntimeError": (lambda: RuntimeError("the hook is in the wrong state"), "java.lang.IllegalStateException"),
    "NotImplementedError": (lambda: NotImplementedError("no list"), "java.lang.UnsupportedOperationException"),
    "IndexError": (lambda: IndexError("list index out of range"), "java.lang.IndexOutOfBoundsException"),
    "KeyError": (lambda: KeyError("learning_rate"), "java.util.NoSuchElementException"),
    "ArithmeticError": (lambda: ZeroDivisionError("division by zero"), None),  # a subclass: stays a carrier
}


@pytest.mark.parametrize("kind", sorted(PYTHON_RAISES))
def test_a_python_hooks_builtin_exception_reaches_a_java_caller_as_javas_standard_exception(kind):
    make, java_class = PYTHON_RAISES[kind]
    hook = Raising(make)
    thrown = J("JvmDriver").runCatching(java_list(as_java_hook(hook)), 3)
    carrier_class = jpype.JClass("org.jhooks.bridge.PythonException")
    python_type = f"builtins.{type(hook.raised).__name__}"
    if java_class is None:
        assert isinstance(thrown, carrier_class) and str(thrown.pythonType()) == python_type
        return
    assert str(thrown.getClass().getName()) == java_class
    assert str(thrown.getMessage()) == str(hook.raised)
    carrier = thrown.getCause()
    assert isinstance(carrier, carrier_class) and str(carrier.pythonType()) == python_type
    assert "<python>.test_standard_errors.afterSessionRun" in str(thrown.getStackTrace()[0])


@pytest.mark.parametrize("kind", sorted(PYTHON_RAISES))
def test_a_python_hooks_builtin_exception_comes_back_to_a_python_caller_as_the_original(kind):
    make, _ = PYTHON_RAISES[kind]
    hook = Raising(make)
    with pytest.raises(BaseException) as e:
        call_java(J("JvmDriver").run, java_list(as_java_hook(hook)), 3, None)
    assert e.value is hook.raised


def test_a_subclass_of_a_builtin_stays_a_carrier_naming_its_python_type():
    class ConfigError(ValueError):
        pass

    hook = Raising(lambda: ConfigError("bad config"))
    thrown = J("JvmDriver").runCatching(java_list(as_java_hook(hook)), 3)
    assert isinstance(thrown, jpype.JClass("org.jhooks.bridge.PythonException"))
    assert str(thrown.pythonType()).endswith("ConfigError")
