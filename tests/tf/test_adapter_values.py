"""What hooks receive: result structures and types, feeds, name errors, raw runs, TF hooks mixed in."""

import numpy as np
import pytest
import tensorflow as tf
from tf_support import Counter, Recorder, TfRecorder, open_session, run_steps

import jhooks
from jhooks.tf import GraphNameError, TfHookAdapter, to_tf_hooks


class Asker(jhooks.Hook):
    """Returns fixed SessionRunArgs every run and keeps what it got back."""

    def __init__(self, args):
        self.args = args
        self.values = []

    def beforeSessionRun(self, runContext):
        return self.args

    def afterSessionRun(self, runContext, runValues):
        self.values.append(runValues)


def results_for(fetches, feeds=None, caller_feed=2.0):
    c = Counter()
    hook = Asker(jhooks.SessionRunArgs(fetches, feeds or {}))
    with open_session("monitored", [hook]) as sess:
        sess.run(c.train, feed_dict={c.x: caller_feed})
    assert len(hook.values) == 1
    return hook.values[0].results


def test_single_tensor_gives_a_rank0_array(graph):
    r = results_for("doubled:0")
    assert isinstance(r, np.ndarray) and r.shape == () and r.dtype == np.float32 and r == 4.0


@pytest.mark.parametrize(
    "fetches,expected",
    [
        (["doubled:0", "x:0"], [4.0, 2.0]),
        (("doubled:0", ["x:0"]), (4.0, [2.0])),
        ({"d": "doubled:0", "nested": {"x": "x:0"}}, {"d": 4.0, "nested": {"x": 2.0}}),
    ],
)
def test_structures_come_back_exactly(graph, fetches, expected):
    r = results_for(fetches)

    def plain(v):
        if isinstance(v, np.ndarray):
            assert v.shape == ()
            return float(v)
        if isinstance(v, dict):
            return {k: plain(e) for k, e in v.items()}
        return type(v)(plain(e) for e in v)

    assert plain(r) == expected


def test_op_name_is_a_target_with_result_none(graph):
    r = results_for(["doubled", "doubled:0"])
    assert r[0] is None and float(r[1]) == 4.0


def test_resource_variable_name_fetches_its_value(graph):
    r = results_for({"gs": "global_step:0"})
    assert r["gs"].dtype == np.int64 and r["gs"].shape == ()


def test_hook_feeds_reach_the_run(graph):
    c = Counter()
    hook = Asker(jhooks.SessionRunArgs("doubled:0", {"x:0": np.float32(5.0)}))
    with open_session("monitored", [hook]) as sess:
        sess.run(c.train)
        assert float(sess.run(c.v)) == 5.0  # train ran once, with the hook's x = 5
    assert [float(v.results) for v in hook.values] == [10.0, 10.0]


def test_hook_feed_conflicting_with_the_caller_is_tfs_error(graph):
    # TF merges here (TF drives); its own message is raised before anything runs.
    c = Counter()
    hook = Asker(jhooks.SessionRunArgs(None, {"x:0": 5.0}))
    with pytest.raises(RuntimeError, match="fed by a SessionRunHook and user"):
        with open_session("monitored", [hook]) as sess:
            sess.run(c.train, feed_dict={c.x: 1.0})


def test_two_jhooks_hooks_feeding_one_tensor_name_both_hooks_before_anything_runs(graph):
    c = Counter()

    class SecondFeeder(Asker):
        pass

    first = Asker(jhooks.SessionRunArgs(None, {"x:0": 5.0}))
    second = SecondFeeder(jhooks.SessionRunArgs(None, {"x:0": 6.0}))
    with pytest.raises(jhooks.HookFeedConflictError) as caught:
        with open_session("monitored", [first, second]) as sess:
            sess.run(c.train)
    message = str(caught.value)
    assert "same tensor 'x:0' is fed by two hooks" in message
    assert "Asker" in message and "SecondFeeder.beforeSessionRun" in message
    assert isinstance(caught.value, RuntimeError)  # still the kind of error TensorFlow raises here
    assert first.values == [] and second.values == []  # nothing ran


