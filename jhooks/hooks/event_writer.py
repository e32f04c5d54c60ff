"""TensorBoard event files for StepCounterHook and SummarySaverHook (tensorboard's writer, no TF).

Uses ``tensorboard.summary.writer.event_file_writer.EventFileWriter`` (installed with TensorFlow),
which writes ``events.out.tfevents.*`` starting with the ``brain.Event:2`` file-version event, the
same records ``tf.compat.v1.summary.FileWriter`` writes. One writer per directory per process
(:func:`writer_for`, like TF's ``SummaryWriterCache``), so two hooks logging into one directory
share one event file.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Dict, Union

from tensorboard.compat.proto import event_pb2, summary_pb2
from tensorboard.summary.writer.event_file_writer import EventFileWriter


class EventWriter:
    """Appends summaries and session logs at a global step to one event file in ``logdir``."""

    def __init__(self, logdir: str) -> None:
        os.makedirs(logdir, exist_ok=True)
        self.logdir = logdir
        self._writer = EventFileWriter(logdir)

    @property
    def path(self) -> str:
        """The event file's path."""
        return self._writer._file_name

    def addSummary(self, summary: Union[bytes, summary_pb2.Summary], globalStep: int) -> None:
        """``summary``: a Summary proto or its serialized bytes (a tf.compat.v1.summary op's value)."""
        if isinstance(summary, (bytes, bytearray)):
            summary = summary_pb2.Summary.FromString(bytes(summary))
        self._writer.add_event(event_pb2.Event(wall_time=time.time(), step=int(globalStep), summary=summary))

    def addScalar(self, tag: str, value: float, globalStep: int) -> None:
        self.addSummary(summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, simple_value=float(value))]),
                        globalStep)

    def addSessionLog(self, status: int, globalStep: int, checkpointPath: str = "") -> None:
        """``status``: ``event_pb2.SessionLog.START`` / ``CHECKPOINT`` / ``STOP``."""
        log = event_pb2.SessionLog(status=status, checkpoint_path=checkpointPath)
        self._writer.add_event(event_pb2.Event(wall_time=time.time(), step=int(globalStep), session_log=log))

    def flush(self) -> None:
        self._writer.flush()

    def close(self) -> None:
        self._writer.close()


_cache: Dict[str, EventWriter] = {}
_cacheLock = threading.Lock()


def writer_for(logdir: str) -> EventWriter:
    """The process-wide EventWriter of ``logdir`` (created on first use)."""
    key = os.path.abspath(logdir)
    with _cacheLock:
        writer = _cache.get(key)
        if writer is None:
            writer = _cache[key] = EventWriter(logdir)
        return writer
