"""ReplicaDeviceSetter: TensorFlow's ``replica_device_setter`` for a task of a :class:`Cluster`.

Twin of ``org.jhooks.tf.ReplicaDeviceSetter``, which writes the same rule once for the JVM; here
the rule is TensorFlow's own function (``tf.compat.v1.train.replica_device_setter``).
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from jhooks.tf.cluster import PS, Cluster


class ReplicaDeviceSetter:
    """Places ps ops (variables, hash tables) round-robin on ``/job:ps/task:i`` and every other op on
    ``/job:<job>/task:<task>``; ``None`` device function when the cluster has no ps job, as in
    TensorFlow. Use it as ``with tf.compat.v1.device(setter.deviceFunction):`` (TF2's
    ``tf.device`` takes no functions)."""

    def __init__(self, cluster: Cluster, job: str, task: int):
        cluster.address(job, task)
        self.workerDevice = f"/job:{job}/task:{task}"
        self.deviceFunction: Any = None
        if cluster.numTasks(PS):
            self.deviceFunction = tf.compat.v1.train.replica_device_setter(
                worker_device=self.workerDevice, cluster=cluster.clusterSpec()
            )

    @classmethod
    def of(cls, cluster: Cluster, job: str, task: int) -> ReplicaDeviceSetter:
        """The setter of task ``task`` of ``job`` (the Java twin's factory)."""
        return cls(cluster, job, task)
