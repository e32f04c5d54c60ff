"""A Python program that drives the JVM MonitoredSession itself through JPype (``builder(...).build()``,
``run``, ``close``, ``with``) gets a Python hook's or listener's exception as the original object and
jhooks' Java errors as their Python twins, as through the bridge's own calls
(jhooks.bridge.process.direct_calls; docs/bridge.md, "Exceptions")."""

from __future__ import annotations

import math
import traceback

import jpype
import pytest
from test_bad_inputs import J, java_list

import jhooks
from jhooks.bridge import as_java_hook, as_java_listener
from jhooks.hooks import NanLossDuringTrainingError, NanTensorHook


def JC(name):
    return jpype.JClass(name)


def run_args(x=1.0):
    """train_step, feeding x (the JvmDriver graph: ``double`` is 2x)."""
    feeds = JC("java.util.Map").of("x:0", JC("org.tensorflow.ndarray.NdArrays").scalarOf(jpype.JFloat(x)))
    return JC("org.jhooks.SessionRunArgs").of(JC("java.util.List").of("train_step"), feeds)


def session(*hooks):
    return JC("org.jhooks.tf.MonitoredSession").builder(J("JvmDriver").graph()).hooks(java_list(*hooks)).build()


class Raising(jhooks.Hook):
    def __init__(self, callback):
        self.callback = callback
        self.raised = None

    def _raise(self, callback):
        if callback == self.callback:
            try:
                {}["learning_rate"]
            except KeyError as e:
                self.raised = ArithmeticError(f"{callback} diverged")
                raise self.raised from e

    def afterCreateSession(self, session, coord):
        self._raise("afterCreateSession")

    def afterSessionRun(self, runContext, runValues):
        self._raise("afterSessionRun")

    def end(self, session):
        self._raise("end")


def assert_original(error, hook):
    assert error is hook.raised
    assert isinstance(error.__cause__, KeyError)  # its own cause, untouched
    frames = [f.name for f in traceback.extract_tb(error.__traceback__)]
    assert "_raise" in frames  # the Python frames it was raised in
    assert any(n.startswith("Java stack trace") for n in error.__notes__)


def test_a_python_hooks_exception_from_a_direct_run_is_the_original_object():
    hook = Raising("afterSessionRun")
    s = session(as_java_hook(hook))
    with pytest.raises(ArithmeticError) as e:
        s.run(run_args())
    assert_original(e.value, hook)
    s.close()


def test_a_python_hooks_exception_from_build_is_the_original_object():
    hook = Raising("afterCreateSession")
    with pytest.raises(ArithmeticError) as e:
        session(as_java_hook(hook))
    assert_original(e.value, hook)


def test_a_python_hooks_exception_from_close_and_from_a_with_block_is_the_original_object():
    hook = Raising("end")
    s = session(as_java_hook(hook))
    s.run(run_args())
    with pytest.raises(ArithmeticError) as e:
        s.close()
    assert_original(e.value, hook)

    hook = Raising("end")
    with pytest.raises(ArithmeticError) as e:
        with session(as_java_hook(hook)) as s:
            s.run(run_args())
    assert_original(e.value, hook)


def test_a_python_nan_tensor_hook_in_a_jvm_session_raises_nan_loss_during_training_error():
    hook = NanTensorHook("double:0")
    s = session(as_java_hook(hook))
    s.run(run_args(1.0))
    with pytest.raises(NanLossDuringTrainingError) as e:
        s.run(run_args(math.nan))
    assert type(e.value) is NanLossDuringTrainingError  # the Python hook's own error, not the Java twin
    assert not isinstance(e.value, JC("java.lang.Throwable"))


def test_a_java_nan_tensor_hook_in_a_direct_run_raises_the_python_twin():
    s = session(JC("org.jhooks.hooks.NanTensorHook")("double:0"))
    with pytest.raises(NanLossDuringTrainingError) as e:
        s.run(run_args(math.nan))
    assert isinstance(e.value.__cause__, JC("org.jhooks.hooks.NanLossDuringTrainingException"))


class FailingListener(jhooks.CheckpointSaverListener):
    def __init__(self, callback):
        self.callback = callback
        self.raised = None

    def _fail(self, callback, step):
        if callback == self.callback:
            self.raised = KeyError(f"{callback} failed at step {step}")
            raise self.raised

    def beforeSave(self, session, globalStep):
        self._fail("beforeSave", globalStep)

    def afterSave(self, session, globalStep):
        self._fail("afterSave", globalStep)
        return False


@pytest.mark.parametrize("callback", ["beforeSave", "afterSave"])
def test_a_python_listeners_exception_during_close_reaches_the_python_caller(tmp_path, callback):
    """The saver saves at creation and at end(): a listener failing from its second call on fails
    close(), whose caller gets the listener's exception (or a CheckpointSaveError caused by it)."""
    listener = FailingListener(None)
    path = JC("java.nio.file.Path").of(str(tmp_path), [])
    s = (
        JC("org.jhooks.tf.MonitoredTrainingSession")
        .builder(J("JvmDriver").graph())
        .checkpointDir(path)
        .saveCheckpointSteps(1000)
        .checkpointSaverListeners(as_java_listener(listener))
        .build()
    )
    s.run(run_args())
    listener.callback = callback
    with pytest.raises(BaseException) as e:
        s.close()
    causes, c = [], e.value
    while c is not None and len(causes) < 10:
        causes.append(c)
        c = c.__cause__
    assert any(c is listener.raised for c in causes), causes
    assert not any(isinstance(c, JC("java.lang.Throwable")) for c in causes[:1]), causes
