"""TfConfig reads TF_CONFIG as TensorFlow's rules say, and the same in both languages: the table
tests/distributed/tf_config_cases.json gives the answers (or the exact errors) for Python here and
for the JVM in org.jhooks.tf.TfConfigTest (gradle test), and one test runs every case through the
JVM twin in this process too, so a difference between the two shows here as well."""

import json
import os

import pytest

from jhooks.tf.cluster import Cluster
from jhooks.tf.tf_config import TfConfig

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_config_cases.json")
CASES = json.load(open(TABLE))["cases"]


def text_of(case):
    value = case["tfConfig"]
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def answers(cfg):
    return {
        "jobs": cfg.cluster().jobs(),
        "taskType": cfg.taskType(),
        "taskIndex": cfg.taskIndex(),
        "isChief": cfg.isChief(),
        "isEvaluator": cfg.isEvaluator(),
        "master": cfg.master(),
        "deviceFilters": cfg.deviceFilters(),
    }


def outcome(parse, case):
    """What ``parse`` gives for the case: its answers, or the error message."""
    try:
        return answers(parse(text_of(case)))
    except ValueError as e:
        return str(e)


def expected(case, got):
    if "expect" in case:
        return case["expect"]
    if "errorStartsWith" in case:
        assert isinstance(got, str) and got.startswith(case["errorStartsWith"]), got
        return got
    return case["error"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_tf_config_table(case):
    got = outcome(TfConfig.parse, case)
    assert got == expected(case, got)


def test_the_table_covers_every_rule():
    kinds = {"expect": 0, "error": 0, "errorStartsWith": 0}
    for case in CASES:
        (kind,) = set(case) & set(kinds)
        kinds[kind] += 1
    assert kinds["expect"] >= 10 and kinds["error"] >= 20 and kinds["errorStartsWith"] >= 3


def test_the_jvm_twin_gives_the_same_answers_in_this_process():
    from jhooks.bridge.process import jvm

    jvm.start(natives=True)
    import jpype

    JTfConfig = jpype.JClass("org.jhooks.tf.TfConfig")

    def java_parse(text):
        try:
            cfg = JTfConfig.parse(text)
        except jpype.JClass("java.lang.IllegalArgumentException") as e:
            raise ValueError(str(e.getMessage())) from None
        return _JavaView(cfg)

    for case in CASES:
        py, java = outcome(TfConfig.parse, case), outcome(java_parse, case)
        if "errorStartsWith" in case:
            assert java.startswith(case["errorStartsWith"]), (case["name"], java)
        else:
            assert java == py, case["name"]


class _JavaView:
    def __init__(self, cfg):
        self.cfg = cfg

    def cluster(self):
        jobs = self.cfg.cluster().jobs()
        return _Jobs({str(k): [str(a) for a in jobs.get(k)] for k in jobs.keySet()})

    def taskType(self):
        return str(self.cfg.taskType())

    def taskIndex(self):
        return int(self.cfg.taskIndex())

    def isChief(self):
        return bool(self.cfg.isChief())

    def isEvaluator(self):
        return bool(self.cfg.isEvaluator())

    def master(self):
        return str(self.cfg.master())

    def deviceFilters(self):
        return [str(f) for f in self.cfg.deviceFilters()]


class _Jobs:
    def __init__(self, jobs):
        self._jobs = jobs

    def jobs(self):
        return self._jobs


def test_from_env_reads_tf_config_and_unset_is_local():
    env = {"TF_CONFIG": json.dumps({"cluster": {"worker": ["w:1", "w:2"]}, "task": {"type": "worker", "index": 1}})}
    cfg = TfConfig.fromEnv(env)
    assert (cfg.taskType(), cfg.taskIndex(), cfg.isChief()) == ("worker", 1, False)
    local = TfConfig.fromEnv({})
    assert local.isChief() and local.master() == "" and local.cluster().jobs() == {}
    with pytest.raises(ValueError, match="has no server"):
        local.server()
    with pytest.raises(ValueError, match="the evaluator does not train"):
        TfConfig(Cluster({"chief": ["c:1"]}), "evaluator", 0).monitoredTrainingSessionArgs()


def test_session_config_adds_the_task_filters_to_a_base():
    import tensorflow as tf

    cfg = TfConfig(Cluster({"chief": ["c:1"], "ps": ["p:1"]}), "chief", 0)
    base = tf.compat.v1.ConfigProto(operation_timeout_in_ms=5, device_filters=["/job:other"])
    config = cfg.sessionConfig(base)
    assert list(config.device_filters) == ["/job:ps", "/job:chief/task:0"]
    assert config.operation_timeout_in_ms == 5
    evaluator = TfConfig(Cluster({"chief": ["c:1"]}), "evaluator", 0)
    assert list(evaluator.sessionConfig(base).device_filters) == ["/job:other"]


def test_only_a_non_chief_in_a_cluster_gets_a_worker_session_creator():
    jobs = {"chief": ["c:1"], "worker": ["w:1"]}
    for cfg in (TfConfig(Cluster(jobs), "chief", 0), TfConfig(Cluster(jobs), "evaluator", 0), TfConfig(Cluster({}))):
        with pytest.raises(ValueError, match="waits for no chief"):
            cfg.workerSessionCreator()
