"""Python hooks (user-written and jhooks' standard ones) in Keras 3's eager model.fit, through
jhooks.keras.to_keras_callbacks: lifecycle, fetched values, stops, errors (docs/keras.md)."""

import logging

import keras
import numpy as np
import pytest
import tensorflow as tf
from keras_model import Recorder, data, dense_model

import jhooks
from jhooks import hooks as pyhooks
from jhooks.api.errors import HookError
from jhooks.api.suppressed import suppressed
from jhooks.keras import to_keras_callbacks
from jhooks.tf import GraphNameError

pytestmark = pytest.mark.timeout(300)


class LogsSeen(keras.callbacks.Callback):
    """What Keras itself hands a callback at each batch end, for comparison."""

    def __init__(self):
        super().__init__()
        self.losses, self.kernels = [], []

    def on_train_batch_end(self, batch, logs=None):
        self.losses.append(logs["loss"])
        self.kernels.append(keras.ops.convert_to_numpy(self.model.get_layer("out").kernel))


def test_lifecycle_and_fetched_values_at_the_end_of_every_batch():
    model = dense_model()
    log = []
    rec = Recorder(log, {"loss": "loss", "step": "global_step", "kernel": "net/out/kernel:0", "mae": "mae"})
    seen = LogsSeen()
    model.fit(*data(5), batch_size=4, epochs=2, verbose=0, callbacks=[*to_keras_callbacks([rec]), seen])

    per_batch = ["rec.beforeSessionRun", "rec.afterSessionRun"]
    assert log == ["rec.beginSession", "rec.afterCreateSession step=0", *per_batch * 10, "rec.end step=10"]
    assert [int(r["step"]) for r in rec.results] == list(range(1, 11))
    for r, loss, kernel in zip(rec.results, seen.losses, seen.kernels):
        assert r["loss"].dtype == np.float32 and r["loss"].shape == () and float(r["loss"]) == loss
        assert r["step"].dtype == np.int64
        assert r["kernel"].dtype == np.float32 and r["kernel"].shape == (8, 1)
        np.testing.assert_array_equal(r["kernel"], kernel)
    assert not np.array_equal(rec.results[0]["kernel"], rec.results[-1]["kernel"])  # it trained


def test_stop_at_step_stops_fit_and_a_second_fit_past_the_last_step_trains_no_batch():
    model = dense_model()
    log = []
    callbacks = to_keras_callbacks([pyhooks.StopAtStepHook(lastStep=3), Recorder(log)])
    model.fit(*data(10), batch_size=4, epochs=3, verbose=0, callbacks=callbacks)
    assert int(model.optimizer.iterations) == 3
    assert log[-1] == "rec.end step=3" and log.count("rec.afterSessionRun") == 3

    log.clear()
    kernel = keras.ops.convert_to_numpy(model.get_layer("out").kernel)
    model.fit(*data(10), batch_size=4, epochs=3, verbose=0, callbacks=callbacks)
    assert int(model.optimizer.iterations) == 3
    np.testing.assert_array_equal(keras.ops.convert_to_numpy(model.get_layer("out").kernel), kernel)
    assert log == ["rec.beginSession", "rec.afterCreateSession step=3", "rec.end step=3"]


def test_nan_loss_raises_out_of_fit_with_on_error_and_no_end():
    model = dense_model()
    log = []
    nan = pyhooks.NanTensorHook("loss")
    with pytest.raises(pyhooks.NanLossDuringTrainingError):
        model.fit(
            *data(6, nan_from=2),
            batch_size=4,
            shuffle=False,
            verbose=0,
            callbacks=to_keras_callbacks([nan, Recorder(log)]),
        )
    assert log[-1] == "rec.onError NanLossDuringTrainingError"
    assert not [e for e in log if e.startswith("rec.end")]
    assert int(model.optimizer.iterations) == 3  # batch 3 made the loss NaN


def test_nan_tensor_hook_without_failing_stops_fit_and_marks_the_step_in_the_guard():
    model = dense_model()
    log = []

    class Guard(jhooks.Hook):
        def afterCreateSession(self, session, coord):
            self.session = session

    guard = Guard()
    callbacks = to_keras_callbacks([pyhooks.NanTensorHook("loss:0", failOnNanLoss=False), guard, Recorder(log)])
    model.fit(*data(6, nan_from=2), batch_size=4, shuffle=False, verbose=0, callbacks=callbacks)
    assert int(model.optimizer.iterations) == 3  # the NaN batch ran, then fit stopped
    assert jhooks.CheckpointGuard.of(guard.session).nanStep() == 3
    assert log[-1] == "rec.end step=3"


