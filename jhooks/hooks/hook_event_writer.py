"""The event writer of a hook that writes summaries (StepCounterHook, SummarySaverHook); twin of
org.jhooks.hooks.HookEventWriter."""

from __future__ import annotations

from typing import Any


class HookEventWriter:
    """The writer the hook was given (flushed in ``end``, never closed), or the shared writer of
    ``outputDir`` (jhooks.hooks.event_writer), acquired in ``begin`` and released in ``end``, so
    a hook used for another session acquires it again."""

    def __init__(self, given: Any, outputDir: str | None) -> None:
        self._given = given
        self._outputDir = outputDir
        self._owned: Any = None

    def open(self) -> None:
        """In ``begin``: acquires the output dir's writer if the hook needs one."""
        if self._given is None and self._owned is None and self._outputDir:
            from jhooks.hooks import event_writer

            self._owned = event_writer.acquire(self._outputDir)

    def get(self) -> Any:
        """The writer to write to, or None when the hook has none."""
        return self._given if self._given is not None else self._owned

    def end(self) -> None:
        """In ``end``: flushes a given writer, releases an acquired one."""
        if self._owned is not None:
            from jhooks.hooks import event_writer

            event_writer.release(self._owned)
            self._owned = None
        elif self._given is not None:
            self._given.flush()
