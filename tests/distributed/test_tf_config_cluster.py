"""``cluster-demo --launch tf-config``: a cluster started as Kubeflow's TFJob operator starts one,
every task with its role in TF_CONFIG only (real TensorFlow servers on 127.0.0.1, free ports, each
process ended by its PID). A ps, a Python chief (job ``chief``), a JVM worker started by plain
``java`` with Python hooks through jep, a Python worker and an evaluator: the cluster trains, the
ps is killed and restarted, every worker recovers, and the evaluator evaluates each checkpoint
with its own hooks and keeps the best by held-out loss. CI runs the short version; ``-m slow``
adds three workers."""

import json
import math
import os

import pytest
from test_cluster_runs import _run_demo

from jhooks.demo.cluster import ClusterDemoConfig, plan_tf_config

pytestmark = pytest.mark.skipif(
    __import__("importlib").util.find_spec("jep") is None, reason="the JVM worker needs jep (pip install 'jhooks[jep]')"
)


def test_each_task_gets_its_role_only_from_tf_config(tmp_path):
    cfg = ClusterDemoConfig(workers=2, javaWorkers=1, launch="tf-config")
    tasks = plan_tf_config(cfg, str(tmp_path), str(tmp_path / "checkpoints"))
    assert [(t.job, t.index, t.lang) for t in tasks] == [
        ("ps", 0, "python"),
        ("chief", 0, "python"),
        ("worker", 0, "jvm"),
        ("worker", 1, "python"),
        ("evaluator", 0, "python"),
    ]
    configs = [json.loads(t.env["TF_CONFIG"]) for t in tasks]
    cluster = configs[0]["cluster"]
    addresses = [a for job in cluster.values() for a in job]
    assert "evaluator" not in cluster  # as Kubeflow: the evaluator is not part of the training cluster
    for t, c in zip(tasks, configs):
        assert set(t.env) == {"TF_CONFIG"}
        assert c == {"cluster": cluster, "task": {"type": t.job, "index": t.index}}
        command = " ".join(t.argv)
        # No cluster flags: no address, job or index on any command line.
        assert not any(a in command or a.split(":")[1] in t.argv for a in addresses), command
        assert "--job" not in command and "--index" not in command
    assert tasks[2].argv[0] == "java" and "org.jhooks.demo.TfConfigTask" in tasks[2].argv


def _check(report, workers, javaWorkers, steps):
    tasks = report["tasks"]
    expected = [("ps", 0, "python"), ("chief", 0, "python")]
    expected += [("worker", i, "jvm" if i < javaWorkers else "python") for i in range(workers)]
    assert [(t["job"], t["index"], t["lang"]) for t in tasks] == expected
    for t in tasks[1:]:
        # a rate needs two steps: on a busy machine a worker may join when the others are nearly done
        assert t["steps"] > 0 and (t["steps_per_sec"] > 0 or t["steps"] == 1), t
        assert t["recoveries"] >= 1, t
        assert t["command"] == ("java" if t["lang"] == "jvm" else "python"), t
    assert [t["chief"] for t in tasks[1:]] == [True] + [False] * workers
    assert report["chief_only_hooks_on"] == ["/job:chief/task:0"]
    assert report["ps_restarted"] and report["recovered_after_ps_restart"]
    assert report["accuracy"] > 0.9
    # The JVM worker's Python hook (TaskStartBarrier, loaded through jep) ran in the java process.
    for t in tasks:
        if t["lang"] == "jvm":
            with open(os.path.join(report["out"], f"worker{t['index']}.started")) as f:
                assert json.load(f)["pid"] == t["pid"]
    ratio = report["jvm_vs_python_worker_steps_per_sec"]
    assert ratio is None if javaWorkers in (0, workers) else ratio > 0
    # The evaluator saw every checkpoint the chief wrote, each restored, and kept the best.
    ev = report["evaluator"]
    written = [c["step"] for c in report["checkpoints"]]
    assert written[-1] >= steps
    # It evaluates every checkpoint it finds, in step order, and ends after the poll that found one at or
    # past the last step; the chief's save at its end may be found in that same poll, and is evaluated too.
    final = next(s for s in written if s >= steps)
    evaluated = [e["step"] for e in ev["evaluations"]]
    assert evaluated == written[: len(evaluated)] and final in evaluated, (evaluated, written)
    assert all(e["global_step"] >= e["step"] and math.isfinite(e["held_out_loss"]) for e in ev["evaluations"])
    best = min(ev["evaluations"], key=lambda e: e["held_out_loss"])
    assert [b["step"] for b in ev["best"]] == [best["step"]]
    assert ev["best_checkpoint"].endswith(f"best/model.ckpt-{best['step']}")
    assert os.path.exists(ev["best_checkpoint"] + ".index")
    with open(os.path.join(os.path.dirname(ev["best_checkpoint"]), "best_checkpoints.json")) as f:
        # The listener runs held_out_loss again: TensorFlow's threaded reduce_mean may differ in the last float32 bit.
        assert json.load(f)["best"][0]["value"] == pytest.approx(best["held_out_loss"], rel=1e-6)


@pytest.mark.timeout(600)
def test_tf_config_cluster_with_a_jvm_worker_and_an_evaluator_recovers_from_a_ps_restart(tmp_path):
    report, output = _run_demo(
        tmp_path,
        "--launch", "tf-config", "--workers", "2", "--java-workers", "1", "--steps", "200", "--save-steps", "50",
        bound=540,
    )  # fmt: skip
    _check(report, workers=2, javaWorkers=1, steps=200)
    assert "chief-only hooks ran on: /job:chief/task:0" in output
    assert "JVM worker / Python worker steps/s:" in output


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_tf_config_cluster_with_three_workers(tmp_path):
    report, _ = _run_demo(
        tmp_path,
        "--launch", "tf-config", "--workers", "3", "--java-workers", "1", "--steps", "600", "--save-steps", "100",
        bound=1100,
    )  # fmt: skip
    _check(report, workers=3, javaWorkers=1, steps=600)
