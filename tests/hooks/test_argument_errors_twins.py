"""The argument checks TF's hook tests expect as ValueError (StopAtStep, LoggingTensor, StepCounter,
SummarySaver, Profiler, the checkpoint savers' saveSecs/saveSteps; the asynchronous saver against
TF's CheckpointSaverHook, whose arguments it takes): the Python twin raises ValueError with TF's
text, and the Java twin, built from Python, refuses with the same text as an
IllegalArgumentException that is also a ValueError (jhooks.bridge.convert.standard_errors)."""

from __future__ import annotations

import jpype
import pytest
import tensorflow as tf

from jhooks import hooks as pyhooks
from jhooks.bridge import JavaHook

TF = tf.compat.v1.train

CASES = [
    # (hook, jhooks keyword arguments, TF's keyword arguments or None when TF does not check)
    ("StopAtStepHook", dict(numSteps=1, lastStep=2), dict(num_steps=1, last_step=2)),
    ("StopAtStepHook", dict(), dict()),
    ("LoggingTensorHook", dict(tensors=["loss:0"], everyNIter=0), dict(tensors=["loss:0"], every_n_iter=0)),
    ("LoggingTensorHook", dict(tensors=["loss:0"], everyNIter=1, everyNSecs=1.0), None),
    ("StepCounterHook", dict(everyNSteps=10, everyNSecs=1.0), dict(every_n_steps=10, every_n_secs=1.0)),
    ("SummarySaverHook", dict(saveSteps=1, outputDir="x"), dict(save_steps=1, output_dir="x")),
    ("SummarySaverHook", dict(outputDir="x", summaryOp="s:0"), None),
    ("ProfilerHook", dict(outputDir="x"), dict(output_dir="x")),
    ("ProfilerHook", dict(saveSteps=1, saveSecs=1.0), dict(save_steps=1, save_secs=1.0)),
    ("CheckpointSaverHook", dict(checkpointDir="x"), dict(checkpoint_dir="x")),
    (
        "CheckpointSaverHook",
        dict(checkpointDir="x", saveSteps=1, saveSecs=1.0),
        dict(checkpoint_dir="x", save_steps=1, save_secs=1.0),
    ),
    ("AsyncCheckpointSaverHook", dict(checkpointDir="x"), dict(checkpoint_dir="x")),
    (
        "AsyncCheckpointSaverHook",
        dict(checkpointDir="x", saveSteps=1, saveSecs=1.0),
        dict(checkpoint_dir="x", save_steps=1, save_secs=1.0),
    ),
]

# jhooks hooks with no hook of that name in TF: the TF hook they mirror
TF_NAMES = {"AsyncCheckpointSaverHook": "CheckpointSaverHook"}


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


@pytest.mark.parametrize(("hook", "kwargs", "tf_kwargs"), CASES)
def test_python_and_java_twins_refuse_with_tensorflows_text(hook, kwargs, tf_kwargs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # TF's ProfilerHook opens its event file (in "x") before checking
    with pytest.raises(ValueError) as python:
        getattr(pyhooks, hook)(**kwargs)
    if tf_kwargs is not None:
        with pytest.raises(ValueError) as theirs, tf.Graph().as_default():
            getattr(TF, TF_NAMES.get(hook, hook))(**tf_kwargs)
        assert str(python.value) == str(theirs.value)
    with pytest.raises(ValueError) as java:
        JavaHook("org.jhooks.hooks." + hook, **kwargs)
    assert isinstance(java.value, jpype.JClass("java.lang.IllegalArgumentException"))
    assert str(java.value.getMessage()) == str(python.value)
