"""examples/kubernetes: the manifests parse, the TF_CONFIG each pod would get (the Kubeflow
operator's, for the TFJob; the one written out, for the plain manifests) names the role the pod is
for in both languages' TfConfig, every address is a Service of that pod, and the same tasks (the
pods' commands and arguments) run here with those variables train, checkpoint and evaluate.

TF_CONFIG for the TFJob is made by the training-operator's rule (kubeflow/training-operator,
``genTFConfigJSONStr``/``genClusterSpec``): the cluster maps each lower-cased replica type but the
evaluator to ``<name>-<type>-<index>.<namespace>.svc:<port>`` (port ``tfjob-port`` of the container
``tensorflow``, default 2222), keys sorted (Go's JSON of a map), then the task and
``"environment": "cloud"``. For the local run the addresses, which are cluster DNS names, become
free ports on 127.0.0.1 and the paths a temporary directory; the variables are otherwise exactly the
pods'."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest
import yaml

from jhooks.demo import data as demo_data
from jhooks.demo.cluster import Processes, Task, free_ports
from jhooks.demo.tf_config_task import arguments
from jhooks.tf.tf_config import TfConfig

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(REPO, "examples", "kubernetes")
PROGRAMS = {"jhooks.demo.tf_config_task", "jhooks.demo.jvm_task"}


def docs(name):
    with open(os.path.join(HERE, name)) as f:
        return list(yaml.safe_load_all(f))


def _container(template):
    (container,) = [c for c in template["spec"]["containers"] if c["name"] == "tensorflow"]
    return container


def tfjob_pods():
    """(type, index, TF_CONFIG, container, labels) of each pod the operator makes for the TFJob."""
    (job,) = docs("tfjob.yaml")
    assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v1", "TFJob")
    name, namespace = job["metadata"]["name"], job["metadata"]["namespace"]
    specs = job["spec"]["tfReplicaSpecs"]
    cluster = {}
    for rtype in sorted(specs, key=str.lower):
        rt = rtype.lower()
        if rt == "evaluator":
            continue  # not part of the training cluster
        ports = [
            p["containerPort"]
            for p in _container(specs[rtype]["template"]).get("ports", [])
            if p["name"] == "tfjob-port"
        ]
        port = ports[0] if ports else 2222
        cluster[rt] = [f"{name}-{rt}-{i}.{namespace}.svc:{port}" for i in range(specs[rtype]["replicas"])]
    pods = []
    for rtype, spec in specs.items():
        for i in range(spec["replicas"]):
            tf_config = json.dumps(
                {"cluster": cluster, "task": {"type": rtype.lower(), "index": i}, "environment": "cloud"}
            )
            pods.append((rtype.lower(), i, tf_config, _container(spec["template"]), {}))
    return pods


def plain_pods():
    pods = []
    for d in docs("plain.yaml"):
        if d["kind"] in ("Deployment", "Job"):
            template = d["spec"]["template"]
            container = _container(template)
            env = {e["name"]: e["value"] for e in container.get("env", [])}
            labels = template["metadata"]["labels"]
            rtype, index = labels["jhooks/task"].rsplit("-", 1)
            pods.append((rtype, int(index), env["TF_CONFIG"], container, labels))
    return pods


def test_the_manifests_parse_and_use_one_image():
    kinds = [d["kind"] for name in ("tfjob.yaml", "plain.yaml", "volume.yaml") for d in docs(name)]
    assert kinds.count("TFJob") == 1 and kinds.count("Service") == 3 and kinds.count("PersistentVolumeClaim") == 1
    images = {c["image"] for pods in (tfjob_pods(), plain_pods()) for _, _, _, c, _ in pods}
    assert len(images) == 1
    with open(os.path.join(HERE, "Dockerfile")) as f:
        dockerfile = f.read()
    assert "jep" in dockerfile and "openjdk-17" in dockerfile and "jhooks_demo" in dockerfile


@pytest.mark.parametrize("pods", [tfjob_pods, plain_pods], ids=["tfjob", "plain"])
def test_each_pod_reads_the_role_it_is_for_in_both_languages(pods):
    from jhooks.bridge.process import jvm

    jvm.start(natives=True)
    import jpype

    JTfConfig = jpype.JClass("org.jhooks.tf.TfConfig")
    roles = []
    for rtype, index, tf_config, container, _ in pods():
        py, java = TfConfig.parse(tf_config), JTfConfig.parse(tf_config)
        assert (py.taskType(), py.taskIndex()) == (rtype, index)
        assert (str(java.taskType()), int(java.taskIndex()), bool(java.isChief())) == (rtype, index, py.isChief())
        assert str(java.master()) == py.master()
        roles.append((rtype, py.isChief(), py.isEvaluator()))
        # The container runs one of the tasks, and its arguments are the task's own (no cluster flags).
        command = container["command"]
        assert command[:2] == ["python", "-m"] and command[2] in PROGRAMS
        arguments(container["args"])
        addresses = [a for tasks in py.cluster().jobs().values() for a in tasks]
        assert not any(a.split(":")[0] in " ".join(container["args"]) for a in addresses)
        if rtype == "worker":
            assert command[2] == "jhooks.demo.jvm_task"  # the JVM worker
    assert sorted(roles) == [
        ("chief", True, False),
        ("evaluator", False, True),
        ("ps", False, False),
        ("worker", False, False),
    ]


def test_every_plain_address_is_the_service_of_its_task():
    services = {d["metadata"]["name"]: d for d in docs("plain.yaml") if d["kind"] == "Service"}
    pods = plain_pods()
    clusters = {json.dumps(TfConfig.parse(t).cluster().jobs()) for _, _, t, _, _ in pods}
    assert len(clusters) == 1  # one cluster for every pod
    cluster = TfConfig.parse(pods[0][2]).cluster()
    for job, addresses in cluster.jobs().items():
        for i, address in enumerate(addresses):
            host, port = address.rsplit(":", 1)
            name, namespace = host.split(".")[:2]
            service = services[name]
            assert service["metadata"]["namespace"] == namespace
            assert int(port) in [p["port"] for p in service["spec"]["ports"]]
            (labels,) = [p[4] for p in pods if (p[0], p[1]) == (job, i)]
            assert all(labels.get(k) == v for k, v in service["spec"]["selector"].items())


def _local(tf_config, ports, tmp):
    """The pod's TF_CONFIG with each cluster address on a free 127.0.0.1 port."""
    data = json.loads(tf_config)
    data["cluster"] = {job: [ports[a] for a in tasks] for job, tasks in data["cluster"].items()}
    return json.dumps(data)


