"""No poisoned checkpoints, listener veto and BestCheckpointsListener in the JVM driver
(org.jhooks.tf.MonitoredTrainingSession) with Python hooks and listeners crossing the bridge:
the driver's default saver with a Python NaN hook and a Python vetoing listener, and a Python
saver with a Java NaN hook; real checkpoints on disk."""

from __future__ import annotations

import json
import os
import re

import jpype
import pytest

from jhooks import CheckpointSaverListener, SaveDecision
from jhooks.bridge import as_java_hook
from jhooks.bridge.hooks.python_hooks import as_java_listener
from jhooks.bridge.process.calls import call_java
from jhooks.checkpoint.state import latest_checkpoint
from jhooks.hooks import BestCheckpointsListener, CheckpointSaverHook, NanLossDuringTrainingError, NanTensorHook

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


class Vetoing(CheckpointSaverListener):
    def __init__(self, skip):
        self.skip, self.calls = set(skip), []

    def beforeSave(self, session, globalStep):
        self.calls.append(f"beforeSave@{globalStep}")
        return SaveDecision.SKIP if globalStep in self.skip else None

    def afterSave(self, session, globalStep):
        self.calls.append(f"afterSave@{globalStep}")
        return False


def recipe_graph(**recipe):
    graph = jpype.JClass("org.tensorflow.Graph")()
    spec = jpype.JClass("com.google.gson.JsonParser").parseString(json.dumps(recipe)).getAsJsonObject()
    jpype.JClass("org.jhooks.conformance.ModelRecipe").build(graph, spec)
    return graph


def steps_in(directory):
    names = (re.match(r"model\.ckpt-(\d+)\.", f) for f in os.listdir(directory))
    return sorted({int(m.group(1)) for m in names if m})


def drive(session, maxRuns=10):
    runs = 0
    try:
        while runs < maxRuns and not session.shouldStop():
            call_java(session.run, "train")
            runs += 1
    finally:
        call_java(session.close)
    return runs


def test_default_saver_python_nan_hook_and_python_veto(tmp_path):
    ckpt = str(tmp_path / "ckpt")
    veto = Vetoing(skip=[1])
    graph = recipe_graph(nanLossAtStep=3)
    try:
        builder = (
            jpype.JClass("org.jhooks.tf.MonitoredTrainingSession")
            .builder(graph)
            .checkpointDir(jpype.JClass("java.nio.file.Path").of(ckpt, []))
            .saveCheckpointSteps(1)
            .logStepCountSteps(0)
            .checkpointSaverListeners(as_java_listener(veto))
            .hooks(jpype.JClass("java.util.List").of(as_java_hook(NanTensorHook("loss:0", failOnNanLoss=False))))
        )
        runs = drive(call_java(builder.build))
    finally:
        graph.close()
    assert runs == 3
    # step 1 vetoed by the Python listener, step 3 refused after the Python NaN hook's report
    assert steps_in(ckpt) == [0, 2]
    assert latest_checkpoint(ckpt) == os.path.join(os.path.abspath(ckpt), "model.ckpt-2")
    assert veto.calls == ["beforeSave@0", "afterSave@0", "beforeSave@1", "beforeSave@2", "afterSave@2"]


def test_python_saver_with_best_listener_and_java_nan_hook(tmp_path):
    ckpt = str(tmp_path / "ckpt")
    best = BestCheckpointsListener(ckpt, "counter_read:0", mode="max", keep=1)
    saver = CheckpointSaverHook(ckpt, saveSteps=1, listeners=[best])
    hooks = jpype.JClass("java.util.ArrayList")()
    hooks.add(as_java_hook(saver))
    hooks.add(jpype.JClass("org.jhooks.hooks.NanTensorHook")("loss:0", True))
    graph = recipe_graph(nanLossAtStep=4)
    try:
        session = call_java(jpype.JClass("org.jhooks.tf.MonitoredSession").builder(graph).hooks(hooks).build)
        with pytest.raises(NanLossDuringTrainingError):  # call_java gives the Python twin
            drive(session)
    finally:
        graph.close()
    # the Python saver, listed first, saw the NaN itself and refused step 4
    assert steps_in(ckpt) == [0, 1, 2, 3]
    assert best.best() == [(3, 3.0)]
    assert steps_in(os.path.join(ckpt, "best")) == [3]
