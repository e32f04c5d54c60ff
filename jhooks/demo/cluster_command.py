"""``python -m jhooks cluster-demo``: between-graph training on TensorFlow's gRPC runtime by a
mixed-language cluster on 127.0.0.1 (jhooks/demo/cluster.py, docs/distributed.md)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cluster-demo",
        help="train between-graph on a local TensorFlow cluster: Python chief, JVM and Python workers",
        description="Starts a ps, a Python chief and N workers (K of them JVM processes with Python hooks, "
        "the rest Python with Java hooks) on 127.0.0.1 with free ports, trains the demo model between-graph, "
        "kills and restarts the ps once mid-run, and reports per-task steps/s, which task ran the chief-only "
        "hooks, the checkpoints (writer language) and whether training recovered. Every process it starts "
        "is ended by its PID before it exits.",
    )
    p.add_argument("--workers", type=int, default=2, help="workers besides the chief (default 2)")
    p.add_argument("--java-workers", type=int, default=1, help="how many of them run on the JVM (default 1)")
    p.add_argument("--java-chief", action="store_true", help="run the chief on the JVM too (default: Python)")
    p.add_argument("--steps", type=int, default=600, help="train until this global step (default 600)")
    p.add_argument("--save-steps", type=int, default=100, help="the chief checkpoints every N steps (default 100)")
    p.add_argument("--no-ps-restart", action="store_true", help="do not kill and restart the ps")
    p.add_argument("--out", default=None, help="dir for checkpoints, task logs and results (default: a new temp dir)")
    p.add_argument("--timeout", type=float, default=600, help="seconds before the cluster is ended (default 600)")
    p.add_argument("--json", default=None, help="also write the report as JSON to this path")
    p.add_argument(
        "--launch",
        choices=("spec", "tf-config"),
        default="spec",
        help="how tasks learn their role: 'spec' (default) a spec file per task; 'tf-config' only the TF_CONFIG "
        "variable, as Kubeflow's TFJob operator sets it: a chief job, the workers (the first --java-workers of "
        "them JVMs started by plain java, with Python hooks through jep), a ps and an evaluator",
    )
    p.add_argument("--no-evaluator", action="store_true", help="with --launch tf-config: no evaluator task")
    p.add_argument(
        "--jvm-worker-hooks",
        choices=("python", "java"),
        default="python",
        help="with --launch tf-config: the JVM workers' StopAtStepHook and GlobalStepWaiterHook in Python "
        "(default, through jep) or their Java twins (to measure the crossing)",
    )
    p.set_defaults(run=run)


def format_report(report: dict[str, Any]) -> str:
    lines = ["task                  lang    steps   steps/s  recoveries"]
    for t in report["tasks"]:
        name = f"/job:{t['job']}/task:{t['index']}" + (" (chief)" if t.get("chief") else "")
        lines.append(
            f"{name:<21} {t['lang']:<7} {t['steps']:>5} {t['steps_per_sec']:>9.1f}  {t.get('recoveries', '-')!s:>10}"
        )
    if report.get("jvm_vs_python_worker_steps_per_sec") is not None:
        lines.append(f"JVM worker / Python worker steps/s: {report['jvm_vs_python_worker_steps_per_sec']}")
    lines.append(f"chief-only hooks ran on: {', '.join(report['chief_only_hooks_on']) or 'no task'}")
    lines.append(f"ps restarted: {report['ps_restarted']}; recovered: {report['recovered_after_ps_restart']}")
    steps = [str(c["step"]) for c in report["checkpoints"]]
    writer = report["checkpoints"][0]["writer"] if steps else "-"
    lines.append(f"checkpoints (written by the {writer} chief): steps {', '.join(steps)}")
    lines.append(f"held-out accuracy: {report['accuracy']}")
    if "evaluator" in report:
        ev = report["evaluator"]
        evaluated = ", ".join(str(e["step"]) for e in ev["evaluations"])
        best = ev["best"][0] if ev["best"] else None
        lines.append(f"evaluator: checkpoints {evaluated}; best by held-out loss: {best}")
    lines.append(f"output: {report['out']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    from jhooks.demo.cluster import ClusterDemoConfig, ClusterDemoError
    from jhooks.demo.cluster import run as run_cluster

    try:
        config = ClusterDemoConfig(
            workers=args.workers,
            javaWorkers=args.java_workers,
            javaChief=args.java_chief,
            steps=args.steps,
            saveSteps=args.save_steps,
            restartPs=not args.no_ps_restart,
            out=args.out,
            timeoutSecs=args.timeout,
            launch=args.launch,
            evaluator=not args.no_evaluator,
            jvmWorkerHooks=args.jvm_worker_hooks,
        )
        report = run_cluster(config)
    except (ValueError, FileExistsError) as e:
        print(f"jhooks cluster-demo: {e}", file=sys.stderr)
        return 2
    except ClusterDemoError as e:
        print(f"jhooks cluster-demo: {e}", file=sys.stderr)
        return 1
    print(format_report(report))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    ok = report["accuracy"] is not None and (report["recovered_after_ps_restart"] or not config.restartPs)
    return 0 if ok else 1
