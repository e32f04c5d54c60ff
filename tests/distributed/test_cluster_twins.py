"""The cluster twins agree across languages: the same strings from one cluster description, and the
JVM replica device setter places ops where TensorFlow's own ``replica_device_setter`` does."""

import contextlib

import pytest
import tensorflow as tf

from jhooks.bridge.process import jvm
from jhooks.tf.cluster import Cluster
from jhooks.tf.device_setter import ReplicaDeviceSetter
from jhooks.tf.worker_session import WorkerSessionCreator

JOBS = {"ps": ["127.0.0.1:2222", "127.0.0.1:2223"], "worker": ["127.0.0.1:2224", "127.0.0.1:2225"]}


@pytest.fixture(scope="module")
def jpype():
    jvm.start(natives=True)
    import jpype

    return jpype


def java_cluster(jpype, jobs):
    m = jpype.JClass("java.util.LinkedHashMap")()
    for job, tasks in jobs.items():
        lst = jpype.JClass("java.util.ArrayList")()
        for t in tasks:
            lst.add(t)
        m.put(job, lst)
    return jpype.JClass("org.jhooks.tf.Cluster").of(m)


def test_one_cluster_description_gives_the_same_strings_in_both_languages(jpype):
    py, java = Cluster(JOBS), java_cluster(jpype, JOBS)
    for job, task in (("ps", 0), ("ps", 1), ("worker", 0), ("worker", 1)):
        assert py.target(job, task) == str(java.target(job, task))
        assert py.deviceFilters(job, task) == [str(f) for f in java.deviceFilters(job, task)]
    assert list(py.sessionConfig("worker", 1).device_filters) == ["/job:ps", "/job:worker/task:1"]
    assert py.clusterSpec().as_dict() == JOBS


def test_bad_cluster_input_names_the_value():
    with pytest.raises(ValueError, match="'localhost'"):
        Cluster({"ps": ["localhost"]})
    with pytest.raises(ValueError, match="not 2"):
        Cluster(JOBS).target("worker", 2)
    with pytest.raises(ValueError, match="recoveryWaitSecs must be > 0"):
        WorkerSessionCreator("grpc://127.0.0.1:2224", recoveryWaitSecs=0)


# (op type, requested device) in creation order; the Python graph creates the same sequence.
SEQUENCE = [
    ("VariableV2", ""),
    ("VariableV2", ""),
    ("AddV2", ""),
    ("VariableV2", "/job:ps/task:1"),
    ("VariableV2", ""),
    ("VariableV2", "/job:local"),
    ("Mul", "/device:CPU:0"),
    ("VarHandleOp", ""),
]


def _python_devices():
    setter = ReplicaDeviceSetter(Cluster(JOBS), "worker", 1)
    devices = []
    with tf.Graph().as_default(), tf.compat.v1.device(setter.deviceFunction):
        one = tf.constant(1.0)
        for i, (op_type, requested) in enumerate(SEQUENCE):
            with tf.compat.v1.device(requested) if requested else contextlib.nullcontext():
                if op_type == "VariableV2":
                    op = tf.compat.v1.Variable(1.0, name=f"v{i}", use_resource=False).op
                elif op_type == "VarHandleOp":
                    op = tf.compat.v1.get_variable(f"r{i}", [], use_resource=True).op
                elif op_type == "AddV2":
                    op = tf.add(one, one, name=f"op{i}").op
                else:
                    op = tf.multiply(one, one, name=f"op{i}").op
            assert op.type == op_type
            devices.append(op.device)
    return devices


def test_jvm_replica_device_setter_places_like_tensorflows(jpype):
    setter = jpype.JClass("org.jhooks.tf.ReplicaDeviceSetter").of(java_cluster(jpype, JOBS), "worker", 1)
    java = [str(setter.deviceFor(t, d)) for t, d in SEQUENCE]
    python = _python_devices()
    assert java == python
    assert python[:3] == ["/job:ps/task:0", "/job:ps/task:1", "/job:worker/task:1"]
