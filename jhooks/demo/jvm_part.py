"""Part 1 of the demo: ``org.jhooks.demo.JvmTrainingDemo`` trains on the JVM, in this process,
under the jhooks JVM MonitoredTrainingSession, with Python hooks:

- LoggingTensorHook: loss and global step every ``logEvery`` steps;
- StepCounterHook and SummarySaverHook: the step rate (``global_step/sec``) and the loss
  (``loss``, the graph's ``loss_summary``) as TensorBoard scalars in ``tensorboardDir``, every
  ``summary_every(steps)`` steps (at least one point per 10 % of training);
- AsyncCheckpointSaverHook: checkpoints of the JVM session's variables every ``saveSteps`` steps,
  written in a Python background thread (``tf.raw_ops.SaveV2``), state file updated;
- NanTensorHook: stops training with an error on a NaN loss;
- FinalOpsHook: loss, held-out accuracy and the variables at the end;
- ProgressBarHook: a tqdm bar over the global step (only when ``progress``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jhooks.demo import model
from jhooks.demo.jars import start_jvm
from jhooks.demo.launch import python_hooks_installed
from jhooks.hooks import (
    AsyncCheckpointSaverHook,
    FinalOpsHook,
    LoggingTensorHook,
    NanTensorHook,
    ProgressBarHook,
    StepCounterHook,
    SummarySaverHook,
)

MAIN_CLASS = "org.jhooks.demo.JvmTrainingDemo"


def summary_every(steps: int) -> int:
    """Steps between TensorBoard points of a part of ``steps`` steps: two per tenth of it."""
    return max(1, steps // 20)


FINAL_OPS = {
    "loss": model.LOSS,
    "held_out_loss": model.HELD_OUT_LOSS,
    "accuracy": model.ACCURACY,
    "w": "w:0",
    "b": "b:0",
    "global_step": model.GLOBAL_STEP,
}


@dataclass
class PartResult:
    """What one training part did; ``final`` holds FINAL_OPS values (numpy) at its end."""

    firstStep: int
    final: dict[str, np.ndarray]
    savedSteps: list[int]
    writer: str
    stepsPerSec: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def lastStep(self) -> int:
        return int(self.final["global_step"])


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
    """Trains ``steps`` steps on the JVM from the latest checkpoint of ``checkpointDir``
    (``firstStep`` is its global step, 0 without one)."""
    start_jvm(natives=True)
    saver = AsyncCheckpointSaverHook(checkpointDir, saveSteps=saveSteps, maxToKeep=0)
    counter = StepCounterHook(everyNSteps=summary_every(steps), outputDir=tensorboardDir)
    final = FinalOpsHook(FINAL_OPS)
    hooks: list[Any] = [
        LoggingTensorHook({"step": model.GLOBAL_STEP, "loss": model.LOSS}, everyNIter=logEvery),
        counter,
        SummarySaverHook(saveSteps=summary_every(steps), outputDir=tensorboardDir, summaryOp=model.LOSS_SUMMARY),
        saver,
        NanTensorHook(model.LOSS),
        final,
    ]
    if progress:
        hooks.append(ProgressBarHook(lastStep=firstStep + steps, tensors={"loss": model.LOSS}))
    from jhooks.bridge import java_class

    demo = java_class(MAIN_CLASS)
    options = demo.Options.parse(
        [csv, "--steps", str(steps), "--checkpoint-dir", checkpointDir, "--learning-rate", repr(float(learningRate))]
    )
    with python_hooks_installed(hooks):
        demo.run(options)
    values = {k: np.asarray(v) for k, v in final.finalOpsValues().items()}
    return PartResult(firstStep, values, list(saver.savedSteps()), writer="python", stepsPerSec=counter.lastRate())


def restore_on_jvm(csv: str, prefix: str) -> dict[str, np.ndarray]:
    """The JVM restores the checkpoint at ``prefix`` into a fresh demo graph and returns the model
    variables (float64 copies, shapes as in the graph)."""
    from jhooks.bridge import java_class

    start_jvm(natives=True)
    restored = java_class(MAIN_CLASS).restoreVariables(csv, prefix)
    return {str(k): np.array(list(restored.get(k)), dtype=np.float64) for k in restored.keySet()}
