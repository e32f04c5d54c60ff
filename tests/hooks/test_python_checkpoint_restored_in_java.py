"""A checkpoint written by the Python AsyncCheckpointSaverHook (snapshot + SaveV2) restores with
tensorflow-java's ``Session.restore`` in a separate process (one TF runtime per process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, read_checkpoint, train

from jhooks.bridge.process.classpath import ClasspathError, classpath
from jhooks.bridge.process.runtime import javacpp_cache_dir
from jhooks.hooks import AsyncCheckpointSaverHook

HERE = os.path.dirname(os.path.abspath(__file__))
pytestmark = pytest.mark.timeout(300)


def test_java_restores_what_the_python_async_hook_wrote(tmp_path):
    try:
        jars = [j for j in classpath() if "tensorflow" in j or "ndarray" in j or "javacpp" in j or "protobuf" in j]
    except ClasspathError as e:
        pytest.skip(str(e))
    _, m = in_graph(lambda: Model(size=8))
    with m.gs.graph.as_default():
        train([AsyncCheckpointSaverHook(str(tmp_path), saveSteps=2)], m, 5)
    prefix = tf.train.latest_checkpoint(str(tmp_path))
    assert prefix == str(tmp_path / "model.ckpt-5")
    expected = read_checkpoint(prefix)
    cache = javacpp_cache_dir(False)
    done = subprocess.run(
        [sys.executable, os.path.join(HERE, "java_restore.py"), prefix, "8", ":".join(jars), cache],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    restored = json.loads(done.stdout.strip().splitlines()[-1])
    assert restored["global_step"] == restored["count"] == 5
    assert restored["big"] == [5.0] * 8
    assert restored["w"] == pytest.approx(float(expected["w"]), abs=0) and restored["b"] == float(expected["b"])
    np.testing.assert_array_equal(np.asarray(restored["big"], np.float32), expected["big"])
