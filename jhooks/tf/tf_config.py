"""TfConfig: a task's cluster and role from the ``TF_CONFIG`` environment variable.

Twin of ``org.jhooks.tf.TfConfig``: the same JSON gives the same answers and the same error
messages in both languages (the table tests/distributed/tf_config_cases.json). ``TF_CONFIG`` is how
Kubeflow's TFJob operator, SageMaker and TensorFlow's ``TFConfigClusterResolver`` hand a task its
role::

    {"cluster": {"chief": ["host:port"], "worker": ["host:port", ...], "ps": ["host:port", ...]},
     "task": {"type": "worker", "index": 1}}

See docs/distributed.md, "TF_CONFIG".
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any

from jhooks.tf.cluster import PS, WORKER, Cluster
from jhooks.tf.cluster_server import ClusterServer
from jhooks.tf.device_setter import ReplicaDeviceSetter
from jhooks.tf.worker_session import WorkerSessionCreator

ENV = "TF_CONFIG"
CHIEF = "chief"
EVALUATOR = "evaluator"
JOBS = (CHIEF, WORKER, PS, EVALUATOR)  # the job names TensorFlow allows in TF_CONFIG

_NAME = "TfConfig"
_ADDRESS = re.compile(r"[^:/ \t\n\x0b\f\r]+:[0-9]+")  # host:port, as Cluster checks it (ASCII, as in Java)
_SERVERS: dict[tuple[str, int, str], ClusterServer] = {}


def _shown(value: Any) -> str:
    """A JSON value as JSON text, as the Java twin shows it (Gson)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _fail(message: str) -> ValueError:
    return ValueError(f"{_NAME}: {message}")


