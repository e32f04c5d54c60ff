"""Scaffold: a minimal stand-in for TF's Scaffold (twin of org.jhooks.hooks.Scaffold)."""

from __future__ import annotations

from collections.abc import Sequence

from jhooks.hooks.saver import Saver


class Scaffold:
    """Holds the ``saver`` used by the checkpoint saver hooks and the ``summaryOp`` (a tensor name
    or list of names) used by SummarySaverHook; both may be None."""

    def __init__(self, saver: Saver | None = None, summaryOp: None | str | Sequence[str] = None) -> None:
        self._saver = saver
        self._summaryOp = summaryOp

    def saver(self) -> Saver | None:
        return self._saver

    def summaryOp(self) -> None | str | Sequence[str]:
        return self._summaryOp
