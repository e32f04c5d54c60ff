"""Progress bars of both languages under both drivers, in real processes with real output:

- on a pipe: periodic log-style lines (a tenth of the total each), never a carriage return;
- on a terminal (a pseudo-terminal): at most one redraw per 0.2 s (2,000 fast steps);
- log records of both languages (Java's LoggingTensorHook, a Python hook) never on the bar's line.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest

from jhooks.bridge.process.classpath import classpath
from jhooks.bridge.process.runtime import jvm_args
from jhooks.demo.data import DEFAULT_CSV

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TEST_CLASSES = os.path.join(REPO, "build", "bridge-test-classes")  # compiled by conftest
STEPS, LOG_EVERY = 2000, 500
LOG_RECORD = re.compile(r"step = \d+|python record at run \d+")
PROGRESS_LINE = re.compile(r"\d+/2000 steps \(\d+%\), [\d.]+ s, [\d.]+ step/s(, loss=\S+)?")

APP = ["org.jhooks.bridgetest.BarApp", DEFAULT_CSV, str(STEPS), str(LOG_EVERY)]
CASES = {
    "python-driver-python-bar": [sys.executable, os.path.join(HERE, "bar_training.py"), str(STEPS), str(LOG_EVERY)],
    "python-driver-java-bar": [sys.executable, os.path.join(HERE, "bar_training.py"), str(STEPS), str(LOG_EVERY)],
    "jvm-driver-java-bar": ["java", *jvm_args(None), "-cp", os.pathsep.join([*classpath(), TEST_CLASSES]), *APP],
    "launcher-java-bar": [sys.executable, "-m", "jhooks", "java", "--classpath", TEST_CLASSES, APP[0], "--", *APP[1:]],
    "launcher-python-bar": [
        sys.executable,
        "-m",
        "jhooks",
        "java",
        "--classpath",
        TEST_CLASSES,
        APP[0],
        "--",
        *APP[1:],
    ],
}


def bar_language(case):
    return case.rsplit("-", 2)[1]


def run(case, terminal, columns=160):
    """The process's output (stdout and stderr together on a terminal of ``columns`` columns,
    stderr on a pipe) and the seconds its training loop took."""
    argv = CASES[case] + [bar_language(case)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, HERE]), TF_CPP_MIN_LOG_LEVEL="2")
    if not terminal:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=240, env=env, cwd=HERE)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stderr, float(re.search(r"^elapsed (\S+)$", done.stdout, re.M).group(1))
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40 if columns else 0, columns, 0, 0))
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.ONLCR  # keep "\n" as written: a "\r" in the output is the bar's own
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, cwd=HERE)
    os.close(slave)
    chunks = []
    try:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
        returncode = proc.wait(timeout=240)
    text = b"".join(chunks).decode("utf-8", "replace")
    assert returncode == 0, text[-3000:]
    return text, float(re.search(r"^elapsed (\S+)$", text, re.M).group(1))


def log_lines(text):
    return [line for line in text.split("\n") if LOG_RECORD.search(line)]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", list(CASES))
def test_on_a_pipe_the_bar_prints_periodic_lines(case):
    text, elapsed = run(case, terminal=False)
    assert "\r" not in text
    progress = [line for line in text.split("\n") if PROGRESS_LINE.fullmatch(line)]
    # a line per tenth reached at a sample (samples 0.2 s apart), one every 30 s, the last at the end;
    # a run shorter than two samples (the JVM driver can do the 2,000 steps in 0.2 s) has the last only
    assert (2 if elapsed >= 0.4 else 1) <= len(progress) <= 11 + int(elapsed // 30), text[-3000:]
    assert progress[-1].startswith("2000/2000 steps (100%), "), progress
    logs = log_lines(text)
    assert len(logs) == (4 if case.startswith("jvm") or case.startswith("launcher") else 8), text[-3000:]
    assert all("step/s" not in line for line in logs), logs


@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", list(CASES))
def test_on_a_terminal_the_bar_redraws_at_most_five_times_a_second_and_never_under_a_log_line(case):
    text, elapsed = run(case, terminal=True)
    logs = log_lines(text)
    # a sample every 0.2 s at most, plus the first, the end and the close, and a redraw after each record
    draws = text.count("step/s")
    assert draws <= elapsed / 0.2 + 3 + len(logs), (draws, elapsed)
    if case == "jvm-driver-java-bar":
        assert "2000/2000 [" + "#" * 30 + "] 100% " in text  # the Java text bar
    else:  # Python draws every bar of a Python-driven process, with tqdm
        assert re.search(r"100%\|[^\r\n]*\| 2000/2000 \[", text), text[-2000:]
    assert len(logs) == (4 if case.startswith("jvm") or case.startswith("launcher") else 8), text[-3000:]
    for line in logs:
        shown = line.split("\r")[-1]  # what stays on the terminal's line
        assert LOG_RECORD.search(shown) and "step/s" not in shown, repr(line)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", ["jvm-driver-java-bar", "python-driver-python-bar", "python-driver-java-bar"])
def test_on_a_terminal_of_zero_columns_the_bar_prints_periodic_lines(case):
    """A pseudo-terminal that reports no size (some CI runners): a bar cannot be drawn there (tqdm
    would print nothing at all), so both languages print the lines of a pipe."""
    text, elapsed = run(case, terminal=True, columns=0)
    assert "\r" not in text, text[-2000:]
    progress = [line for line in text.split("\n") if PROGRESS_LINE.fullmatch(line)]
    # as on a pipe (above): a run shorter than two samples has the last line only
    assert (2 if elapsed >= 0.4 else 1) <= len(progress) <= 11 + int(elapsed // 30), text[-3000:]
    assert progress[-1].startswith("2000/2000 steps (100%), "), progress
