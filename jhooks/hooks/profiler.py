"""ProfilerHook: writes Chrome trace files of sampled runs (twin of the Java class)."""

from __future__ import annotations

import logging
import os
from typing import Any

import numpy as np

from jhooks.api.hook import Hook
from jhooks.api.run_args import RunOptions, SessionRunArgs
from jhooks.hooks.hook_event_writer import HookEventWriter
from jhooks.hooks.timer import SecondOrStepTimer

logger = logging.getLogger(__name__)

FULL_TRACE = 3


class ProfilerHook(Hook):
    """Every ``saveSteps`` global steps or ``saveSecs`` seconds asks for a FULL_TRACE of the run
    and writes ``<outputDir>/timeline-<global step>.json`` in Chrome trace format (chrome://tracing,
    Perfetto) from the run's ``RunMetadata.step_stats``.

    Mirrors ``tf.compat.v1.train.ProfilerHook``: the first run only starts the timer (no trace); a
    later run is traced when the timer fires for the step after the last one seen; after a traced
    run the global step is re-read with a raw run and names the file; INFO ``"Saving timeline for
    %d into '%s'."``; the run's ``RunMetadata`` goes to the event file of ``outputDir`` (shared per
    directory, as TF's ``SummaryWriterCache``) tagged ``step_<global step>``, for TensorBoard's
    per-run compute time and memory. The trace is TF's ``timeline.Timeline(step_stats).
    generate_chrome_trace_format(show_dataflow, show_memory)`` (Java builds the same JSON itself,
    :meth:`chromeTrace`).

    Args:
        saveSteps: trace every this many global steps (int > 0), or None.
        saveSecs: trace every this many seconds (float > 0), or None.
        outputDir: directory of the trace files and the event file (created if missing; default the
            working directory).
        showDataflow: flow arrows between producers and consumers of tensors (default True).
        showMemory: tensor lifetimes and per-allocator memory counters (default False).

    Raises:
        ValueError: both or neither of saveSteps/saveSecs (TF's timer texts).
    """

    def __init__(
        self,
        saveSteps: int | None = None,
        saveSecs: float | None = None,
        outputDir: str = "",
        showDataflow: bool = True,
        showMemory: bool = False,
    ) -> None:
        self._timer = SecondOrStepTimer(everySecs=saveSecs, everySteps=saveSteps)
        self._outputDir = outputDir
        self._showDataflow = showDataflow
        self._showMemory = showMemory
        self._nextStep: int | None = None
        self._requestTrace = False
        self._written: list[str] = []
        self._events = HookEventWriter(None, outputDir or os.curdir)

    def writtenFiles(self) -> list[str]:
        """Paths of the trace files written so far, in order."""
        return list(self._written)

    def begin(self) -> None:
        self._nextStep = None
        self._events.open()

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        self._requestTrace = self._nextStep is not None and self._timer.shouldTriggerForStep(self._nextStep)
        options = RunOptions(traceLevel=FULL_TRACE) if self._requestTrace else None
        return SessionRunArgs({"global_step": runContext.session.globalStepTensorName()}, options=options)

    def afterSessionRun(self, runContext: Any, runValues: Any) -> None:
        stale = int(np.asarray(runValues.results["global_step"]))
        if self._nextStep is None:
            self._timer.updateLastTriggeredStep(stale)
        step = stale + 1
        if self._requestTrace:
            step = runContext.session.globalStep()
            self._timer.updateLastTriggeredStep(step)
            self._save(step, runValues.runMetadata)
        self._nextStep = step + 1

    def end(self, session: Any) -> None:
        self._events.end()

    def _save(self, step: int, runMetadata: Any) -> None:
        path = os.path.join(self._outputDir, f"timeline-{step}.json")
        logger.info("Saving timeline for %d into '%s'.", step, os.path.abspath(path))  # absolute, as in Java
        trace = ProfilerHook.chromeTrace(runMetadata, self._showDataflow, self._showMemory)
        if self._outputDir:
            os.makedirs(self._outputDir, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(trace)
        self._written.append(path)
        events = self._events.get()
        if events is not None:  # None when a session skipped begin (TF's hooks always get it)
            metadata = runMetadata if isinstance(runMetadata, (bytes, bytearray)) else runMetadata.SerializeToString()
            events.addRunMetadata(f"step_{step}", metadata)

    @staticmethod
    def chromeTrace(runMetadata: Any, showDataflow: bool = True, showMemory: bool = False) -> str:
        """The Chrome trace JSON (str) of a ``RunMetadata`` proto or its serialized bytes: TF's
        ``timeline.Timeline(step_stats).generate_chrome_trace_format(showDataflow, showMemory)``.

        Raises:
            ValueError: ``runMetadata`` is None (the run returned none).
        """
        from tensorflow.core.protobuf import config_pb2
        from tensorflow.python.client import timeline

        if runMetadata is None:
            raise ValueError("ProfilerHook: the traced run returned no RunMetadata")
        if isinstance(runMetadata, (bytes, bytearray)):
            runMetadata = config_pb2.RunMetadata.FromString(bytes(runMetadata))
        stats = type(runMetadata.step_stats)()
        stats.CopyFrom(runMetadata.step_stats)  # Timeline assigns lanes into the proto it is given
        return str(
            timeline.Timeline(stats).generate_chrome_trace_format(show_dataflow=showDataflow, show_memory=showMemory)
        )
