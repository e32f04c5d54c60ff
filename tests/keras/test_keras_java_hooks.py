"""Java hooks (jhooks.bridge.JavaHook) in Keras 3's eager model.fit, alone and mixed with Python
hooks, through jhooks.keras.to_keras_callbacks (docs/keras.md)."""

import jpype
import numpy as np
import pytest
from keras_model import Recorder, data, dense_model

import jhooks
from jhooks.bridge import JavaHook
from jhooks.hooks import NanLossDuringTrainingError
from jhooks.keras import to_keras_callbacks

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


def java_hook(name, *args):
    return JavaHook(jpype.JClass("org.jhooks.hooks." + name)(*args))


def test_a_java_stop_at_step_hook_stops_fit_with_python_hooks_around_it():
    model = dense_model()
    log = []
    before, after = Recorder(log, "global_step:0", "before"), Recorder(log, "loss:0", "after")
    stop = java_hook("StopAtStepHook", None, jpype.JLong(4))
    model.fit(*data(10), batch_size=4, epochs=2, verbose=0, callbacks=to_keras_callbacks([before, stop, after]))
    assert int(model.optimizer.iterations) == 4
    assert [int(r) for r in before.results] == [1, 2, 3, 4]
    assert len(after.results) == 4 and all(r.dtype == np.float32 for r in after.results)
    assert log[-2:] == ["before.end step=4", "after.end step=4"]
    assert str(stop.java.lastStep()) == "4"

    log.clear()  # a second fit: the Java hook asks the coordinator to stop before any batch
    model.fit(*data(10), batch_size=4, verbose=0, callbacks=to_keras_callbacks([stop, after]))
    assert int(model.optimizer.iterations) == 4
    assert log == ["after.beginSession", "after.afterCreateSession step=4", "after.end step=4"]


def test_a_java_nan_tensor_hook_fails_fit_as_its_python_twin_with_on_error():
    model = dense_model()
    log = []
    nan = java_hook("NanTensorHook", "loss:0")
    callbacks = to_keras_callbacks([nan, Recorder(log)])
    with pytest.raises(NanLossDuringTrainingError) as caught:
        model.fit(*data(6, nan_from=2), batch_size=4, shuffle=False, verbose=0, callbacks=callbacks)
    assert (
        str(caught.value) == "NaN loss during training. (NanTensorHook.afterSessionRun: loss:0 is NaN at global step 3)"
    )
    java = caught.value.__context__  # Keras re-raises "from None": the Java original is the context
    assert str(java.getClass().getName()) == "org.jhooks.hooks.NanLossDuringTrainingException"
    assert log[-1] == "rec.onError NanLossDuringTrainingError"
    assert not [e for e in log if e.startswith("rec.end")]


def test_a_java_step_counter_hook_writes_its_event_file(tmp_path):
    counter = java_hook("StepCounterHook", jpype.JInt(2), None, str(tmp_path), None)
    dense_model().fit(*data(6), batch_size=4, verbose=0, callbacks=to_keras_callbacks([counter]))
    assert [f for f in tmp_path.iterdir() if f.name.startswith("events.out.tfevents.")]


@pytest.mark.parametrize(
    "hook",
    [
        lambda: JavaHook("org.jhooks.hooks.GlobalStepWaiterHook", jpype.JLong(5)),
        lambda: JavaHook(
            "org.jhooks.hooks.FeedFnHook", jpype.JProxy("java.util.function.Supplier", dict={"get": lambda: None})
        ),
    ],
    ids=["global_step_waiter", "feed_fn"],
)
def test_java_standard_hooks_needing_graph_features_are_refused_by_name(hook):
    java = hook()
    with pytest.raises(jhooks.HookValidationError) as caught:
        to_keras_callbacks([java_hook("StopAtStepHook", None, jpype.JLong(4)), java])
    name = java.javaClassName
    assert str(caught.value).startswith(f"hook ({name}, Java) is {name}, which Keras model.fit cannot run: ")
