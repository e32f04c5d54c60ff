"""A checkpoint written by the JVM driver is found and restored by Python TensorFlow.

Runs the example app ``org.jhooks.examples.TrainLinearModel`` in a separate JVM (one TensorFlow
runtime per process), then ``tf.train.latest_checkpoint`` finds its ``checkpoint`` state file and
``tf.compat.v1.train.Saver`` restores ``w``, ``b`` and ``global_step`` into a Python graph; the
values must equal the final values the Java app printed.
"""

import json
import os
import shutil
import subprocess

import numpy as np
import pytest

from jhooks.bridge.process.classpath import ClasspathError, classpath


def _run_java_training(checkpoint_dir, total_steps, optimizer):
    try:
        jars = classpath()
    except ClasspathError as e:
        pytest.skip(str(e))
    java = shutil.which("java")
    if java is None:
        pytest.skip("no java on PATH")
    cmd = [java]
    cache = os.environ.get("JHOOKS_JAVACPP_CACHE")
    if cache:
        cmd.append(f"-Dorg.bytedeco.javacpp.cachedir={cache}")
    cmd += [
        "-cp",
        os.pathsep.join(jars),
        "org.jhooks.examples.TrainLinearModel",
        str(checkpoint_dir),
        str(total_steps),
        optimizer,
        "20",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("optimizer", ["gd", "adam"])
def test_python_restores_what_java_trained(tmp_path, optimizer):
    printed = _run_java_training(tmp_path, 60, optimizer)
    assert printed["global_step"] == 60

    import tensorflow as tf

    latest = tf.train.latest_checkpoint(str(tmp_path))
    assert latest == str(tmp_path / "model.ckpt-60") == printed["checkpoint"]
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == latest
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
        "model.ckpt-0",
        "model.ckpt-20",
        "model.ckpt-40",
        "model.ckpt-60",
    ]

    graph = tf.Graph()
    with graph.as_default():
        w = tf.compat.v1.Variable(tf.zeros([2, 1]), name="w", use_resource=False)
        b = tf.compat.v1.Variable(tf.zeros([1]), name="b", use_resource=False)
        step = tf.compat.v1.train.get_or_create_global_step()
        saver = tf.compat.v1.train.Saver(var_list=[w, b, step])
        with tf.compat.v1.Session(graph=graph) as sess:
            saver.restore(sess, latest)
            w_value, b_value, step_value = sess.run([w, b, step])

    assert step_value == 60
    np.testing.assert_array_equal(w_value, np.asarray(printed["w"], dtype=np.float32))
    np.testing.assert_array_equal(b_value, np.asarray(printed["b"], dtype=np.float32))
    if optimizer == "gd":  # and it learned: close to the true w = [2, -3]
        np.testing.assert_allclose(w_value[:, 0], [2.0, -3.0], atol=0.6)


def test_java_resumes_from_its_checkpoint(tmp_path):
    first = _run_java_training(tmp_path, 40, "gd")
    second = _run_java_training(tmp_path, 80, "gd")
    assert first["global_step"] == 40 and second["global_step"] == 80
    assert second["loss"] < first["loss"]
