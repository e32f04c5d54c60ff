"""Java hooks in a Python session log to Python ``logging`` under the Java logger's name, so the
Python configuration (level, handlers, propagate) decides what happens to them (docs/logging.md).

Real Java hooks (org.jhooks.hooks.LoggingTensorHook through JavaHook) in TensorFlow's Python
MonitoredSession, one JVM for the module.
"""

from __future__ import annotations

import logging
import re

import jpype
import pytest
from hooks_support import Model, in_graph, train

from jhooks.bridge import JavaHook

pytestmark = pytest.mark.timeout(120)

NAME = "org.jhooks.hooks.LoggingTensorHook"


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


@pytest.fixture(autouse=True)
def clean_org_jhooks():
    logger = logging.getLogger("org.jhooks")
    yield logger
    logger.setLevel(logging.NOTSET)
    logger.propagate = True
    for h in list(logger.handlers):
        logger.removeHandler(h)


def java_level(name):
    return getattr(jpype.JClass("java.lang.System$Logger$Level"), name)


def train_with_java_logging_hook(steps=3):
    """Trains ``steps`` steps with a Java LoggingTensorHook logging the global step every run;
    returns the lines the hook formatted."""
    _, m = in_graph(Model)
    java = jpype.JClass(NAME)(jpype.JClass("java.util.List").of("global_step:0"), jpype.JInt(1), None, False, None)
    with m.gs.graph.as_default():
        train([JavaHook(java)], m, steps)
    return [str(line) for line in java.loggedLines()]


def test_records_reach_python_logging_under_the_java_logger_name(caplog):
    caplog.set_level(logging.INFO)
    lines = train_with_java_logging_hook()
    records = [r for r in caplog.records if r.name == NAME]
    assert [re.sub(r" \(\d+\.\d{3} sec\)$", "", line) for line in lines] == [f"global_step:0 = {i}" for i in range(3)]
    assert [r.getMessage() for r in records] == lines
    assert {(r.levelno, r.threadName) for r in records} == {(logging.INFO, "main")}


def test_a_level_on_org_jhooks_silences_them_and_the_java_side_skips_them(caplog, clean_org_jhooks):
    caplog.set_level(logging.INFO)
    java_logger = jpype.JClass("java.lang.System").getLogger(NAME)
    assert java_logger.isLoggable(java_level("INFO"))
    clean_org_jhooks.setLevel(logging.WARNING)
    # Java asks its own level: nothing is formatted nor crosses for a record Python would drop
    assert not java_logger.isLoggable(java_level("INFO"))
    assert java_logger.isLoggable(java_level("WARNING"))
    train_with_java_logging_hook()
    assert [r for r in caplog.records if r.name.startswith("org.jhooks")] == []
    clean_org_jhooks.setLevel(logging.NOTSET)
    assert java_logger.isLoggable(java_level("INFO"))
    logging.disable(logging.INFO)
    try:
        assert not java_logger.isLoggable(java_level("INFO"))
    finally:
        logging.disable(logging.NOTSET)
    assert java_logger.isLoggable(java_level("INFO"))


def test_a_handler_without_propagation_redirects_them(caplog, clean_org_jhooks, tmp_path):
    caplog.set_level(logging.INFO)
    handler = logging.FileHandler(tmp_path / "java.log")
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    clean_org_jhooks.addHandler(handler)
    clean_org_jhooks.propagate = False
    try:
        lines = train_with_java_logging_hook()
    finally:
        handler.close()
    assert (tmp_path / "java.log").read_text().splitlines() == [f"INFO {NAME}: {line}" for line in lines]
    assert [r for r in caplog.records if r.name.startswith("org.jhooks")] == []  # root never saw them


def test_levels_messages_exceptions_and_threads_cross(caplog):
    caplog.set_level(1)
    jul = jpype.JClass("java.util.logging.Logger").getLogger("org.jhooks.test.crossing")
    level = jpype.JClass("java.util.logging.Level")
    for name in ("SEVERE", "WARNING", "INFO", "CONFIG", "FINE", "FINER", "FINEST"):
        jul.log(getattr(level, name), "{0} record {1}", jpype.JArray(jpype.JObject)([name, jpype.JInt(7)]))
    try:
        jpype.JClass("java.lang.Integer").parseInt("x")
    except jpype.JException as e:
        jul.log(level.WARNING, "parse failed", e)
    thread = jpype.JClass("java.lang.Thread")(
        jpype.JProxy("java.lang.Runnable", dict={"run": lambda: jul.info("from a Java thread")}), "jhooks-log-thread"
    )
    thread.start()
    thread.join()

    records = [r for r in caplog.records if r.name == "org.jhooks.test.crossing"]
    assert [(r.levelno, r.getMessage()) for r in records[:7]] == [
        (40, "SEVERE record 7"),
        (30, "WARNING record 7"),
        (20, "INFO record 7"),
        (10, "CONFIG record 7"),
        (10, "FINE record 7"),
        (5, "FINER record 7"),
        (5, "FINEST record 7"),
    ]
    failed = records[7]
    assert failed.getMessage() == "parse failed"
    assert failed.exc_text.startswith('java.lang.NumberFormatException: For input string: "x"')
    assert "at java.base/java.lang.Integer.parseInt" in failed.exc_text
    assert logging.Formatter().format(failed).endswith(failed.exc_text)  # printed under the message
    assert (records[8].getMessage(), records[8].threadName) == ("from a Java thread", "jhooks-log-thread")


