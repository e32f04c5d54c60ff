"""What the crossing-cost work must not change: callbacks a hook does not override are skipped
without changing any call sequence or stop, and byte strings cross intact (docs/bridge.md)."""

import jpype
import numpy as np
import tensorflow as tf
from test_jvm_driver_python_hooks import JvmDriver, java_list
from test_python_driver_java_hooks import PyRecorder, build_graph

import jhooks
from jhooks.bridge import JavaHook, as_java_hook
from jhooks.bridge.convert.arrays import to_java, to_numpy
from jhooks.bridge.process.calls import call_java
from jhooks.tf import to_tf_hooks


def test_a_java_hook_overriding_only_after_session_run_keeps_the_call_sequence(java_log):
    log = java_log
    calls = jpype.JClass("org.jhooks.bridge.JavaHookCalls")
    after_only = jpype.JClass("org.jhooks.bridgetest.AfterOnlyHook")("A")
    assert not calls.overrides(after_only, "beforeSessionRun")
    assert calls.overrides(after_only, "afterSessionRun")
    with tf.Graph().as_default():
        train, x = build_graph()
        hooks = [PyRecorder("P1", log), JavaHook(after_only), PyRecorder("P2", log, ("doubled:0",))]
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks(hooks)) as sess:
            for i in range(2):
                sess.run(train, feed_dict={x: float(i) + 1})
    run = lambda i: [  # noqa: E731
        "P1.beforeSessionRun",
        "P2.beforeSessionRun",
        "P1.afterSessionRun NoneType None",
        "A.afterSessionRun results=null",
        f"P2.afterSessionRun tuple {(np.array(2.0 * (i + 1), np.float32),)!r}",
    ]
    assert list(map(str, log)) == [
        "P1.beginSession",
        "P2.beginSession",
        "P1.afterCreateSession",
        "A.afterCreateSession",
        "P2.afterCreateSession",
        *run(0),
        *run(1),
        "P1.end",
        "P2.end",
    ]


def test_a_coordinator_stop_is_still_forwarded_at_a_skipped_callback(java_log):
    with tf.Graph().as_default():
        train, x = build_graph()
        after_only = jpype.JClass("org.jhooks.bridgetest.AfterOnlyHook")("A")
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([JavaHook(after_only)])) as sess:
            sess.run(train)
            assert not sess.should_stop()
            after_only.coord.requestStop()  # as another Java thread would, between callbacks
            sess.run(train)  # forwarded at the skipped beforeSessionRun of this run
            assert sess.should_stop()


class AfterOnly(jhooks.Hook):
    def __init__(self, log):
        self.log = log

    def afterSessionRun(self, runContext, runValues):
        self.log.add(f"A.afterSessionRun {runValues.results!r} caller={runContext.originalArgs.fetches}")


class BeforeOnly(jhooks.Hook):
    def __init__(self, log):
        self.log = log

    def beforeSessionRun(self, runContext):
        self.log.add("B.beforeSessionRun")
        return jhooks.SessionRunArgs("double:0")


def test_python_hooks_overriding_one_per_run_callback_keep_the_jvm_call_sequence(java_log):
    log = java_log
    hooks = java_list(
        as_java_hook(BeforeOnly(log)),
        jpype.JClass("org.jhooks.bridgetest.RecordingHook")("J"),
        as_java_hook(AfterOnly(log)),
    )
    assert call_java(JvmDriver().run, hooks, 2, None) == 2
    run = [
        "B.beforeSessionRun",
        "J.beforeSessionRun caller=[train_step]",
        "J.afterSessionRun null",
        "A.afterSessionRun None caller=['train_step']",
    ]
    assert list(map(str, log)) == ["J.begin", "J.afterCreateSession step=0", *run, *run, "J.end step=2"]