def test_caller_args_and_run_options_are_translated(graph):
    c = Counter()
    opts = jhooks.RunOptions(traceLevel=3, timeoutInMs=5000)
    hook = Asker(jhooks.SessionRunArgs("doubled:0", {}, opts))
    seen = []

    class Peek(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            seen.append(runContext.originalArgs)

    with open_session("monitored", [hook, Peek()]) as sess:
        sess.run({"t": c.train, "v": c.v}, feed_dict={c.x: 3.0})
    assert seen[0].fetches == {"t": "train", "v": c.v.name}
    assert list(seen[0].feeds) == ["x:0"] and float(seen[0].feeds["x:0"]) == 3.0
    values = hook.values[0]
    assert values.options.traceLevel == 3 and values.options.timeoutInMs == 5000
    assert values.runMetadata is not None and len(values.runMetadata.step_stats.dev_stats) > 0


@pytest.mark.parametrize("fetches", ["nope:0", "nope", {"a": ["doubled:0", "nope:3"]}])
def test_missing_fetch_name_names_hook_callback_and_name(graph, fetches):
    missing = "nope:3" if isinstance(fetches, dict) else fetches
    c = Counter()
    with pytest.raises(GraphNameError) as err:
        with open_session("monitored", [Asker(jhooks.SessionRunArgs(fetches))]) as sess:
            sess.run(c.train)
    msg = str(err.value)
    assert "test_adapter_values.Asker" in msg and "beforeSessionRun" in msg and repr(missing) in msg
    assert err.value.name == missing and err.value.callback == "beforeSessionRun"


def test_missing_feed_name_and_missing_name_in_a_raw_run(graph):
    c = Counter()
    with pytest.raises(GraphNameError, match=r"Asker\.beforeSessionRun: 'y:0'"):
        with open_session("monitored", [Asker(jhooks.SessionRunArgs(None, {"y:0": 1.0}))]) as sess:
            sess.run(c.train)

    class RawRunner(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            runContext.session.run("absent:0")

    with pytest.raises(GraphNameError, match=r"RawRunner\.afterSessionRun: 'absent:0'"):
        with open_session("monitored", [RawRunner()]) as sess:
            sess.run(c.train)


@pytest.mark.parametrize(
    "value,problem",
    [
        (
            np.ones((3, 2), np.float32),
            r"cannot be fed a value of shape \(3, 2\) \(float32\): the tensor's shape is \(\)",
        ),
        (np.array(b"abc", dtype=object), r"cannot be fed a value of shape \(\) \(object\) as float32"),
    ],
)
def test_a_hook_feed_tf_would_reject_names_hook_callback_tensor_and_value(graph, value, problem):
    c = Counter()
    log = []

    class After(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            log.append("After.beforeSessionRun")

    # TF's own check of the merged run would raise an anonymous ValueError; nothing runs here
    with pytest.raises(GraphNameError, match=r"Asker\.beforeSessionRun: 'x:0' " + problem) as err:
        with open_session("monitored", [Asker(jhooks.SessionRunArgs("doubled:0", {"x:0": value})), After()]) as sess:
            sess.run(c.train)
    assert err.value.name == "x:0" and log == []


NOT_A_NUMBER = [
    (True, "bool"),
    (np.array(True), "bool"),
    (b"1.5", "bytes"),
    ("1.5", "str"),
    (np.array(b"1.5", dtype=object), "object"),
]


@pytest.mark.parametrize("value,described", NOT_A_NUMBER)
def test_a_non_numeric_feed_into_a_numeric_tensor_is_refused_where_tf_would_cast_it(graph, value, described):
    # TF's session casts these silently (True -> 1.0, b"1.5" -> 1.5); the contract and the JVM driver refuse
    c = Counter()
    problem = (
        rf"'x:0' cannot be fed a value of shape \(\) \({described}\) as float32: "
        r"only numbers convert to other number types$"
    )
    with pytest.raises(GraphNameError, match=r"Asker\.beforeSessionRun: " + problem):
        with open_session("monitored", [Asker(jhooks.SessionRunArgs("doubled:0", {"x:0": value}))]) as sess:
            sess.run(c.train)
    with tf.compat.v1.Session() as tf_session:  # what TF itself does with the same feed
        assert tf_session.run("doubled:0", {"x:0": value}) in (2.0, 3.0)


@pytest.mark.parametrize(
    "value,dtype", [(1, tf.bool), (np.float32(0.0), tf.bool), (3, tf.string), (b"yes", tf.bool), (True, tf.string)]
)
def test_numbers_bools_and_strings_do_not_convert_into_each_other(graph, value, dtype):
    c = Counter()
    tf.compat.v1.placeholder_with_default(tf.zeros((), dtype), shape=(), name="other")
    with pytest.raises(GraphNameError, match=r"'other:0' cannot be fed .* as " + dtype.name + ": only numbers"):
        with open_session("monitored", [Asker(jhooks.SessionRunArgs("other:0", {"other:0": value}))]) as sess:
            sess.run(c.train)


@pytest.mark.parametrize(
    "value,dtype,expected",
    [
        (np.array([True, False]), tf.bool, [True, False]),
        (b"abc", tf.string, b"abc"),
        (np.array(7, np.int64), tf.int32, 7),
        (2.9, tf.int32, 2),
        ([], tf.float32, []),
    ],
)
def test_values_of_the_tensors_kind_are_fed(graph, value, dtype, expected):
    c = Counter()
    shape = np.shape(value)
    tf.compat.v1.placeholder_with_default(tf.zeros(shape, dtype), shape=shape, name="other")
    hook = Asker(jhooks.SessionRunArgs("other:0", {"other:0": value}))
    with open_session("monitored", [hook]) as sess:
        sess.run(c.train)
    assert hook.values[0].results.tolist() == expected


def test_a_hook_feed_is_cast_to_the_tensors_dtype_as_tf_does(graph):
    c = Counter()
    hook = Asker(jhooks.SessionRunArgs("doubled:0", {"x:0": np.array(3, np.int64)}))
    with open_session("monitored", [hook]) as sess:
        sess.run(c.train)
    [values] = hook.values
    assert values.results.dtype == np.float32 and values.results == 6.0


def test_run_through_the_session_view_does_not_fire_hooks(graph):
    log = []
    raw_results = []

    class RawRunner(jhooks.Hook):
        def afterCreateSession(self, session, coord):
            raw_results.append(session.run(["doubled:0", "train"], {"x:0": 10.0}))

        def afterSessionRun(self, runContext, runValues):
            raw_results.append(runContext.session.run({"v": "v:0"}))

    c = Counter()
    run_steps("monitored", [Recorder("A", log), RawRunner()], c, steps=2)
    assert [k for k in log if "SessionRun" in k] == [
        "A.beforeSessionRun(0)",
        "A.afterSessionRun(0)",
        "A.beforeSessionRun(1)",
        "A.afterSessionRun(1)",
    ]
    first = raw_results[0]
    assert float(first[0]) == 20.0 and first[1] is None
    assert [float(r["v"]) for r in raw_results[1:]] == [10.0, 11.0]


def test_jhooks_and_tf_hooks_mixed_in_registration_order(graph):
    log = []
    c = Counter()
    final = tf.compat.v1.train.FinalOpsHook({"v": c.v.read_value(), "gs": c.gs.read_value()})
    hooks = [
        Recorder("A", log),
        TfRecorder("T", log),
        tf.compat.v1.train.StopAtStepHook(last_step=3),
        final,
        Recorder("B", log),
    ]
    out = run_steps("training", hooks, c, steps=10)
    assert out == {"done": [0, 1, 2], "stopped": True}
    expected = [
        "A.beginSession",
        "T.begin",
        "B.beginSession",
        "A.afterCreateSession",
        "T.after_create_session",
        "B.afterCreateSession",
    ]
    for s in range(3):
        expected += [
            f"A.beforeSessionRun({s})",
            "T.before_run",
            f"B.beforeSessionRun({s})",
            f"A.afterSessionRun({s})",
            "T.after_run",
            f"B.afterSessionRun({s})",
        ]
    expected += ["A.end", "T.end", "B.end"]
    assert log == expected
    assert final.final_ops_values == {"v": 3.0, "gs": 3}


def test_to_tf_hooks_keeps_tf_hooks_and_wraps_jhooks_hooks(graph):
    tf_hook = tf.compat.v1.train.StopAtStepHook(last_step=1)
    a = jhooks.Hook()
    out = to_tf_hooks([a, tf_hook])
    assert isinstance(out[0], TfHookAdapter) and out[0].hook is a and out[1] is tf_hook


def test_adapter_validates_the_hook():
    class Wrong(jhooks.Hook):
        def beforeSessionRun(self):
            return None

    with pytest.raises(
        jhooks.HookValidationError, match=r"Wrong\.beforeSessionRun.*beforeSessionRun\(self, runContext\)"
    ):
        TfHookAdapter(Wrong())
    with pytest.raises(jhooks.HookValidationError, match="not a jhooks.Hook"):
        to_tf_hooks([object()])


def test_before_run_returning_something_else_names_the_hook(graph):
    class Bad(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            return "doubled:0"

    c = Counter()
    with pytest.raises(jhooks.HookError, match=r"Bad\.beforeSessionRun: returned str 'doubled:0'"):
        with open_session("monitored", [Bad()]) as sess:
            sess.run(c.train)


def test_string_results_are_object_arrays_of_the_exact_bytes(graph):
    from tensorboard.compat.proto import summary_pb2

    c = Counter()
    summary = tf.compat.v1.summary.scalar("loss", tf.constant(0.0), collections=[])  # serializes to ...\x00\x00
    tf.constant(b"ends in nuls\x00\x00", name="nuls")
    tf.constant([b"a\x00", b"", b"\x00"], name="vector")
    hook = Asker(jhooks.SessionRunArgs({"summary": summary.name, "nuls": "nuls:0", "vector": "vector:0"}))
    with open_session("monitored", [hook]) as sess:
        sess.run(c.train, feed_dict={c.x: 1.0})
        raw = sess._tf_sess()  # noqa: SLF001 - TF's own values to compare with
        expected = raw.run({"summary": summary, "nuls": "nuls:0", "vector": "vector:0"})
    r = hook.values[0].results
    assert [(k, r[k].dtype, r[k].shape) for k in sorted(r)] == [
        ("nuls", np.dtype(object), ()),
        ("summary", np.dtype(object), ()),
        ("vector", np.dtype(object), (3,)),
    ]
    assert r["nuls"].item() == expected["nuls"] == b"ends in nuls\x00\x00"
    assert r["summary"].item() == expected["summary"] and expected["summary"].endswith(b"\x00")
    assert summary_pb2.Summary.FromString(r["summary"].item()).value[0].simple_value == 0.0
    assert r["vector"].tolist() == [b"a\x00", b"", b"\x00"]
