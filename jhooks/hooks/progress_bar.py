"""ProgressBarHook: training progress over the global step, drawn with tqdm on a terminal and as
periodic log-style lines elsewhere (no TF twin; the Java twin follows the same rules).

The rules, the same in both languages (docs/standard-hooks.md, "Progress bars"):

- progress is sampled (global step and ``tensors`` fetched) at most every ``MIN_INTERVAL_SECS``
  (0.2 s), on the first run and at ``end``; a run between samples costs one clock read;
- on a terminal the bar is redrawn in place at each sample (tqdm) and log records of both
  languages are printed above it, never on its line;
- elsewhere (a pipe, a file, a CI log, or a terminal whose width is unknown or 0 columns, where a
  bar cannot be drawn) a line such as ``200/2000 steps (10%), 1.6 s, 125.0 step/s,
  loss=0.25`` is printed when a sample reaches the next 10 % of the total, when
  ``LINE_INTERVAL_SECS`` (30 s) passed since the last line, and at ``end``.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs

_GLOBAL_STEP = "globalStep"
_TENSORS = "tensors"

MIN_INTERVAL_SECS = 0.2
"""Least time between two samples (and so redraws) of a bar, both languages."""
LINE_FRACTION = 0.1
"""Not on a terminal: a line each time a sample reaches the next tenth of the total."""
LINE_INTERVAL_SECS = 30.0
"""Not on a terminal: a line at least this often while the position moves."""


class ProgressBarHook(Hook):
    """Draws training progress over the global step (module doc: the rules shared with Java).

    The bar starts at the global step read after session creation: its total is
    ``lastStep - that step`` (open-ended when ``lastStep`` is None). At each sample it moves to
    the global step fetched with the run (the value before the run's increment, so it lags one
    step; ``end`` re-reads it) and shows ``tensors`` as ``tag=value`` (``%.4g`` for scalars).
    Closed in ``end``.

    Args:
        lastStep: the global step at which training ends, or None.
        tensors: list of tensor names (tag = name) or ``{tag: tensor name}``, or None.
        everyNIter: sample at most every N runs (int > 0), and at most every
            ``MIN_INTERVAL_SECS``.
        stream: file object for the bar; default ``sys.stderr``. A terminal (``isatty()``) of a
            known width gets the tqdm bar, anything else the periodic lines.

    Raises:
        ValueError: ``everyNIter <= 0`` (``"invalid every_n_iter=0."``, shared with Java).
    """

    MIN_INTERVAL_SECS = MIN_INTERVAL_SECS

    def __init__(
        self,
        lastStep: int | None = None,
        tensors: None | Sequence[str] | Mapping[str, str] = None,
        everyNIter: int = 1,
        stream: TextIO | None = None,
    ) -> None:
        if everyNIter is None or everyNIter <= 0:
            raise ValueError(f"invalid every_n_iter={everyNIter}.")
        self._lastStep = lastStep
        if tensors is None:
            self._tensors = {}
        elif isinstance(tensors, Mapping):
            self._tensors = dict(tensors)
        else:
            self._tensors = {name: name for name in tensors}
        self._everyNIter = everyNIter
        self._stream = stream
        self._display: BarDisplay | None = None  # from the first afterCreateSession until end
        self._start = 0
        self._shown = 0
        self._iter = 0
        self._lastSample = -math.inf
        self._postfix = ""

    def position(self) -> int:
        """Global steps done since the bar started, as shown."""
        return self._shown

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        if self._display is not None:
            return  # a re-created session (recovery) continues the same bar
        self._start = session.globalStep()
        total = None if self._lastStep is None else max(self._lastStep - self._start, 0)
        self._display = BarDisplay(total, self._stream)

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs | None:
        if self._iter % self._everyNIter != 0:
            return None
        now = time.monotonic()
        if now - self._lastSample < MIN_INTERVAL_SECS:
            return None
        self._lastSample = now
        fetches: dict = {_GLOBAL_STEP: runContext.session.globalStepTensorName()}
        if self._tensors:
            fetches[_TENSORS] = dict(self._tensors)
        return SessionRunArgs(fetches)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        self._iter += 1
        if runValues.results is None or self._display is None:
            return
        if self._tensors:
            self._postfix = ", ".join(f"{tag}={_show(v)}" for tag, v in runValues.results[_TENSORS].items())
        self._shown = max(self._shown, int(runValues.results[_GLOBAL_STEP]) - self._start)
        self._display.show(self._shown, self._postfix)

    def end(self, session: Any) -> None:
        if self._display is None:
            return
        self._shown = max(self._shown, session.globalStep() - self._start)
        self._display.show(self._shown, self._postfix)
        self._display.close()
        self._display = None


class BarDisplay:
    """What a bar looks like on ``stream`` (default ``sys.stderr``): a tqdm bar on a terminal,
    periodic lines elsewhere (module doc). Used by :class:`ProgressBarHook` and, in a JVM that
    Python drives, by ``org.jhooks.hooks.ProgressBarHook`` (its ``Display``), so that bars of
    both languages follow one set of rules and keep off the log lines' way.

    Args:
        total: steps of a full bar, or None (open-ended).
        stream: a text stream; default ``sys.stderr``.
    """

    def __init__(self, total: int | None = None, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._total = None if total is None else int(total)
        self._began = time.monotonic()
        self._position = 0
        self._postfix = ""
        self._bar: Any = None
        self._linePosition: int | None = None  # position of the last line printed
        self._lineTime = self._began
        self._nextFraction = LINE_FRACTION
        if _bar_fits(self._stream):
            from tqdm import tqdm

            _logs_above_bars.acquire(self._stream)
            self._bar = tqdm(
                total=self._total, unit="step", file=self._stream, mininterval=MIN_INTERVAL_SECS, dynamic_ncols=True
            )

    def show(self, position: Any, postfix: Any = None) -> None:
        """Moves to ``position`` steps done, with ``postfix`` (``"loss=0.25"``) after the rate."""
        self._position = int(position)
        self._postfix = "" if postfix is None else str(postfix)
        if self._bar is not None:
            self._bar.set_postfix_str(self._postfix, refresh=False)
            if self._position > self._bar.n:
                self._bar.update(self._position - self._bar.n)
            return
        now = time.monotonic()
        due = now - self._lineTime >= LINE_INTERVAL_SECS and self._position != self._linePosition
        if self._total:
            fraction = self._position / self._total
            if fraction >= self._nextFraction:
                due = True
                self._nextFraction = (math.floor(fraction / LINE_FRACTION + 1e-9) + 1) * LINE_FRACTION
        if due:
            self._line(now)

    def close(self) -> None:
        """Draws the last state (a last line when it was not printed yet)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
            _logs_above_bars.release()
        elif self._position != self._linePosition:
            self._line(time.monotonic())

    def _line(self, now: float) -> None:
        elapsed = now - self._began
        rate = self._position / elapsed if elapsed > 0 else 0.0
        if self._total:
            done = f"{self._position}/{self._total} steps ({math.floor(100 * self._position / self._total)}%)"
        else:
            done = f"{self._position} steps"
        text = f"{done}, {elapsed:.1f} s, {rate:.1f} step/s"
        if self._postfix:
            text += ", " + self._postfix
        self._stream.write(text + "\n")
        self._stream.flush()
        self._linePosition, self._lineTime = self._position, now


