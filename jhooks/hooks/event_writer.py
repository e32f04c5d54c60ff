"""TensorBoard event files for StepCounterHook, SummarySaverHook, ProfilerHook and the checkpoint
savers (tensorboard's writer, no TF import).

``tensorboard.summary.writer.event_file_writer.EventFileWriter`` (installed with TensorFlow) writes
``events.out.tfevents.*`` starting with the ``brain.Event:2`` file-version event: the records
``tf.compat.v1.summary.FileWriter`` writes. Hooks share one writer per directory per process
(:func:`acquire` / :func:`release`, reference-counted like TF's ``SummaryWriterCache``), so two
hooks logging into one directory append to one event file, which TensorBoard reads in order.
"""

from __future__ import annotations

import os
import threading
import time

from tensorboard.compat.proto import event_pb2, summary_pb2
from tensorboard.summary.writer.event_file_writer import EventFileWriter


class EventWriter:
    """Appends summaries and session logs at a global step to one event file in ``logdir``.

    Thread-safe (the underlying writer queues records for its own writer thread).
    """

    def __init__(self, logdir: str) -> None:
        os.makedirs(logdir, exist_ok=True)
        self.logdir = logdir
        self._writer = EventFileWriter(logdir)

    def path(self) -> str:
        """The event file's path."""
        return self._writer._file_name

    def addSummary(self, summary: bytes | summary_pb2.Summary, globalStep: int) -> None:
        """``summary``: a Summary proto or its serialized bytes (a tf.compat.v1.summary op's value)."""
        if isinstance(summary, (bytes, bytearray)):
            summary = summary_pb2.Summary.FromString(bytes(summary))
        self._writer.add_event(event_pb2.Event(wall_time=time.time(), step=int(globalStep), summary=summary))

    def addScalar(self, tag: str, value: float, globalStep: int) -> None:
        self.addSummary(
            summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, simple_value=float(value))]), globalStep
        )

    def addSessionLog(self, status: int, globalStep: int) -> None:
        """``status``: ``event_pb2.SessionLog.START`` / ``STOP`` / ``CHECKPOINT``."""
        log = event_pb2.SessionLog(status=status)
        self._writer.add_event(event_pb2.Event(wall_time=time.time(), step=int(globalStep), session_log=log))

    def addRunMetadata(self, tag: str, runMetadata: bytes) -> None:
        """A ``tagged_run_metadata`` event (TensorBoard's per-run compute time and memory for
        ``tag``), without a step, as TF's ``FileWriter.add_run_metadata(run_metadata, tag)``.
        ``runMetadata``: a serialized ``RunMetadata`` proto."""
        tagged = event_pb2.TaggedRunMetadata(tag=tag, run_metadata=bytes(runMetadata))
        self._writer.add_event(event_pb2.Event(wall_time=time.time(), tagged_run_metadata=tagged))

    def addGraph(self, graphDef: bytes) -> None:
        """A ``graph_def`` event (TensorBoard's graph dashboard) at step 0, as TF's
        ``FileWriter.add_graph(graph)``. ``graphDef``: a serialized ``GraphDef`` proto."""
        self._writer.add_event(event_pb2.Event(wall_time=time.time(), graph_def=bytes(graphDef)))

    def addMetaGraph(self, metaGraphDef: bytes) -> None:
        """A ``meta_graph_def`` event at step 0, as TF's ``FileWriter.add_meta_graph(meta_graph_def)``.
        ``metaGraphDef``: a serialized ``MetaGraphDef`` proto."""
        self._writer.add_event(event_pb2.Event(wall_time=time.time(), meta_graph_def=bytes(metaGraphDef)))

    def flush(self) -> None:
        self._writer.flush()

    def close(self) -> None:
        self._writer.close()


_shared: dict[str, tuple[EventWriter, int]] = {}
_lock = threading.Lock()


def acquire(logdir: str) -> EventWriter:
    """The process-wide writer of ``logdir`` (created on first use); pair with :func:`release`."""
    key = os.path.abspath(logdir)
    with _lock:
        writer, users = _shared.get(key, (None, 0))
        if writer is None:
            writer = EventWriter(logdir)
        _shared[key] = (writer, users + 1)
        return writer


def release(writer: EventWriter) -> None:
    """Flushes; closes the writer when its last user releases it."""
    key = os.path.abspath(writer.logdir)
    with _lock:
        current, users = _shared.get(key, (None, 0))
        if current is not writer:
            writer.close()
            return
        if users <= 1:
            del _shared[key]
            writer.close()
        else:
            _shared[key] = (writer, users - 1)
            writer.flush()