def test_a_failing_training_step_calls_on_error_and_raises_out_of_fit():
    model = dense_model()
    log = []
    x, y = data(6)

    def batches():
        for i in range(6):
            if i == 2:
                raise ValueError("broken input at batch 2")
            yield x[i * 4 : i * 4 + 4], y[i * 4 : i * 4 + 4]

    class Failing(jhooks.Hook):
        def onError(self, session, error):
            raise RuntimeError("onError failed too")

    # tf.data runs the generator: its ValueError leaves fit as an InvalidArgumentError
    with pytest.raises(tf.errors.InvalidArgumentError, match="broken input at batch 2") as caught:
        model.fit(batches(), steps_per_epoch=6, verbose=0, callbacks=to_keras_callbacks([Failing(), Recorder(log)]))
    assert log[-1] == "rec.onError InvalidArgumentError" and log.count("rec.afterSessionRun") == 2
    assert [str(e) for e in suppressed(caught.value)] == ["onError failed too"]
    assert model.train_function.__name__ != "train"  # the model's own train function is back


def test_feeds_are_refused_naming_the_hook():
    class Feeder(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            return jhooks.SessionRunArgs(feeds={"x:0": np.float32(1)})

    log = []
    with pytest.raises(HookError) as caught:
        dense_model().fit(*data(2), batch_size=4, verbose=0, callbacks=to_keras_callbacks([Recorder(log), Feeder()]))
    assert caught.value.hook.endswith("Feeder") and caught.value.callback == "beforeSessionRun"
    assert "'x:0'" in str(caught.value) and "no feeds" in str(caught.value)
    assert log[-1] == "rec.onError HookError"


def test_an_unknown_name_is_a_graph_name_error_naming_the_hook_and_the_name():
    log = []
    with pytest.raises(GraphNameError) as caught:
        dense_model().fit(*data(2), batch_size=4, verbose=0, callbacks=to_keras_callbacks([Recorder(log, "nope:0")]))
    error = caught.value
    assert error.hook.endswith("Recorder") and error.callback == "beforeSessionRun" and error.name == "nope:0"
    assert "net/out/kernel" in str(error) and "'loss'" in str(error)
    assert log[-1] == "rec.onError GraphNameError"


def test_a_raw_run_refuses_feeds_and_reads_variables_and_the_global_step():
    model = dense_model()
    got = {}

    class Reader(jhooks.Hook):
        def afterCreateSession(self, session, coord):
            got["before"] = session.run(["global_step", "net/hidden/bias"])
            with pytest.raises(HookError, match="Reader.afterCreateSession: fed"):
                session.run("global_step", feeds={"global_step": np.int64(1)})

        def end(self, session):
            got["after"] = session.run({"step": "global_step", "loss": "loss"})

    model.fit(*data(3), batch_size=4, verbose=0, callbacks=to_keras_callbacks([Reader()]))
    assert int(got["before"][0]) == 0 and got["before"][1].shape == (8,)
    assert int(got["after"]["step"]) == 3 and got["after"]["loss"].dtype == np.float32


def test_the_coordinator_stops_fit_and_a_stop_by_another_callback_still_ends_the_hooks():
    class StopAfterTwo(jhooks.Hook):
        def afterCreateSession(self, session, coord):
            self.coord = coord

        def afterSessionRun(self, runContext, runValues):
            if runContext.session.globalStep() == 2:
                self.coord.requestStop()

    model = dense_model()
    log = []
    model.fit(*data(10), batch_size=4, verbose=0, callbacks=to_keras_callbacks([StopAfterTwo(), Recorder(log)]))
    assert int(model.optimizer.iterations) == 2 and log[-1] == "rec.end step=2"

    log.clear()
    early = keras.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=1e9)
    model.fit(*data(3), batch_size=4, epochs=5, verbose=0, callbacks=[*to_keras_callbacks([Recorder(log)]), early])
    assert log[-1] == "rec.end step=8"  # no improvement in its second epoch of 3 batches: 2 + 3 + 3


def test_a_stop_cause_given_to_the_coordinator_is_raised_after_end():
    class Cause(jhooks.Hook):
        def afterCreateSession(self, session, coord):
            if session.globalStep() == 0:
                coord.requestStop(RuntimeError("stop with a cause"))

    model = dense_model()
    log = []
    with pytest.raises(RuntimeError, match="stop with a cause"):
        model.fit(*data(3), batch_size=4, verbose=0, callbacks=to_keras_callbacks([Cause(), Recorder(log)]))
    # a model that never trained runs one batch: Keras cannot end an epoch without one
    assert log[-3:] == ["rec.beforeSessionRun", "rec.afterSessionRun", "rec.end step=1"]


def test_logging_tensor_and_step_counter_hooks(tmp_path, caplog):
    hooks = [
        pyhooks.LoggingTensorHook({"loss": "loss", "step": "global_step"}, everyNIter=2),
        pyhooks.StepCounterHook(everyNSteps=2, outputDir=str(tmp_path)),
    ]
    with caplog.at_level(logging.INFO):
        dense_model().fit(*data(6), batch_size=4, verbose=0, callbacks=to_keras_callbacks(hooks))
    logged = [r.getMessage() for r in caplog.records if r.name.startswith("jhooks.hooks.logging_tensor")]
    assert len(logged) == 3 and "step = 1" in logged[0] and "step = 5" in logged[-1]
    assert hooks[1].lastRate() is not None and hooks[1].lastRate() > 0
    assert [f for f in tmp_path.iterdir() if f.name.startswith("events.out.tfevents.")]