def _local_args(args, tmp):
    out = [a.replace("/train", str(tmp)).replace("/tmp/results", str(tmp / "ps-results")) for a in args]
    out = [demo_data.DEFAULT_CSV if a == "/opt/jhooks/wdbc.csv" else a for a in out]
    for flag, value in (("--last-step", "60"), ("--save-steps", "20"), ("--max-wait-secs", "240")):
        if flag in out:
            out[out.index(flag) + 1] = value
    return out


@pytest.mark.timeout(420)
def test_the_tfjob_tasks_run_here_with_the_variables_the_operator_gives_them(tmp_path):
    if importlib.util.find_spec("jep") is None:
        pytest.skip("the JVM worker needs jep (pip install 'jhooks[jep]')")
    pods = tfjob_pods()
    addresses = sorted({a for tasks in json.loads(pods[0][2])["cluster"].values() for a in tasks})
    ports = dict(zip(addresses, (f"127.0.0.1:{p}" for p in free_ports(len(addresses)))))
    tasks = []
    for rtype, index, tf_config, container, _ in pods:
        task = Task(rtype, index, "", "", "", str(tmp_path / f"{rtype}{index}.log"))
        task.argv = [sys.executable, *container["command"][1:], *_local_args(container["args"], tmp_path)]
        if rtype in ("chief", "worker"):
            # On a cluster the chief's 2,000 steps outlast a worker's start; the 60 steps here may not
            # (a JVM worker starts in seconds on a busy machine), so the tasks line up first.
            task.argv.append("--start-barrier")
        task.env = {"TF_CONFIG": _local(tf_config, ports, tmp_path), "PYTHONPATH": REPO}
        tasks.append(task)
    order = {"ps": 0, "chief": 1, "worker": 2, "evaluator": 3}
    tasks.sort(key=lambda t: order[t.job])
    procs = Processes()
    try:
        for t in tasks:
            procs.start(t)
        for t in tasks[1:]:
            try:
                rc = t.proc.wait(timeout=300)
            except subprocess.TimeoutExpired:
                pytest.fail(f"{t.job} {t.index} still running; log: {open(t.logPath).read()[-3000:]}")
            assert rc == 0, open(t.logPath, errors="replace").read()[-3000:]
    finally:
        procs.kill_all()
        for t in tasks:
            if t.logFile is not None:
                t.logFile.close()
    results = {}
    for name in ("chief0", "worker0", "evaluator0"):
        with open(tmp_path / "results" / f"{name}.result.json") as f:
            results[name] = json.load(f)
    assert (results["chief0"]["job"], results["chief0"]["lang"]) == ("chief", "python")
    assert (results["worker0"]["job"], results["worker0"]["lang"]) == ("worker", "jvm")
    assert results["chief0"]["chief_only_runs"] > 0 and results["worker0"]["chief_only_runs"] == 0
    assert results["worker0"]["steps"] > 0 and results["chief0"]["accuracy"] > 0.8
    evaluations = results["evaluator0"]["evaluations"]
    assert evaluations and evaluations[-1]["step"] >= 60
    assert os.path.exists(results["evaluator0"]["best_checkpoint"] + ".index")
