"""Scaffold: a minimal stand-in for TF's Scaffold (twin of org.jhooks.hooks.Scaffold)."""

from __future__ import annotations

from typing import Optional, Sequence, Union

from jhooks.hooks.saver import Saver


class Scaffold:
    """Holds the ``saver`` used by the checkpoint saver hooks and the ``summaryOp`` (a tensor name
    or list of names) used by SummarySaverHook; both may be None."""

    def __init__(self, saver: Optional[Saver] = None, summaryOp: Union[None, str, Sequence[str]] = None) -> None:
        self._saver = saver
        self._summaryOp = summaryOp

    def saver(self) -> Optional[Saver]:
        return self._saver

    def summaryOp(self) -> Union[None, str, Sequence[str]]:
        return self._summaryOp