def test_the_session_view_saves_a_name_based_checkpoint_and_restores_it(tmp_path):
    model = dense_model()
    views = []

    class Keep(jhooks.Hook):
        def end(self, session):
            session.save(str(tmp_path / "ckpt" / "model-3"))
            views.append(session)

    model.fit(*data(3), batch_size=4, verbose=0, callbacks=to_keras_callbacks([Keep()]))
    reader = tf.train.load_checkpoint(str(tmp_path / "ckpt" / "model-3"))
    assert sorted(reader.get_variable_to_shape_map()) == sorted(views[0].saveableVariables())
    assert reader.get_tensor("global_step") == 3
    kernel = keras.ops.convert_to_numpy(model.get_layer("out").kernel)
    np.testing.assert_array_equal(reader.get_tensor("net/out/kernel"), kernel)
    model.get_layer("out").kernel.assign(np.zeros((8, 1), np.float32))
    views[0].restore(str(tmp_path / "ckpt" / "model-3"))
    np.testing.assert_array_equal(keras.ops.convert_to_numpy(model.get_layer("out").kernel), kernel)


def test_what_is_not_a_jhooks_hook_is_refused_at_to_keras_callbacks():
    with pytest.raises(jhooks.HookValidationError, match="StopAtStepHook is not a jhooks.Hook"):
        to_keras_callbacks([tf.compat.v1.train.StopAtStepHook(last_step=3)])


class MyProfiler(pyhooks.ProfilerHook):
    pass


@pytest.mark.parametrize(
    "hook,named,reason",
    [
        (pyhooks.ProfilerHook(saveSteps=1), "jhooks.hooks.profiler.ProfilerHook", "RunMetadata"),
        (MyProfiler(saveSteps=1), "a jhooks.hooks.profiler.ProfilerHook", "profile_batch"),
        (pyhooks.FeedFnHook(dict), "jhooks.hooks.feed_fn.FeedFnHook", "has no feeds"),
        (pyhooks.GlobalStepWaiterHook(5), "jhooks.hooks.global_step_waiter.GlobalStepWaiterHook", "wait forever"),
    ],
    ids=["profiler", "subclass", "feed_fn", "global_step_waiter"],
)
def test_standard_hooks_needing_graph_features_are_refused_by_name(hook, named, reason):
    with pytest.raises(jhooks.HookValidationError) as caught:
        to_keras_callbacks([pyhooks.StopAtStepHook(lastStep=2), hook])
    message = str(caught.value)
    assert message.startswith(f"{type(hook).__module__}.{type(hook).__qualname__} is {named}, which Keras model.fit")
    assert reason in message and message.endswith("(to_keras_callbacks)")


def test_steps_per_execution_calls_the_run_callbacks_once_per_execution():
    model = dense_model()
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse", steps_per_execution=2)
    log = []
    rec = Recorder(log, "global_step")
    model.fit(*data(6), batch_size=4, verbose=0, callbacks=to_keras_callbacks([rec]))
    assert [int(r) for r in rec.results] == [2, 4, 6]


def test_a_model_dependent_hook_gets_the_keras_model_instance_unless_given_one():
    class Loss(jhooks.ModelDependentHook):
        def beforeSessionRun(self, runContext):
            return jhooks.SessionRunArgs([self.modelInstance.loss, self.modelInstance.globalStep])

        def afterSessionRun(self, runContext, runValues):
            self.last = runValues.results

    default, given = Loss(), Loss()
    to_keras_callbacks([given], jhooks.ModelInstance.of(loss="mae", trainOp="none", globalStep="global_step"))
    dense_model().fit(*data(2), batch_size=4, verbose=0, callbacks=to_keras_callbacks([default]))
    assert default.modelInstance.loss == "loss:0" and int(default.last[1]) == 2
    assert default.last[0].dtype == np.float32 and given.modelInstance.loss == "mae"


def test_an_end_that_raises_calls_on_error_on_every_hook_and_leaves_fit():
    class BadEnd(jhooks.Hook):
        def end(self, session):
            raise StopIteration("not end of input here")

    log = []
    with pytest.raises(HookError, match="BadEnd.end: raised StopIteration") as caught:
        dense_model().fit(*data(2), batch_size=4, verbose=0, callbacks=to_keras_callbacks([BadEnd(), Recorder(log)]))
    # Keras' traceback filtering re-raises "from None": the original stays the __context__
    assert isinstance(caught.value.__context__, StopIteration)
    assert log[-1] == "rec.onError HookError" and not [e for e in log if e.startswith("rec.end")]
