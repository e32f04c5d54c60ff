"""Files written by the Java hooks, read with TensorFlow's and TensorBoard's own Python readers.

A JVM subprocess runs ``org.jhooks.testing.KillableTraining`` (AsyncCheckpointSaverHook,
StopAtStepHook, SummarySaverHook, StepCounterHook on the JVM driver); then
``tf.train.latest_checkpoint``, ``tf.train.load_checkpoint``, ``tf.compat.v1.train.Saver`` and
TensorBoard's ``EventAccumulator`` must read what it wrote.
"""

import os
import shutil
import subprocess

import numpy as np
import pytest

from jhooks.bridge.process.classpath import classpath
from jhooks.bridge.process.runtime import javacpp_cache_dir

pytestmark = pytest.mark.timeout(300)

CACHE = javacpp_cache_dir(False)


def run_java_training(ckpt_dir, last_step, save_steps, w_size, event_dir):
    java = shutil.which("java")
    if java is None:
        pytest.skip("no java on PATH")
    cmd = [
        java,
        f"-Dorg.bytedeco.javacpp.cachedir={CACHE}",
        "-cp",
        os.pathsep.join(classpath()),
        "org.jhooks.testing.KillableTraining",
        str(ckpt_dir),
        str(last_step),
        str(save_steps),
        str(w_size),
        str(event_dir),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"DONE {last_step}" in done.stdout, done.stdout


@pytest.fixture(scope="module")
def java_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("javarun")
    run_java_training(root / "ckpt", 40, 5, 1000, root / "events")
    return root


def test_latest_checkpoint_and_values(java_run):
    import tensorflow as tf

    ckpt = str(java_run / "ckpt")
    latest = tf.train.latest_checkpoint(ckpt)
    assert latest == os.path.join(ckpt, "model.ckpt-40")
    state = tf.train.get_checkpoint_state(ckpt)
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
        "model.ckpt-30",
        "model.ckpt-35",
        "model.ckpt-40",
    ]
    reader = tf.train.load_checkpoint(latest)
    assert sorted(reader.get_variable_to_dtype_map()) == ["global_step", "v", "w"]
    assert reader.get_tensor("global_step") == 40
    assert reader.get_tensor("v") == 40.0
    np.testing.assert_array_equal(reader.get_tensor("w"), np.full([1000], 40.0, np.float32))


def test_python_v1_saver_restores_a_java_checkpoint(java_run):
    import tensorflow as tf

    latest = tf.train.latest_checkpoint(str(java_run / "ckpt"))
    with tf.Graph().as_default():
        v = tf.compat.v1.Variable(0.0, name="v")
        w = tf.compat.v1.Variable(np.zeros([1000], np.float32), name="w")
        gs = tf.compat.v1.Variable(np.int64(0), name="global_step")
        saver = tf.compat.v1.train.Saver([v, w, gs])
        with tf.compat.v1.Session() as sess:
            saver.restore(sess, latest)
            got_v, got_w, got_gs = sess.run([v, w, gs])
    assert (got_v, got_gs) == (40.0, 40)
    assert (got_w == 40.0).all()


def test_tensorboard_reads_the_event_files(java_run):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(java_run / "events"))
    acc.Reload()
    scalars = acc.Tags()["scalars"]
    assert "v" in scalars and "global_step/sec" in scalars
    v_steps = [e.step for e in acc.Scalars("v")]
    assert v_steps[0] == 1 and v_steps == sorted(v_steps) and len(v_steps) >= 4
    for e in acc.Scalars("v"):
        assert e.value in (e.step - 1, e.step)  # read with the increment, before or after it
    assert all(e.value > 0 for e in acc.Scalars("global_step/sec"))
