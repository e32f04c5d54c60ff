"""The demo end to end: part 1 on the JVM with Python hooks, part 2 in Python with Java hooks,
then the cross-language restore checks and the report (see ``python -m jhooks demo --help``)."""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import dataclass
from typing import Any

import numpy as np

from jhooks.demo import data as demo_data
from jhooks.demo import jvm_part, model, python_part
from jhooks.demo.jars import start_jvm
from jhooks.demo.jvm_part import PartResult

log = logging.getLogger(__name__)

MARKER = "jhooks-demo-report.json"
DEFAULT_DATA_NAME = "Breast Cancer Wisconsin (Diagnostic)"


@dataclass
class DemoConfig:
    csv: str = demo_data.DEFAULT_CSV
    out: str = "jhooks-demo-output"
    stepsJvm: int = 300
    stepsPython: int = 300
    saveSteps: int = 100
    logEvery: int = 50
    learningRate: float = model.DEFAULT_LEARNING_RATE
    progress: bool = True


@dataclass
class RestoreCheck:
    """One comparison of restored (or read) checkpoint values with the values they came from."""

    what: str
    prefix: str
    equal: bool
    maxAbsDiff: float


def _compare(what: str, prefix: str, got: dict[str, Any], expected: dict[str, Any]) -> RestoreCheck:
    diff = 0.0
    equal = True
    for name in model.VARIABLES:
        a = np.asarray(got[name], dtype=np.float64).ravel()
        b = np.asarray(expected[name], dtype=np.float64).ravel()
        if a.shape != b.shape:
            equal, diff = False, float("inf")
            continue
        d = float(np.max(np.abs(a - b))) if a.size else 0.0
        diff = max(diff, d)
        equal = equal and d == 0.0
    return RestoreCheck(what, prefix, equal, diff)


def _checkpoint_values(prefix: str) -> dict[str, np.ndarray]:
    import tensorflow as tf

    reader = tf.train.load_checkpoint(prefix)
    return {name: reader.get_tensor(name) for name in model.VARIABLES}


def check_out(out: str) -> None:
    """Raises FileExistsError unless ``out`` is missing, empty, or the output of an earlier demo."""
    if os.path.isdir(out) and os.listdir(out) and not os.path.exists(os.path.join(out, MARKER)):
        raise FileExistsError(f"{out} is not empty and holds no {MARKER}; give an empty or new --out directory")


def _prepare_out(out: str) -> dict[str, str]:
    """The output dirs; a previous demo's checkpoints and logs there are removed (only when the
    directory holds a demo report, so a user's directory is never emptied)."""
    check_out(out)
    dirs = {
        "checkpoints": os.path.join(out, "checkpoints"),
        "tensorboard_jvm": os.path.join(out, "tensorboard", "jvm"),
        "tensorboard_python": os.path.join(out, "tensorboard", "python"),
    }
    if os.path.isdir(out):
        for sub in ("checkpoints", "tensorboard"):
            shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    for d in dirs.values():
        os.makedirs(d, exist_ok=True)
    return dirs