def _is_index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class TfConfig:
    """One task's view of its cluster: the :class:`Cluster`, the task's type (its job) and index,
    and whether it is the chief.

    TensorFlow's rules (``multi_worker_util._validate_cluster_spec``, ``TFConfigClusterResolver``):
    jobs are ``chief``, ``worker``, ``ps`` and ``evaluator``; at most one ``chief`` task and one
    ``evaluator`` task; the task's type is a job of the cluster, except ``evaluator``, which the
    operators leave out of the cluster (it does not train); the index defaults to 0. The chief is
    the ``chief`` task, else worker 0 when the cluster has no ``chief`` job. Unlike TensorFlow's
    ``multi_worker_util.is_chief`` (which calls the evaluator a chief "on its own") the evaluator
    is not the chief here: it runs no chief-only hooks and writes no training checkpoints. An unset
    or empty ``TF_CONFIG``, or one without ``cluster``, is local training, as in TensorFlow: no
    cluster, task ``worker`` 0, the chief, master ``""``.

    Raises ``ValueError`` (from :meth:`parse`, :meth:`fromEnv` and the constructor) naming the
    field and its value: ``task.index is "1", expected an integer >= 0``.
    """

    def __init__(self, cluster: Cluster, taskType: str = WORKER, taskIndex: int = 0):
        jobs = cluster.jobs()
        for job, tasks in jobs.items():
            if job not in JOBS:
                raise _fail(f"cluster has the job {_shown(job)}; TensorFlow's jobs are {', '.join(JOBS)}")
            if job in (CHIEF, EVALUATOR) and len(tasks) > 1:
                raise _fail(f"cluster.{job} has {len(tasks)} tasks; TensorFlow allows at most one")
        if not isinstance(taskType, str) or taskType not in JOBS:
            raise _fail(f"task.type is {_shown(taskType)}, expected one of {', '.join(JOBS)}")
        if not _is_index(taskIndex):
            raise _fail(f"task.index is {_shown(taskIndex)}, expected an integer >= 0")
        if not jobs:
            if (taskType, taskIndex) != (WORKER, 0):
                raise _fail(f"task is {taskType} {taskIndex} but cluster is empty (local training is worker 0)")
        elif taskType != EVALUATOR or EVALUATOR in jobs:
            if taskType not in jobs:
                raise _fail(f"task.type is {_shown(taskType)}, which is not a job of the cluster ({', '.join(jobs)})")
            if taskIndex >= len(jobs[taskType]):
                raise _fail(f"task.index is {taskIndex}, but cluster.{taskType} has tasks 0..{len(jobs[taskType]) - 1}")
        elif taskIndex != 0:
            raise _fail(f"task.index is {taskIndex}, but there is one evaluator, task 0")
        self._cluster = cluster
        self._taskType = taskType
        self._taskIndex = taskIndex

    @classmethod
    def parse(cls, text: str) -> TfConfig:
        """The configuration in ``text``, a ``TF_CONFIG`` value (JSON). An empty text, or an object
        without ``cluster`` (or with an empty one) and without ``task``, is local training.

        ``rpc_layer`` must be absent or ``"grpc"`` (the only protocol of TensorFlow's servers
        here); ``session_master`` (a master other than the task's own server) is refused; other
        keys (``environment``) are ignored, as TensorFlow does."""
        if not isinstance(text, str):
            raise _fail(f"TF_CONFIG must be a string of JSON, got {type(text).__name__}")
        if not text.strip():
            return cls(Cluster({}))
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except json.JSONDecodeError as e:
            raise _fail(f"TF_CONFIG is not JSON: {e.msg} at line {e.lineno} column {e.colno}") from e
        if not isinstance(data, dict):
            raise _fail(f"TF_CONFIG is {_shown(data)}, expected a JSON object")
        rpc = data.get("rpc_layer", "grpc")
        if rpc != "grpc":
            raise _fail(f'rpc_layer is {_shown(rpc)}; TensorFlow\'s servers here speak only "grpc"')
        if "session_master" in data:
            raise _fail(f"session_master is {_shown(data['session_master'])}; each task's master is its own server")
        cluster = _cluster(data.get("cluster", {}))
        task = data.get("task", None)
        if task is None:
            if cluster.jobs():
                raise _fail('task is missing; a cluster task needs {"type": ..., "index": ...}')
            return cls(cluster)
        if not isinstance(task, dict):
            raise _fail(f'task is {_shown(task)}, expected an object {{"type": ..., "index": ...}}')
        if "type" not in task:
            raise _fail("task.type is missing")
        return cls(cluster, task["type"], task.get("index", 0))

    @classmethod
    def fromEnv(cls, environ: Mapping[str, str] | None = None) -> TfConfig:
        """:meth:`parse` of ``TF_CONFIG`` in ``environ`` (default ``os.environ``); unset is local."""
        env = os.environ if environ is None else environ
        return cls.parse(env.get(ENV, ""))

    def cluster(self) -> Cluster:
        """The cluster (no jobs for local training; never the evaluator's own address)."""
        return self._cluster

    def taskType(self) -> str:
        """The task's job: ``chief``, ``worker``, ``ps`` or ``evaluator``."""
        return self._taskType

    def taskIndex(self) -> int:
        """The task's index in its job, from 0."""
        return self._taskIndex

    def isChief(self) -> bool:
        """The ``chief`` task, else worker 0 when there is no ``chief`` job (local training too)."""
        if self._taskType == CHIEF:
            return True
        return self._taskType == WORKER and self._taskIndex == 0 and self._cluster.numTasks(CHIEF) == 0

    def isEvaluator(self) -> bool:
        """The ``evaluator`` task: it reads the chief's checkpoints and trains nothing."""
        return self._taskType == EVALUATOR

    def _inCluster(self) -> bool:
        return bool(self._cluster.jobs()) and not self.isEvaluator()

    def master(self) -> str:
        """The session target: the task's own server ``grpc://host:port``; ``""`` (in-process)
        for local training and the evaluator."""
        return self._cluster.target(self._taskType, self._taskIndex) if self._inCluster() else ""

    def deviceFilters(self) -> list[str]:
        """:meth:`Cluster.deviceFilters` of the task; none for local training and the evaluator."""
        return self._cluster.deviceFilters(self._taskType, self._taskIndex) if self._inCluster() else []

    def sessionConfig(self, base: Any = None) -> Any:
        """A ``tf.compat.v1.ConfigProto`` with the task's :meth:`deviceFilters` (a copy of
        ``base`` if given; ``base``'s own filters are kept for local training and the evaluator)."""
        if self._inCluster():
            return self._cluster.sessionConfig(self._taskType, self._taskIndex, base)
        import tensorflow as tf

        config = tf.compat.v1.ConfigProto()
        if base is not None:
            config.CopyFrom(base)
        return config

    def server(self) -> ClusterServer:
        """The task's TensorFlow server, started on the first call in this process and the same one
        afterwards (TensorFlow cannot stop or restart a server; see :class:`ClusterServer`).

        Raises ``ValueError`` for local training and the evaluator, which have no server."""
        if not self._inCluster():
            raise _fail(f"{self._taskType} {self._taskIndex} has no server ({self._why()})")
        address = self._cluster.address(self._taskType, self._taskIndex)
        key = (self._taskType, self._taskIndex, address)
        if key not in _SERVERS:
            _SERVERS[key] = ClusterServer.start(self._cluster, self._taskType, self._taskIndex)
        return _SERVERS[key]

    def replicaDeviceSetter(self) -> ReplicaDeviceSetter:
        """The task's :class:`ReplicaDeviceSetter` (variables on the ps tasks, other ops on this
        task). Raises ``ValueError`` for local training and the evaluator."""
        if not self._inCluster():
            raise _fail(f"{self._taskType} {self._taskIndex} places no ops on a cluster ({self._why()})")
        return ReplicaDeviceSetter(self._cluster, self._taskType, self._taskIndex)

    def monitoredTrainingSessionArgs(self) -> dict[str, Any]:
        """``master``, ``is_chief`` and ``config`` for ``tf.compat.v1.train.MonitoredTrainingSession``
        (starting the task's :meth:`server` in a cluster)::

            tf.compat.v1.train.MonitoredTrainingSession(**cfg.monitoredTrainingSessionArgs(), hooks=...)
        """
        if self.isEvaluator():
            raise _fail("the evaluator does not train: it reads the chief's checkpoints")
        master = self.server().target() if self._inCluster() else ""
        return {"master": master, "is_chief": self.isChief(), "config": self.sessionConfig()}

    def workerSessionCreator(
        self, recoveryWaitSecs: float = 30, maxWaitSecs: float = 7200, scaffold: Any = None
    ) -> WorkerSessionCreator:
        """A non-chief's :class:`WorkerSessionCreator` on the task's :meth:`server`, with its
        :meth:`sessionConfig`, for ``tf.compat.v1.train.MonitoredSession(session_creator=...)``
        (TensorFlow's ``MonitoredTrainingSession(is_chief=False)`` waits 30 s between checks).

        Raises ``ValueError`` for the chief (it initializes or restores, it does not wait), the
        evaluator and local training."""
        if self.isChief() or not self._inCluster():
            raise _fail(f"{self._taskType} {self._taskIndex} waits for no chief: it is the chief or not in a cluster")
        return WorkerSessionCreator(
            self.server().target(), self.sessionConfig(), recoveryWaitSecs, maxWaitSecs, scaffold
        )

    def _why(self) -> str:
        return "the evaluator runs in-process" if self.isEvaluator() else "local training: the cluster is empty"

    def __repr__(self) -> str:
        return f"TfConfig({self._taskType} {self._taskIndex}, chief={self.isChief()}, {self._cluster})"


def _refuse_constant(name: str) -> Any:
    raise _fail(f"TF_CONFIG is not JSON: {name} is not a JSON value")


def _cluster(value: Any) -> Cluster:
    if not isinstance(value, dict):
        raise _fail(f'cluster is {_shown(value)}, expected an object of job name to a list of "host:port"')
    for job, tasks in value.items():
        if job not in JOBS:
            raise _fail(f"cluster has the job {_shown(job)}; TensorFlow's jobs are {', '.join(JOBS)}")
        if not isinstance(tasks, list) or not tasks:
            raise _fail(f'cluster.{job} is {_shown(tasks)}, expected a list of "host:port" (at least one)')
        for i, address in enumerate(tasks):
            if not isinstance(address, str) or not _ADDRESS.fullmatch(address):
                raise _fail(f'cluster.{job}[{i}] is {_shown(address)}, expected "host:port"')
    return Cluster(value)
