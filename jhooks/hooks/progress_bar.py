"""ProgressBarHook: a tqdm progress bar over the global step (no TF twin; Java draws a text bar)."""

from __future__ import annotations

import sys
from typing import Any, Mapping, Optional, Sequence, TextIO, Union

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.api.session import read_global_step

_GLOBAL_STEP = "globalStep"
_TENSORS = "tensors"


class ProgressBarHook(Hook):
    """Draws training progress over the global step with tqdm.

    The bar starts at the global step read after session creation: its total is
    ``lastStep - that step`` (open-ended when ``lastStep`` is None). Every ``everyNIter`` runs it
    moves to the global step fetched with the run (the value before the run's increment, so it
    lags one step; ``end`` re-reads it) and shows ``tensors`` as postfix ``tag=value`` (``%.4g``
    for scalars). Closed in ``end``.

    Args:
        lastStep: the global step at which training ends, or None.
        tensors: list of tensor names (tag = name) or ``{tag: tensor name}``, or None.
        everyNIter: redraw every N runs (int > 0).
        stream: file object for the bar; default ``sys.stderr``.

    Raises:
        ValueError: ``everyNIter <= 0`` (``"invalid every_n_iter=0."``, shared with Java).
    """

    def __init__(self, lastStep: Optional[int] = None, tensors: Union[None, Sequence[str], Mapping[str, str]] = None,
                 everyNIter: int = 1, stream: Optional[TextIO] = None) -> None:
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
        self._bar = None
        self._start = 0
        self._shown = 0
        self._iter = 0

    def position(self) -> int:
        """Global steps done since the bar started, as shown."""
        return self._shown

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        if self._bar is not None:
            return   # a re-created session (recovery) continues the same bar
        from tqdm import tqdm
        self._start = read_global_step(session)
        total = None if self._lastStep is None else max(self._lastStep - self._start, 0)
        self._bar = tqdm(total=total, unit="step", file=self._stream if self._stream is not None else sys.stderr,
                         dynamic_ncols=False)

    def beforeSessionRun(self, runContext: Any) -> Optional[SessionRunArgs]:
        if self._iter % self._everyNIter != 0:
            return None
        fetches: dict = {_GLOBAL_STEP: runContext.session.globalStepTensorName()}
        if self._tensors:
            fetches[_TENSORS] = dict(self._tensors)
        return SessionRunArgs(fetches)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        self._iter += 1
        if runValues.results is None:
            return
        if self._tensors:
            self._bar.set_postfix_str(", ".join(f"{tag}={_show(v)}" for tag, v in runValues.results[_TENSORS].items()),
                                      refresh=False)
        self._moveTo(int(runValues.results[_GLOBAL_STEP]))

    def end(self, session: Any) -> None:
        if self._bar is None:
            return
        self._moveTo(read_global_step(session))
        self._bar.close()
        self._bar = None

    def _moveTo(self, step: int) -> None:
        done = step - self._start
        if done > self._shown:
            self._bar.update(done - self._shown)
            self._shown = done


def _show(value: Any) -> str:
    try:
        return f"{float(value):.4g}"
    except (TypeError, ValueError):
        return str(value)