def run(config: DemoConfig) -> dict[str, Any]:
    """Runs both parts and the checks; returns the report (the ``--json`` document plus details)."""
    start_jvm(natives=True)  # before TensorFlow is imported: one TensorFlow runtime for both languages
    import tensorflow as tf

    dirs = _prepare_out(config.out)
    ckpt = dirs["checkpoints"]
    data = demo_data.load(config.csv)
    checks: list[RestoreCheck] = []

    log.info("part 1: the JVM trains %d steps with Python hooks", config.stepsJvm)
    p1 = jvm_part.run(
        config.csv,
        ckpt,
        dirs["tensorboard_jvm"],
        config.stepsJvm,
        0,
        config.saveSteps,
        config.logEvery,
        config.learningRate,
        config.progress,
    )
    latest1 = tf.train.latest_checkpoint(ckpt)
    if latest1 is None or not latest1.endswith(f"-{p1.lastStep}"):
        raise RuntimeError(
            f"tf.train.latest_checkpoint({ckpt!r}) is {latest1!r}, expected the JVM part's last step {p1.lastStep}"
        )
    read1 = _checkpoint_values(latest1)
    checks.append(
        _compare("Python reads the JVM session's last checkpoint (tf.train.load_checkpoint)", latest1, read1, p1.final)
    )
    checks.append(
        _compare(
            "JVM restores that checkpoint (written by Python)",
            latest1,
            jvm_part.restore_on_jvm(config.csv, latest1),
            p1.final,
        )
    )

    log.info("part 2: Python trains %d steps with Java hooks, from %s", config.stepsPython, latest1)
    p2 = python_part.run(
        config.csv,
        ckpt,
        dirs["tensorboard_python"],
        config.stepsPython,
        p1.lastStep,
        config.saveSteps,
        config.logEvery,
        config.learningRate,
        config.progress,
    )
    checks.append(
        _compare(
            "Python session restored the JVM's checkpoint (MonitoredTrainingSession)",
            latest1,
            p2.extra["restored"],
            read1,
        )
    )
    latest2 = tf.train.latest_checkpoint(ckpt)
    if latest2 is None or not latest2.endswith(f"-{p2.lastStep}"):
        raise RuntimeError(
            f"tf.train.latest_checkpoint({ckpt!r}) is {latest2!r}, expected the Python part's last step {p2.lastStep}"
        )
    checks.append(
        _compare(
            "Python reads its session's last checkpoint (written by Java)",
            latest2,
            _checkpoint_values(latest2),
            p2.final,
        )
    )
    checks.append(
        _compare(
            "JVM restores Python's last checkpoint", latest2, jvm_part.restore_on_jvm(config.csv, latest2), p2.final
        )
    )

    checkpoints = [
        {"step": s, "writer": p.writer, "trainer": trainer}
        for p, trainer in ((p1, "jvm"), (p2, "python"))
        for s in p.savedSteps
    ]
    report = {
        "jvm": _part_json(p1),
        "python": _part_json(p2),
        "accuracy": float(p2.final["accuracy"]),
        "baseline_accuracy": data.baselineAccuracy(),
        "checkpoints": checkpoints,
        "cross_restore_ok": all(c.equal for c in checks),
        "restore_checks": [c.__dict__ for c in checks],
        "latest_checkpoint": latest2,
        "tensorboard": os.path.join(config.out, "tensorboard"),
        "data": {
            "name": DEFAULT_DATA_NAME
            if os.path.abspath(config.csv) == os.path.abspath(demo_data.DEFAULT_CSV)
            else os.path.basename(config.csv),
            "train_rows": len(data.trainY),
            "held_out_rows": len(data.heldOutY),
        },
    }
    with open(os.path.join(config.out, MARKER), "w") as f:
        json.dump(report, f, indent=2)
    return report


def _part_json(p: PartResult) -> dict[str, Any]:
    return {
        "steps": p.lastStep - p.firstStep,
        "first_step": p.firstStep,
        "last_step": p.lastStep,
        "final_loss": float(p.final["loss"]),
        "held_out_loss": float(p.final["held_out_loss"]),
        "accuracy": float(p.final["accuracy"]),
        "steps_per_sec": p.stepsPerSec,
        "checkpoint_writer": p.writer,
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as a plain-text table."""
    d = report["data"]
    lines = [
        "",
        f"jhooks demo: logistic regression on {d['name']}, {d['train_rows']} train / {d['held_out_rows']} "
        "held-out rows",
        "",
        f"{'part':<34} {'global steps':>13} {'loss':>8} {'held-out loss':>14} {'held-out acc':>13}",
    ]
    for key, title in (("jvm", "1: JVM trains, Python hooks"), ("python", "2: Python trains, Java hooks")):
        p = report[key]
        lines.append(
            f"{title:<34} {p['first_step']:>5} -> {p['last_step']:<5} {p['final_loss']:>8.4f} "
            f"{p['held_out_loss']:>14.4f} {p['accuracy']:>13.4f}"
        )
    lines.append(f"{'majority-class baseline':<34} {'':>13} {'':>8} {'':>14} {report['baseline_accuracy']:>13.4f}")
    lines += ["", "checkpoints saved (step: writer language, session trained by)"]
    lines += [
        f"  model.ckpt-{c['step']}: written by {c['writer']}, {c['trainer']} session" for c in report["checkpoints"]
    ]
    lines += ["", "cross-language restores"]
    lines += [
        f"  [{'ok' if c['equal'] else 'DIFFERENT, max |diff| ' + format(c['maxAbsDiff'], 'g')}] {c['what']}: "
        f"{os.path.basename(c['prefix'])}"
        for c in report["restore_checks"]
    ]
    lines += [
        "",
        f"cross_restore_ok: {report['cross_restore_ok']}",
        f"TensorBoard: tensorboard --logdir {report['tensorboard']}",
        "",
    ]
    return "\n".join(lines)
