"""Java hooks in TensorFlow's Python monitored sessions (jhooks.tf), alone and mixed with Python hooks."""

import jpype
import numpy as np
import pytest
import tensorflow as tf

import jhooks
from jhooks.bridge import JavaCheckpointSaverListener, JavaHook
from jhooks.bridge.convert.arrays import to_java
from jhooks.tf import to_tf_hooks


class PyRecorder(jhooks.Hook):
    """Logs into the Java hooks' log so one list shows the interleaving."""

    def __init__(self, name, log, fetches=None):
        self.name, self.log, self.fetches = name, log, fetches

    def beginSession(self):
        self.log.add(f"{self.name}.beginSession")

    def afterCreateSession(self, session, coord):
        self.log.add(f"{self.name}.afterCreateSession")

    def beforeSessionRun(self, runContext):
        self.log.add(f"{self.name}.beforeSessionRun")
        return None if self.fetches is None else jhooks.SessionRunArgs(self.fetches)

    def afterSessionRun(self, runContext, runValues):
        r = runValues.results
        self.log.add(f"{self.name}.afterSessionRun {type(r).__name__} {r!r}")

    def end(self, session):
        self.log.add(f"{self.name}.end")


def build_graph():
    gs = tf.compat.v1.train.get_or_create_global_step()
    x = tf.compat.v1.placeholder_with_default(1.0, shape=(), name="x")
    y = tf.compat.v1.placeholder_with_default(0.0, shape=(), name="y")
    tf.multiply(y, 3.0, name="y_times_3")
    tf.multiply(x, 2.0, name="doubled")
    v = tf.compat.v1.get_variable("v", initializer=0.0)
    train = tf.group(v.assign_add(x), gs.assign_add(1), name="train")
    return train, x


def RecordingHook(*args):
    return jpype.JClass("org.jhooks.bridgetest.RecordingHook")(*args)


def java_map(**items):
    m = jpype.JClass("java.util.LinkedHashMap")()
    for k, v in items.items():
        m.put(k, v)
    return m


def test_java_and_python_hooks_interleave_in_registration_order(java_log):
    log = java_log
    with tf.Graph().as_default():
        train, x = build_graph()
        j1 = RecordingHook("J1", "y_times_3:0", java_map(**{"y:0": to_java(np.float32(5.0))}), -1)
        j2 = RecordingHook("J2", java_map(d="doubled:0", targets=jpype.JClass("java.util.List").of("train")), None, 2)
        hooks = [PyRecorder("P1", log, ("doubled:0",)), JavaHook(j1), PyRecorder("P2", log), JavaHook(j2)]
        steps = []
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks(hooks)) as sess:
            for i in range(5):
                if sess.should_stop():
                    break
                sess.run(train, feed_dict={x: float(i) + 1})
                steps.append(i)
    assert steps == [0, 1]
    run = lambda i: [  # noqa: E731
        "P1.beforeSessionRun",
        "J1.beforeSessionRun caller=train",
        "P2.beforeSessionRun",
        "J2.beforeSessionRun caller=train",
        f"P1.afterSessionRun tuple {(np.array(2.0 * (i + 1), np.float32),)!r}",
        "J1.afterSessionRun float32[]=15.0",
        "P2.afterSessionRun NoneType None",
        f"J2.afterSessionRun {{d=float32[]={2.0 * (i + 1)}, targets=[null]}}",
    ]
    assert list(map(str, log)) == [
        "P1.beginSession",
        "J1.begin",
        "P2.beginSession",
        "J2.begin",
        "P1.afterCreateSession",
        "J1.afterCreateSession step=0",
        "P2.afterCreateSession",
        "J2.afterCreateSession step=0",
        *run(0),
        *run(1),
        "P1.end",
        "J1.end step=2",
        "P2.end",
        "J2.end step=2",
    ]


def test_a_java_coordinator_stop_reaches_the_python_session(java_log):
    with tf.Graph().as_default():
        train, x = build_graph()
        StopOnCreate = jpype.JClass("org.jhooks.bridgetest.StopOnCreate")
        hooks = [JavaHook(StopOnCreate())]
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks(hooks)) as sess:
            assert sess.should_stop()


def test_a_java_model_dependent_hook_gets_the_model_instance(java_log):
    with tf.Graph().as_default():
        train, x = build_graph()
        model = jhooks.ModelInstance.of(loss="doubled:0", trainOp="train", globalStep="global_step:0")
        hook = JavaHook("org.jhooks.bridgetest.LossFromModel")
        assert isinstance(hook, jhooks.ModelDependentHook)
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook], model)) as sess:
            sess.run(train, feed_dict={x: 4.0})
        assert str(hook.java.modelInstance().loss()) == "doubled:0"
    assert list(map(str, java_log)) == ["model.afterSessionRun float32[]=8.0"]


def test_a_java_checkpoint_listener_sees_the_python_session(tmp_path, java_log):
    with tf.Graph().as_default():
        train, x = build_graph()
        listener = JavaCheckpointSaverListener("org.jhooks.bridgetest.RecordingListener")
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([jhooks.Hook()])) as mon:
            raw = mon._tf_sess()  # noqa: SLF001 - the raw session, as a saver hook would have
            from jhooks.tf import TfSessionView

            view = TfSessionView(raw)
            mon.run(train)
            listener.beforeSave(view, 1)
            view.save(str(tmp_path / "model.ckpt-1"))
            assert listener.afterSave(view, 1) is False
    assert list(map(str, java_log)) == ["listener.beforeSave 1 step=1", "listener.afterSave 1 step=1"]


def test_errors_of_the_python_driver_name_a_java_hook_by_its_java_class(java_log):
    from jhooks.tf.errors import GraphNameError

    with tf.Graph().as_default():
        train, _ = build_graph()
        hook = JavaHook(RecordingHook("J", "no_such_tensor:0", None, -1))
        with pytest.raises(GraphNameError) as e:
            with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([jhooks.Hook(), hook])) as sess:
                sess.run(train)
    assert str(e.value).startswith(
        "hook (org.jhooks.bridgetest.RecordingHook, Java).beforeSessionRun: 'no_such_tensor:0'"
    )
