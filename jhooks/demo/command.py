"""``python -m jhooks demo``: the cross-language training demo (jhooks/demo)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="train on real data on the JVM with Python hooks, then in Python with Java hooks",
        description="Part 1: tensorflow-java trains a logistic regression on the bundled Breast Cancer "
        "Wisconsin data under the jhooks JVM MonitoredTrainingSession with Python hooks. "
        "Part 2: Python TensorFlow resumes from the JVM's checkpoint with Java hooks. "
        "Prints steps, losses, held-out accuracy, the checkpoints and cross-restore checks.",
    )
    p.add_argument("--steps-jvm", type=int, default=300, help="training steps on the JVM (default 300)")
    p.add_argument("--steps-python", type=int, default=300, help="training steps in Python (default 300)")
    p.add_argument("--save-steps", type=int, default=100, help="checkpoint every N global steps (default 100)")
    p.add_argument(
        "--out",
        default="jhooks-demo-output",
        help="output dir: checkpoints/, tensorboard/ and the report (default ./jhooks-demo-output)",
    )
    p.add_argument("--csv", default=None, help="data CSV (default: the bundled wdbc.csv)")
    p.add_argument("--json", default=None, help="also write the summary as JSON to this path")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    from jhooks.bridge.process import console

    logging.basicConfig(level=logging.INFO, format=console.DEFAULT_FORMAT, stream=sys.stderr)
    from jhooks.demo import data
    from jhooks.demo.jars import start_jvm
    from jhooks.demo.run import DemoConfig, check_out, format_report
    from jhooks.demo.run import run as run_demo

    for flag, value in (
        ("--steps-jvm", args.steps_jvm),
        ("--steps-python", args.steps_python),
        ("--save-steps", args.save_steps),
    ):
        if value <= 0:
            print(f"jhooks demo: {flag} must be positive, got {value}", file=sys.stderr)
            return 2
    try:
        check_out(args.out)
    except FileExistsError as e:
        print(f"jhooks demo: {e}", file=sys.stderr)
        return 2
    start_jvm(natives=True)  # part 1 is a JVM session; Java log records go to Python logging from now on
    # The step rate goes to TensorBoard twenty times a part: keep it out of the console, in both
    # languages alike (docs/logging.md).
    for name in ("jhooks.hooks.step_counter", "org.jhooks.hooks.StepCounterHook"):
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.getLogger("matplotlib").setLevel(logging.WARNING)  # "generated new fontManager" in a new home
    config = DemoConfig(
        csv=args.csv or data.DEFAULT_CSV,
        out=args.out,
        stepsJvm=args.steps_jvm,
        stepsPython=args.steps_python,
        saveSteps=args.save_steps,
        logEvery=max(1, min(args.steps_jvm, args.steps_python) // 4),
        progress=not args.no_progress,
    )
    report = run_demo(config)
    print(format_report(report))
    if args.json:
        keys = ("jvm", "python", "accuracy", "baseline_accuracy", "checkpoints", "cross_restore_ok")
        with open(args.json, "w") as f:
            json.dump({k: report[k] for k in keys}, f, indent=2)
    return 0 if report["cross_restore_ok"] else 1
