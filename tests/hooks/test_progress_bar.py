"""ProgressBarHook under TF's MonitoredSession: periodic lines on a stream that is not a terminal,
tqdm on one (a pseudo-terminal), log records kept off the bar's line. Output of real processes for
both languages and drivers: tests/bridge/test_progress_bar_output.py."""

from __future__ import annotations

import fcntl
import io
import logging
import os
import pty
import re
import struct
import termios

import pytest
from hooks_support import Model, in_graph, train

import jhooks
from jhooks.hooks import ProgressBarHook, StopAtStepHook
from jhooks.hooks import progress_bar as progress_bar_module

LINE = re.compile(r"\d+/10 steps \(\d+%\), [\d.]+ s, [\d.]+ step/s, loss=\S+")


def _read_all(master: int) -> str:
    """Everything written to the pseudo-terminal (its writer closed): one read may return a part."""
    chunks = []
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # EIO: no writer left and nothing more to read
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode()


def test_not_a_terminal_gets_lines_for_tenths_and_the_end():
    out = io.StringIO()
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = ProgressBarHook(lastStep=10, tensors={"loss": "loss:0"}, stream=out)
        result = train([StopAtStepHook(lastStep=10), hook], m, 100)
    assert result["runs"] == 10
    assert hook.position() == 10
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue() and all(LINE.fullmatch(line) for line in lines), lines
    assert lines[-1].startswith("10/10 steps (100%), ")
    assert len(lines) <= 10  # one per tenth reached at a sample (0.2 s apart), the end's included


def test_every_n_iter_and_open_ended():
    out = io.StringIO()
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = ProgressBarHook(everyNIter=3, tensors=["xsum:0"], stream=out)
        train([hook], m, 7)
    assert hook.position() == 7  # end() re-reads the global step
    assert re.fullmatch(r"7 steps, [\d.]+ s, [\d.]+ step/s, xsum:0=4\n", out.getvalue())


def test_samples_at_most_every_min_interval(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(progress_bar_module.time, "monotonic", lambda: clock[0])
    fetched = []

    class Ticker(jhooks.Hook):  # advances the clock 1/16 s per run: a sample every 4 runs
        def afterSessionRun(self, runContext, runValues):
            clock[0] += 0.0625

    hook = ProgressBarHook(lastStep=20, stream=io.StringIO())
    original = hook.beforeSessionRun
    hook.beforeSessionRun = lambda ctx: fetched.append(original(ctx)) or fetched[-1]
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([hook, Ticker()], m, 20)
    assert [i for i, f in enumerate(fetched) if f is not None] == [0, 4, 8, 12, 16]


def test_on_a_terminal_tqdm_draws_and_log_records_go_above_the_bar(caplog):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    terminal = os.fdopen(slave, "w", buffering=1)
    console = logging.StreamHandler(terminal)
    console.setFormatter(logging.Formatter("LOG %(message)s"))
    root = logging.getLogger()
    root.addHandler(console)
    logger = logging.getLogger("test_progress_bar")

    class Logs(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            logger.warning("record after a run")

    try:
        _, m = in_graph(Model)
        with m.gs.graph.as_default():
            hook = ProgressBarHook(lastStep=3, stream=terminal)
            train([hook, Logs(), StopAtStepHook(lastStep=3)], m, 10)
        assert console.stream is terminal  # given back after the bar closed
    finally:
        root.removeHandler(console)
        terminal.close()
    text = _read_all(master)
    os.close(master)
    assert "3/3 [" in text and "step/s" in text  # tqdm's bar
    records = [line for line in text.replace("\r\n", "\n").split("\n") if "record after a run" in line]
    assert len(records) == 3
    assert all(line.split("\r")[-1] == "LOG record after a run" for line in records), records


def test_a_terminal_of_zero_columns_gets_the_lines():
    """A pseudo-terminal that reports no size (0 x 0, as some CI runners' do): tqdm would draw
    nothing at all there; the bar prints the periodic lines instead."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 0, 0, 0, 0))
    terminal = os.fdopen(slave, "w", buffering=1)
    try:
        assert terminal.isatty() and os.get_terminal_size(slave).columns == 0
        _, m = in_graph(Model)
        with m.gs.graph.as_default():
            hook = ProgressBarHook(lastStep=10, tensors={"loss": "loss:0"}, stream=terminal)
            train([StopAtStepHook(lastStep=10), hook], m, 100)
    finally:
        terminal.close()
    text = _read_all(master)
    os.close(master)
    lines = text.replace("\r\n", "\n").splitlines()
    assert lines and all(LINE.fullmatch(line) for line in lines), text
    assert lines[-1].startswith("10/10 steps (100%), ")


def test_every_n_iter_must_be_positive():
    with pytest.raises(ValueError, match=r"^invalid every_n_iter=0\.$"):
        ProgressBarHook(everyNIter=0)
