"""Session.saveableVariables() crosses the bridge both ways, so the saver hooks of one language
need no explicit variables in the other language's monitored session."""

import jpype
import numpy as np
import pytest
import tensorflow as tf

from jhooks.bridge import JavaHook, as_java_hook
from jhooks.bridge.hooks.sessions import JavaSession, java_session
from jhooks.bridge.process.calls import call_java
from jhooks.hooks import AsyncCheckpointSaverHook
from jhooks.tf import to_tf_hooks


def checkpoint_values(directory):
    prefix = tf.train.latest_checkpoint(str(directory))
    reader = tf.train.load_checkpoint(prefix)
    return prefix, {k: reader.get_tensor(k) for k in sorted(reader.get_variable_to_shape_map())}


def python_training(hook, steps=3):
    with tf.Graph().as_default():
        gs = tf.compat.v1.train.get_or_create_global_step()
        v = tf.compat.v1.get_variable("v", initializer=0.0)
        w = tf.compat.v1.get_variable("w", initializer=np.zeros((2,), np.float32))
        train = tf.group(v.assign_add(1.0), w.assign_add([1.0, 2.0]), gs.assign_add(1))
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook])) as sess:
            for _ in range(steps):
                sess.run(train)


@pytest.mark.parametrize("hook_class", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
def test_a_java_saver_without_variables_saves_every_python_variable(tmp_path, hook_class):
    java = jpype.JClass(f"org.jhooks.hooks.{hook_class}").builder(str(tmp_path)).saveSteps(2).build()
    python_training(JavaHook(java))
    prefix, saved = checkpoint_values(tmp_path)
    assert prefix == str(tmp_path / "model.ckpt-3")
    assert list(saved) == ["global_step", "v", "w"]
    assert (int(saved["global_step"]), float(saved["v"]), saved["w"].tolist()) == (3, 3.0, [3.0, 6.0])


def test_a_python_async_saver_without_variables_saves_every_jvm_variable(tmp_path):
    hook = AsyncCheckpointSaverHook(str(tmp_path), saveSteps=2)
    driver = jpype.JClass("org.jhooks.bridgetest.JvmDriver")
    hooks = jpype.JClass("java.util.ArrayList")()
    hooks.add(as_java_hook(hook))
    assert int(call_java(driver.run, hooks, 3, None)) == 3
    prefix, saved = checkpoint_values(tmp_path)
    assert prefix == str(tmp_path / "model.ckpt-3")
    assert hook.savedSteps() == [0, 2, 3]
    assert {k: float(v) for k, v in saved.items()} == {"global_step": 3.0, "v": 3.0}


def test_the_listing_and_its_absence_cross_both_ways():
    class NoListing:
        def run(self, fetches, feeds=None, options=None):
            return None

        def globalStepTensorName(self):
            return "global_step:0"

    class Listing(NoListing):
        def saveableVariables(self):
            return {"b": "b/read:0", "a": "a:0"}

    listed = java_session(Listing()).saveableVariables()
    assert [(str(e.getKey()), str(e.getValue())) for e in listed.entrySet()] == [("b", "b/read:0"), ("a", "a:0")]
    assert JavaSession(java_session(Listing())).saveableVariables() == {"b": "b/read:0", "a": "a:0"}
    with pytest.raises(jpype.JClass("java.lang.UnsupportedOperationException"), match="NoListing"):
        java_session(NoListing()).saveableVariables()
    unlisted = jpype.JProxy("org.jhooks.Session", inst=NoListing(), convert=True)
    with pytest.raises(NotImplementedError, match="cannot list its variables"):
        JavaSession(jpype.JObject(unlisted, jpype.JClass("org.jhooks.Session"))).saveableVariables()
