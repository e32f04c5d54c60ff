"""ClusterServer: a TensorFlow gRPC server for one task, started once and never deleted.

Twin of ``org.jhooks.tf.ClusterServer``. TensorFlow cannot stop a started gRPC server
(``Server.__del__`` leaks it on purpose: deleting it would abort the process), so every started
server is kept here until the process exits; its port is free only then. TensorFlow binds
``0.0.0.0:port``: the host in the cluster only changes the target string.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from jhooks.tf.cluster import Cluster

_STARTED: list[ClusterServer] = []


class ClusterServer:
    """The server of task ``task`` of ``job``; build it with :meth:`start`."""

    def __init__(self, cluster: Cluster, job: str, task: int, server: Any):
        self.cluster = cluster
        self.job = job
        self.task = task
        self.server = server

    @classmethod
    def start(cls, cluster: Cluster, job: str, task: int) -> ClusterServer:
        """Creates and starts ``tf.distribute.Server`` for the task (``ValueError``: no such task;
        ``tf.errors.UnknownError``: TensorFlow could not bind the port)."""
        cluster.address(job, task)
        server = tf.distribute.Server(cluster.clusterSpec(), job_name=job, task_index=task, start=True)
        started = cls(cluster, job, task, server)
        _STARTED.append(started)
        return started

    def target(self) -> str:
        """``grpc://host:port`` of this task (the cluster's address; TensorFlow's ``server.target``
        names the same server)."""
        return self.cluster.target(self.job, self.task)

    def join(self) -> None:
        """Blocks until the server ends, which is never before the process exits (a ps does this)."""
        self.server.join()

    def close(self) -> None:
        """Does nothing: a started TensorFlow server lives until the process exits."""

    def __repr__(self) -> str:
        return f"ClusterServer(/job:{self.job}/task:{self.task}, {self.target()})"