def test_unsigned_values_are_logged_as_their_numbers():
    """A Java LoggingTensorHook logged a uint8 240 as -16 and a uint16 48000 as -17536 (the signed
    byte/short of tensorflow-java's ByteNdArray/ShortNdArray); Python's twin logs 240 / 48000."""
    import tensorflow as tf

    def build():
        m = Model()
        tf.constant(240, tf.uint8, name="u8")
        tf.constant([1, 48000], tf.uint16, name="u16")
        tf.constant(-16, tf.int8, name="i8")
        return m

    _, m = in_graph(build)
    tensors = jpype.JClass("java.util.ArrayList")()
    for name in ("u8:0", "u16:0", "i8:0"):
        tensors.add(name)
    java = jpype.JClass(NAME)(tensors, jpype.JInt(1), None, False, None)
    with m.gs.graph.as_default():
        train([JavaHook(java)], m, 1)
    line = re.sub(r" \(\d+\.\d{3} sec\)$", "", str(java.loggedLines()[0]))
    assert line == "u8:0 = 240, u16:0 = [1 48000], i8:0 = -16"


def test_a_record_logged_on_the_interrupted_main_thread_reaches_python_and_the_interrupt_stays(caplog):
    """JPype interrupts the main Java thread on SIGINT/SIGTERM, and the next call into Python from
    that thread throws InterruptedException once. The console dropped the record (an ErrorManager
    message on stderr) and with it the interrupt; it now hands the record over and leaves the
    interrupt for the hook's next call into Python."""
    caplog.set_level(logging.INFO)
    thread = jpype.JClass("java.lang.Thread")
    jul = jpype.JClass("java.util.logging.Logger").getLogger("org.jhooks.test.interrupted")
    thread.currentThread().interrupt()
    try:
        jul.info("logged while interrupted")
    finally:
        still_interrupted = bool(thread.interrupted())  # also clears it for the next test
    assert [r.getMessage() for r in caplog.records if r.name == "org.jhooks.test.interrupted"] == [
        "logged while interrupted"
    ]
    assert still_interrupted


SIGNAL_IN_THE_SINK = """
import logging, os, signal, sys, time
import jpype
from jhooks.bridge.process import jvm

jvm.start()


class SignalWhileLogging(logging.Handler):
    def emit(self, record):
        os.kill(os.getpid(), signal.SIG{sig})
        time.sleep(1.0)  # the signal arrives while Java is handing this record to Python


logging.getLogger("org.jhooks.test.signal").addHandler(SignalWhileLogging())
logging.getLogger("org.jhooks.test.signal").setLevel(logging.INFO)
try:
    jpype.JClass("java.util.logging.Logger").getLogger("org.jhooks.test.signal").info("x")
    print("log call returned", flush=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the program goes on in Python, as a training loop does
        pass
    print("no signal after the log call", flush=True)
except {exception}:
    print("signal raised after the log call", flush=True)
    raise
"""


# an uncaught KeyboardInterrupt ends Python by SIGINT (a shell shows 130)
@pytest.mark.parametrize(
    ("sig", "exception", "status"), [("INT", "KeyboardInterrupt", -2), ("TERM", "SystemExit", 143)]
)
def test_a_signal_while_java_logs_to_python_reaches_the_program_after_the_log_call(sig, exception, status):
    """The console's sink is a Python callback whose errors Java drops (a log call never throws):
    a SIGINT raised inside it was lost (training went on until the watchdog ended the process) or
    printed a Java ErrorManager trace. It now reaches the program once the log call has returned."""
    import subprocess
    import sys

    code = SIGNAL_IN_THE_SINK.format(sig=sig, exception=exception)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=90)
    assert proc.stdout.splitlines() == ["log call returned", "signal raised after the log call"], proc.stderr
    assert proc.returncode == status, proc.stderr
    assert "ErrorManager" not in proc.stderr, proc.stderr
