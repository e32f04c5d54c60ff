"""The Python model recipe builds the documented names with the documented per-run values."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from jhooks.conformance import model_python  # noqa: E402

RUN = ["global_step_read:0", "counter_read:0", "loss:0", "train"]


def _session(recipe):
    built = model_python.build(recipe)
    with built.graph.as_default():
        init = tf.compat.v1.global_variables_initializer()
    sess = tf.compat.v1.Session(graph=built.graph)
    sess.run(init)
    return built, sess


def test_names_and_variable_kinds():
    built, sess = _session(
        {"input": {"values": [1.0]}, "failAtStep": 3, "placeholders": [{"name": "x", "dtype": "int32", "shape": []}]}
    )
    g = built.graph
    kinds = {
        n: g.get_operation_by_name(n).type
        for n in [
            "global_step",
            "counter",
            "train",
            "input_next",
            "fail_at",
            "x",
            "x_doubled",
            "global_step_read",
            "counter_read",
            "loss",
        ]
    }
    assert kinds == {
        "global_step": "VariableV2",
        "counter": "VariableV2",
        "train": "AssignAdd",
        "input_next": "IteratorGetNext",
        "fail_at": "Assert",
        "x": "Placeholder",
        "x_doubled": "AddV2",
        "global_step_read": "AddV2",
        "counter_read": "AddV2",
        "loss": "Identity",
    }
    assert built.modelInstance.endpoints == {"loss": "loss:0", "trainOp": "train", "globalStep": "global_step:0"}
    sess.close()


def test_reads_see_values_before_the_increment():
    _, sess = _session({"counterIncrement": 0.5})
    seen = [sess.run(RUN) for _ in range(3)]
    assert [(int(s), float(c), float(l)) for s, c, l, _ in seen] == [(0, 0.0, 0.0), (1, 0.5, 0.5), (2, 1.0, 1.0)]
    assert [int(v) for v in sess.run(["global_step:0"])] == [3]
    sess.close()


def test_input_ends_with_out_of_range_after_its_elements():
    _, sess = _session({"input": {"values": [10.0, 20.0]}})
    assert [float(sess.run(["input_next:0", "train"])[0]) for _ in range(2)] == [10.0, 20.0]
    with pytest.raises(tf.errors.OutOfRangeError):
        sess.run("train")
    assert int(sess.run("global_step:0")) == 2
    sess.close()


def test_fail_at_step_fails_that_train_run_with_invalid_argument():
    _, sess = _session({"failAtStep": 2})
    sess.run("train")
    with pytest.raises(tf.errors.InvalidArgumentError, match="fail_at step 2"):
        sess.run("train")
    assert int(sess.run("global_step:0")) == 1
    sess.close()


def test_nan_loss_at_step_and_required_placeholder():
    _, sess = _session(
        {"nanLossAtStep": 2, "placeholders": [{"name": "x", "dtype": "float32", "shape": [2], "requiredByTrain": True}]}
    )
    feed = {"x:0": np.array([1.0, -2.0], np.float32)}
    first = sess.run(["loss:0", "x_doubled:0", "train"], feed)
    second = sess.run(["loss:0", "train"], feed)
    assert float(first[0]) == 0.0 and first[1].tolist() == [2.0, -4.0] and np.isnan(second[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="x"):
        sess.run("train")
    sess.close()
