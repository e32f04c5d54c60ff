"""Cluster: one description of a TensorFlow cluster for every task, in either language.

Twin of ``org.jhooks.tf.Cluster``: the same strings for addresses, session targets and device
filters, so a Python chief and JVM workers agree on them (docs/distributed.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

PS = "ps"
WORKER = "worker"

_JOB = re.compile(r"[A-Za-z0-9_]+")
_ADDRESS = re.compile(r"[^:/\s]+:\d+")


class Cluster:
    """Job name to the ``host:port`` of each task, like ``tf.train.ClusterSpec`` (whose dict form
    :meth:`jobs` is). Jobs keep their order; tasks are numbered from 0.

    Raises ``ValueError`` for a job name that is not ``[A-Za-z0-9_]+`` or an address that is not
    ``host:port``.
    """

    def __init__(self, jobs: Mapping[str, Sequence[str]]):
        self._jobs: dict[str, list[str]] = {}
        for job, tasks in jobs.items():
            if not _JOB.fullmatch(job):
                raise ValueError(f"Cluster: job name {job!r} is not [A-Za-z0-9_]+")
            for address in tasks:
                if not _ADDRESS.fullmatch(address):
                    raise ValueError(f"Cluster: job {job!r} has address {address!r}, expected host:port")
            self._jobs[job] = list(tasks)

    def jobs(self) -> dict[str, list[str]]:
        """Job name to task addresses (a copy)."""
        return {job: list(tasks) for job, tasks in self._jobs.items()}

    def numTasks(self, job: str) -> int:
        """The number of tasks of ``job``, 0 if there is no such job."""
        return len(self._jobs.get(job, ()))

    def address(self, job: str, task: int) -> str:
        """The ``host:port`` of a task; ``ValueError`` if there is no such job or task."""
        if job not in self._jobs:
            raise ValueError(f"Cluster: no job {job!r} (jobs: {list(self._jobs)})")
        tasks = self._jobs[job]
        if not 0 <= task < len(tasks):
            raise ValueError(f"Cluster: job {job!r} has tasks 0..{len(tasks) - 1}, not {task}")
        return tasks[task]

    def target(self, job: str, task: int) -> str:
        """The session target of a task's server, ``grpc://host:port`` (``Server.target``)."""
        return "grpc://" + self.address(job, task)

    def deviceFilters(self, job: str, task: int) -> list[str]:
        """TensorFlow's recommended device filters for between-graph training: every ps task and
        the task itself (``["/job:ps", "/job:worker/task:1"]``). Without them a worker that starts
        after another task has exited waits for it forever (tensorflow/tensorflow#21629)."""
        self.address(job, task)
        filters = [f"/job:{PS}"] if PS in self._jobs and job != PS else []
        return [*filters, f"/job:{job}/task:{task}"]

    def sessionConfig(self, job: str, task: int, base: Any = None) -> Any:
        """A ``tf.compat.v1.ConfigProto`` with :meth:`deviceFilters` of the task (a copy of
        ``base`` if given)."""
        import tensorflow as tf

        config = tf.compat.v1.ConfigProto()
        if base is not None:
            config.CopyFrom(base)
        del config.device_filters[:]
        config.device_filters.extend(self.deviceFilters(job, task))
        return config

    def clusterSpec(self) -> Any:
        """The cluster as ``tf.train.ClusterSpec``."""
        import tensorflow as tf

        return tf.train.ClusterSpec(self.jobs())

    def __repr__(self) -> str:
        return f"Cluster({self._jobs})"
