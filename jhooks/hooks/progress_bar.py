"""ProgressBarHook: a tqdm progress bar over global steps (no TF twin; Java prints a text bar)."""

from __future__ import annotations

from typing import Any, Optional

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs
from jhooks.api.session import read_global_step

_GLOBAL_STEP = "globalStep"
_LOSS = "loss"


class ProgressBarHook(Hook):
    """Shows training progress with tqdm (stderr by default).

    The bar starts at the global step read after session creation and advances by the global
    step fetched with each run (the value before the run's increment, so it lags one step; ``end``
    re-reads it). With ``lossTensor`` the loss is shown as postfix ``loss=<%.4g>``.

    Args:
        total: the global step at which training ends (bar's 100%), or None if unknown.
        description: text left of the bar.
        lossTensor: name of a scalar tensor to show, or None.
        **tqdmArgs: passed to ``tqdm.tqdm`` (e.g. ``file``, ``disable``, ``mininterval``).
    """

    def __init__(self, total: Optional[int] = None, description: Optional[str] = None,
                 lossTensor: Optional[str] = None, **tqdmArgs: Any) -> None:
        self._total = total
        self._description = description
        self._lossTensor = lossTensor
        self._tqdmArgs = tqdmArgs
        self._bar = None
        self._lastStep: Optional[int] = None
        self._stepsSeen = 0

    @property
    def stepsSeen(self) -> int:
        """Global steps the bar has advanced by."""
        return self._stepsSeen

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        step = read_global_step(session)
        if self._bar is None:
            from tqdm import tqdm
            self._bar = tqdm(total=self._total, desc=self._description, initial=step, unit="step",
                             **self._tqdmArgs)
        self._lastStep = step

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        fetches = {_GLOBAL_STEP: runContext.session.globalStepTensorName()}
        if self._lossTensor is not None:
            fetches[_LOSS] = self._lossTensor
        return SessionRunArgs(fetches)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        self._advanceTo(int(runValues.results[_GLOBAL_STEP]))
        if self._lossTensor is not None:
            self._bar.set_postfix_str(f"loss={float(runValues.results[_LOSS]):.4g}", refresh=False)

    def end(self, session: Any) -> None:
        self._advanceTo(read_global_step(session))
        self._bar.close()

    def _advanceTo(self, step: int) -> None:
        if step > self._lastStep:
            self._bar.update(step - self._lastStep)
            self._stepsSeen += step - self._lastStep
            self._lastStep = step