def _bar_fits(stream: Any) -> bool:
    """Whether ``stream`` is a terminal that reports a width: tqdm draws nothing at all in 0
    columns, and a pseudo-terminal without a size (some CI runners, ``docker run -t``) reports 0."""
    try:
        return bool(stream.isatty()) and os.get_terminal_size(stream.fileno()).columns > 0
    except (AttributeError, ValueError, OSError):
        return False


class _AboveBars:
    """A console stream of a logging handler, written through ``tqdm.write``: the bars on the
    terminal are cleared first and redrawn after, so a record never lands on a bar's line."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> None:
        from tqdm import tqdm

        tqdm.write(text, file=self.wrapped, end="")

    def flush(self) -> None:
        self.wrapped.flush()


class _LogsAboveBars:
    """While a terminal bar is open, the console handlers (stream ``sys.stdout``, ``sys.stderr`` or
    the bar's) of every logger, and logging's last-resort handler, write through :class:`_AboveBars`.

    Streams are wrapped in place (not handlers replaced as ``tqdm.contrib.logging`` does) so each
    handler keeps its level, filters and formatter."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = 0
        self._wrapped: list[logging.StreamHandler] = []
        self._lastResort: logging.Handler | None = None

    def acquire(self, stream: TextIO) -> None:
        with self._lock:
            self._open += 1
            if self._open > 1:
                return
            consoles = (sys.stdout, sys.stderr, stream)
            root = logging.getLogger()
            loggers = [root] + [x for x in list(root.manager.loggerDict.values()) if isinstance(x, logging.Logger)]
            for logger in loggers:
                for handler in list(logger.handlers):
                    if (
                        isinstance(handler, logging.StreamHandler)
                        and not isinstance(handler, logging.FileHandler)
                        and handler.stream in consoles
                        and not isinstance(handler.stream, _AboveBars)
                    ):
                        handler.setStream(_AboveBars(handler.stream))
                        self._wrapped.append(handler)
            self._lastResort = logging.lastResort
            if self._lastResort is not None:
                replacement = logging.StreamHandler(_AboveBars(sys.stderr))
                replacement.setLevel(self._lastResort.level)
                logging.lastResort = replacement

    def release(self) -> None:
        with self._lock:
            self._open -= 1
            if self._open > 0:
                return
            for handler in self._wrapped:
                if isinstance(handler.stream, _AboveBars):
                    handler.setStream(handler.stream.wrapped)
            self._wrapped.clear()
            if self._lastResort is not None:
                logging.lastResort = self._lastResort
                self._lastResort = None


_logs_above_bars = _LogsAboveBars()


def _show(value: Any) -> str:
    try:
        return f"{float(value):.4g}"
    except (TypeError, ValueError):
        return str(value)
