"""Ctrl-C in ``python -m jhooks demo``: a real SIGINT to a real demo process, while the JVM trains
with Python hooks (part 1) and while Python trains with Java hooks (part 2). It prints one line, no
traceback, and exits 130 (docs/bridge.md). Before: tracebacks, and exit 1 or death by SIGINT.

CI runs each part once; the slow test (``-m slow``) repeats each ten times at varied moments."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INTERRUPTED = "python -m jhooks demo: interrupted (Ctrl-C)"

# part: (JVM steps, a log line printed while that part trains)
PARTS = {
    "jvm": ("100000", re.compile(r"jhooks\.hooks\.logging_tensor: loss")),
    "python": ("20", re.compile(r"org\.jhooks\.hooks\.LoggingTensorHook: loss")),
}


def interrupt_demo(out, part: str, delay: float) -> tuple[int, list[str], list[str]]:
    """Starts the demo, sends SIGINT ``delay`` seconds after the first log line of ``part``, and
    returns its exit status, the lines before the signal and the lines after it."""
    steps_jvm, training = PARTS[part]
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    command = [sys.executable, "-m", "jhooks", "demo", "--steps-jvm", steps_jvm, "--steps-python", "100000"]
    command += ["--save-steps", "25", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    before: list[str] = []
    after: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            before.append(line)
            if training.search(line):
                time.sleep(delay)
                proc.send_signal(signal.SIGINT)
                break
        after.extend(proc.stdout)
        status = proc.wait(timeout=300)  # generous: the bound itself is the signal watchdog's
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return status, before, after


def check_interrupted(status: int, before: list[str], after: list[str]) -> None:
    shown = "".join(before[-20:]) + "--- SIGINT ---\n" + "".join(after)
    assert any(PARTS_LINE.search(line) for line in before), shown  # the signal came while training
    assert status == 130, shown
    assert not [line for line in after if "Traceback" in line or "Exception" in line], shown
    assert [line.rstrip("\n") for line in after if "interrupted" in line] == [INTERRUPTED], shown
    assert after and after[-1].rstrip("\n") == INTERRUPTED, shown


PARTS_LINE = re.compile("|".join(p.pattern for _, p in PARTS.values()))


@pytest.mark.timeout(900)
@pytest.mark.parametrize("part", PARTS)
def test_ctrl_c_in_the_demo_prints_one_line_and_exits_130(tmp_path, part):
    check_interrupted(*interrupt_demo(tmp_path / "out", part, delay=0.5))


@pytest.mark.slow
@pytest.mark.timeout(4 * 3600)
@pytest.mark.parametrize("part", PARTS)
def test_ctrl_c_in_the_demo_ten_times_at_varied_moments(tmp_path, part):
    for attempt in range(10):
        check_interrupted(*interrupt_demo(tmp_path / f"out{attempt}", part, delay=0.37 * attempt))
