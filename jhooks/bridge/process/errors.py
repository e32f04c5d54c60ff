"""The errors of the process layer: the JVM cannot be used, a Java class is not on its classpath,
or the TensorFlow runtime rule refuses what was asked (jhooks.bridge.process.runtime)."""

from __future__ import annotations


class JvmError(RuntimeError):
    """The JVM cannot be used by jhooks: wrong classpath, wrong TensorFlow, or a conflicting runtime."""


class JavaClassNotFoundError(TypeError):
    """A Java class name that no jar or directory on the JVM's classpath has; the message names the
    class and the classpath searched. A TypeError, as JPype's own lookup failure."""


class TensorFlowVersionError(JvmError):
    """The installed Python TensorFlow is not the build tensorflow-java wraps, so the two cannot share
    one runtime. ``reason`` says why, ``fix`` what to install."""

    def __init__(self, reason: str, fix: str) -> None:
        super().__init__(f"{reason}. {fix}")
        self.reason, self.fix = reason, fix


class TensorFlowRuntimeError(JvmError):
    """The JVM has no TensorFlow runtime for what was asked: none is installed, or the JVM runs Java
    hooks only. ``hook``/``callback`` name the Java hook that needed it, when one did."""

    def __init__(self, reason: str, fix: str, hook: str | None = None, callback: str | None = None) -> None:
        where = f"{hook}.{callback}: " if hook and callback else (f"{hook}: " if hook else "")
        super().__init__(f"{where}{reason}. {fix}")
        self.reason, self.fix, self.hook, self.callback = reason, fix, hook, callback