def test_python_hooks_of_one_run_share_one_view_across_same_context_calls(java_log):
    seen = []

    class Views(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            seen.append(("before", id(runContext)))

        def afterSessionRun(self, runContext, runValues):
            seen.append(("after", id(runContext)))

    hooks = java_list(as_java_hook(Views()), as_java_hook(Views()))
    assert call_java(JvmDriver().run, hooks, 2, None) == 2
    first, second = {i for _, i in seen[:4]}, {i for _, i in seen[4:]}
    assert [c for c, _ in seen] == ["before", "before", "after", "after"] * 2
    assert len(first) == 1 and len(second) == 1


WEIRD = [b"\x00", b"\xff\xfe\x00abc", "βγ".encode(), b""]


def test_byte_strings_with_nul_and_non_utf8_cross_intact_both_ways():
    a = np.array(WEIRD, dtype=object).reshape(2, 2)
    java = to_java(a)
    elements = [bytes(e.getObject()) for e in java.scalars()]
    assert elements == WEIRD
    back = to_numpy(java)
    assert back.dtype == object and back.shape == (2, 2) and back.reshape(-1).tolist() == WEIRD


def test_string_tensors_reach_python_hooks_on_the_jvm_as_the_stored_bytes():
    # The JVM driver's heap copy of a string tensor (org.jhooks.tf.TensorValues.copyOf), as a Python hook gets it.
    values = jpype.JClass("org.jhooks.tf.TensorValues")
    data_type = jpype.JClass("org.tensorflow.proto.DataType")
    tensor = values.tensorOf(data_type.DT_STRING, to_java(np.array(WEIRD, dtype=object)))
    try:
        copy = values.copyOf(tensor)
    finally:
        tensor.close()
    assert [type(e.getObject()).__name__ for e in copy.scalars()] == ["byte[]"] * 4
    assert to_numpy(copy).tolist() == WEIRD


def test_a_serialized_summary_fetched_from_the_jvm_parses():
    from tensorflow.core.framework import summary_pb2

    summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag="loss", simple_value=0.25)])
    data = summary.SerializeToString()
    values = jpype.JClass("org.jhooks.tf.TensorValues")
    string = jpype.JClass("org.tensorflow.proto.DataType").DT_STRING
    tensor = values.tensorOf(string, to_java(np.array(data, dtype=object)))
    try:
        fetched = to_numpy(values.copyOf(tensor))
    finally:
        tensor.close()
    assert summary_pb2.Summary.FromString(fetched.item()) == summary


def test_copies_share_no_memory_either_way():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    java = to_java(a)
    a[0, 0] = 100.0  # the Java copy does not change
    assert float(java.getFloat(0, 0)) == 0.0
    back = to_numpy(java)
    back[0, 1] = -1.0  # nor does changing what came back
    assert float(java.getFloat(0, 1)) == 1.0
    assert back.flags.writeable and back.flags.owndata
    java.setFloat(7.0, 1, 2)
    assert back[1, 2] == 5.0


def test_java_hooks_read_the_global_step_name_of_a_finalized_graph_without_crossing(monkeypatch):
    from jhooks.bridge.hooks import sessions

    asked = []
    python_side = sessions._PythonSessionProxy.globalStepTensorName

    def counted(self):
        asked.append(1)
        return python_side(self)

    monkeypatch.setattr(sessions._PythonSessionProxy, "globalStepTensorName", counted)
    hooks = "org.jhooks.hooks."
    stop = jpype.JClass(hooks + "StopAtStepHook").ofLastStep(3)
    counter = jpype.JClass(hooks + "StepCounterHook")(jpype.JClass("java.lang.Integer")(100), None, None, None)
    with tf.Graph().as_default():
        train, _ = build_graph()
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([JavaHook(stop), JavaHook(counter)])) as sess:
            runs = 0
            while not sess.should_stop():
                sess.run(train)
                runs += 1
    assert runs == 3  # the Java hooks fetched the global step by the name they were given
    assert asked == []  # the graph is finalized: answered in Java, not once per hook and run
