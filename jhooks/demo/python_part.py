"""Part 2 of the demo: Python (``tf.compat.v1``) builds the same model graph, its
MonitoredTrainingSession restores the latest checkpoint of the checkpoint dir (written during the
JVM part) and trains on, with Java hooks through ``jhooks.bridge.JavaHook``:

- Java AsyncCheckpointSaverHook: checkpoints of the Python session every ``saveSteps`` steps,
  written in a JVM background thread (tensorflow-java SaveV2), state file updated;
- Java LoggingTensorHook: loss and global step every ``logEvery`` steps (to Python logging, as
  ``org.jhooks.hooks.LoggingTensorHook``);
- Java FinalOpsHook: loss, held-out accuracy and the variables at the end;
- Java StepCounterHook and SummarySaverHook: the step rate (``global_step/sec``) and the loss
  (``loss``) as TensorBoard scalars in ``tensorboardDir``, every ``summary_every(steps)`` steps;
- Java ProgressBarHook: a bar over the global step with the loss (only when ``progress``), drawn
  by Python as every bar of a Python-driven JVM;

plus a ``RestoreProbe`` that reads the variables right after the session restored them, and TF's
own StopAtStepHook.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jhooks.api.hook import Hook
from jhooks.demo import data as demo_data
from jhooks.demo import model
from jhooks.demo.jars import start_jvm
from jhooks.demo.jvm_part import FINAL_OPS, PartResult, summary_every


class RestoreProbe(Hook):
    """Reads the model variables once, right after the first session is created (restored)."""

    def __init__(self) -> None:
        self.values: dict[str, np.ndarray] | None = None

    def afterCreateSession(self, session: Any, coord: Any) -> None:
        if self.values is None:
            fetched = session.run({name: f"{name}:0" for name in model.VARIABLES})
            self.values = {k: np.asarray(v) for k, v in fetched.items()}


def _java_map(mapping: dict[str, str]):
    from jhooks.bridge import java_class

    m = java_class("java.util.LinkedHashMap")()
    for k, v in mapping.items():
        m.put(k, v)
    return m


def run(
    csv: str,
    checkpointDir: str,
    tensorboardDir: str,
    steps: int,
    firstStep: int,
    saveSteps: int,
    logEvery: int,
    learningRate: float,
    progress: bool,
) -> PartResult:
    """Trains ``steps`` steps in Python from the latest checkpoint of ``checkpointDir``
    (``firstStep`` is its global step)."""
    start_jvm()  # before TensorFlow: one runtime, shared with the JVM
    import tensorflow as tf

    from jhooks.bridge import java_class
    from jhooks.bridge.convert.arrays import to_numpy
    from jhooks.bridge.hooks.java_hooks import JavaHook
    from jhooks.tf import to_tf_hooks

    hooks_pkg = "org.jhooks.hooks."
    java_saver = (
        java_class(hooks_pkg + "AsyncCheckpointSaverHook")
        .builder(checkpointDir)
        .saveSteps(saveSteps)
        .maxToKeep(0)
        .build()
    )
    java_logger = java_class(hooks_pkg + "LoggingTensorHook")(
        _java_map({"step": model.GLOBAL_STEP, "loss": model.LOSS}),
        java_class("java.lang.Integer").valueOf(logEvery),
        None,
        False,
        None,
    )
    java_final = java_class(hooks_pkg + "FinalOpsHook")(_java_map(FINAL_OPS))
    probe = RestoreProbe()
    every = java_class("java.lang.Integer").valueOf(summary_every(steps))
    counter = java_class(hooks_pkg + "StepCounterHook")(every, None, tensorboardDir, None)
    summaries = java_class(hooks_pkg + "SummarySaverHook")(every, None, tensorboardDir, None, None, model.LOSS_SUMMARY)

    java_hooks = [java_logger, counter, summaries, java_saver, java_final]
    if progress:
        last = java_class("java.lang.Long").valueOf(firstStep + steps)
        java_hooks.append(java_class(hooks_pkg + "ProgressBarHook")(last, _java_map({"loss": model.LOSS}), None, None))

    demo = model.build(demo_data.load(csv), learningRate)
    with demo.graph.as_default():
        hooks = to_tf_hooks([probe, *(JavaHook(h) for h in java_hooks)]) + [
            tf.compat.v1.train.StopAtStepHook(num_steps=steps)
        ]
        scaffold = tf.compat.v1.train.Scaffold(saver=demo.saver)
        with tf.compat.v1.train.MonitoredTrainingSession(
            checkpoint_dir=checkpointDir,
            scaffold=scaffold,
            hooks=hooks,
            save_checkpoint_secs=None,
            save_checkpoint_steps=None,
            save_summaries_steps=None,
            save_summaries_secs=None,
            log_step_count_steps=None,
        ) as session:
            while not session.should_stop():
                session.run(demo.trainOp)
    final = {str(k): to_numpy(v) for k, v in dict(java_final.finalOpsValues()).items()}
    first = int(probe.values["global_step"]) if probe.values else 0
    return PartResult(
        first,
        final,
        [int(s) for s in java_saver.savedSteps()],
        writer="java",
        stepsPerSec=None if counter.lastRate() is None else float(counter.lastRate()),
        extra={"restored": probe.values},
    )
