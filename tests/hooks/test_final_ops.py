"""FinalOpsHook under TF's MonitoredSession, against TF's own FinalOpsHook."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, train

import jhooks
from jhooks.hooks import FinalOpsHook


def build_with_input(n):
    m = Model(inputs=n)
    m.trainFromInput = m.train
    return m


def as_plain(values):
    if isinstance(values, dict):
        return {k: as_plain(v) for k, v in values.items()}
    if isinstance(values, (list, tuple)):
        return type(values)(as_plain(v) for v in values)
    return None if values is None else np.asarray(values).tolist()


@pytest.mark.parametrize("structure", ["single", "list", "tuple", "dict"])
def test_same_values_and_structure_as_tensorflow(structure):
    def fetches(names):
        return {
            "single": names[0],
            "list": list(names),
            "tuple": tuple(names),
            "dict": {"count": names[0], "nested": [names[1], names[2]]},
        }[structure]

    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        tfHook = tf.compat.v1.train.FinalOpsHook(
            fetches([m.count, m.w, m.loss]), final_ops_feed_dict={m.x: np.full([4], 2.0, np.float32)}
        )
        train([tfHook], m, 5)
    _, m2 = in_graph(Model)
    with m2.gs.graph.as_default():
        hook = FinalOpsHook(
            fetches(["count:0", "w:0", "loss:0"]), finalOpsFeedDict={"x:0": np.full([4], 2.0, np.float32)}
        )
        assert hook.finalOpsValues() is None
        train([hook], m2, 5)
    ours = hook.finalOpsValues()
    assert type(ours) is type(tfHook.final_ops_values) or structure == "single"
    assert as_plain(ours) == as_plain(tfHook.final_ops_values)
    assert as_plain(ours if structure != "single" else [ours])[0 if structure != "dict" else "count"] == 5


def test_not_run_when_the_session_ends_with_another_error():
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = FinalOpsHook("count:0")
        tfHook = tf.compat.v1.train.FinalOpsHook(m.count)
        with pytest.raises(RuntimeError, match="boom"):
            with tf.compat.v1.train.MonitoredSession(hooks=__import__("jhooks.tf").tf.to_tf_hooks([hook, tfHook])) as s:
                s.run(m.train)
                raise RuntimeError("boom")
    assert hook.finalOpsValues() is None and tfHook.final_ops_values is None


def test_runs_at_end_of_input():
    _, m = in_graph(lambda: build_with_input(3))
    with m.gs.graph.as_default():
        hook = FinalOpsHook(["count:0", "global_step:0"])
        runs = 0
        with tf.compat.v1.train.MonitoredSession(hooks=__import__("jhooks.tf").tf.to_tf_hooks([hook])) as s:
            while not s.should_stop():
                s.run(m.trainFromInput)
                runs += 1
    assert runs == 3  # the 4th run hits end of input; TF swallows it and calls end()
    assert as_plain(hook.finalOpsValues()) == [3, 3]


def outcome(makeHook, finalFetch):
    _, m = in_graph(lambda: build_with_input(1))
    with m.gs.graph.as_default():
        hook = makeHook(m, finalFetch(m))
        try:
            with tf.compat.v1.train.MonitoredSession(hooks=__import__("jhooks.tf").tf.to_tf_hooks([hook])) as s:
                s.run(m.trainFromInput)
            return "no error"
        except tf.errors.OutOfRangeError:
            return "OutOfRangeError"
        except jhooks.HookError as e:
            assert e.callback == "end" and "FinalOpsHook" in e.hook, e
            return f"HookError caused by {type(e.__cause__).__name__}"


def test_end_of_input_in_the_final_run_is_logged_like_tensorflow_and_raised_as_an_error(caplog):
    # TensorFlow logs a warning and re-raises the OutOfRangeError; jhooks logs the same warning and
    # raises an error naming the hook and callback (docs/contract.md, "End of input"): only the
    # caller's own run ends the input.
    caplog.set_level(logging.WARNING)
    ours = outcome(lambda m, f: FinalOpsHook(f), lambda m: "next_input:0")
    theirs = outcome(
        lambda m, f: tf.compat.v1.train.FinalOpsHook(f), lambda m: m.train.graph.get_tensor_by_name("next_input:0")
    )
    assert ours == "HookError caused by OutOfRangeError"
    assert theirs == "OutOfRangeError"
    warnings = [r.getMessage() for r in caplog.records if r.name == "jhooks.hooks.final_ops"]
    assert warnings == [
        "FinalOpsHook: end of input (OutOfRange) raised by the final ops run; final ops should "
        "depend only on variables, not on the input pipeline"
    ]


def test_invalid_final_ops():
    with pytest.raises(ValueError):
        FinalOpsHook([1, 2])
