"""The name-based checkpoint a Keras session view writes (jhooks.keras.KerasSessionView.save)
restores with tensorflow-java's ``Session.restore`` in a separate process (one TF runtime per
process): the model's variables by path and the global step, exact."""

import json
import os
import subprocess
import sys

import keras
import numpy as np
import pytest
from keras_model import data, dense_model

import jhooks
from jhooks.bridge.process.classpath import ClasspathError, classpath
from jhooks.bridge.process.runtime import javacpp_cache_dir
from jhooks.keras import to_keras_callbacks

HERE = os.path.dirname(os.path.abspath(__file__))
pytestmark = pytest.mark.timeout(300)


def test_java_restores_what_a_keras_session_view_saved(tmp_path):
    try:
        jars = [j for j in classpath() if "tensorflow" in j or "ndarray" in j or "javacpp" in j or "protobuf" in j]
    except ClasspathError as e:
        pytest.skip(str(e))
    prefix = str(tmp_path / "model.ckpt-3")

    class Save(jhooks.Hook):
        def end(self, session):
            session.save(prefix)

    model = dense_model()
    model.fit(*data(3), batch_size=4, verbose=0, callbacks=to_keras_callbacks([Save()]))
    shapes = {v.path: list(v.shape) for v in model.variables}
    done = subprocess.run(
        [sys.executable, os.path.join(HERE, "java_restore_keras.py"), prefix, json.dumps(shapes), ":".join(jars)]
        + [javacpp_cache_dir(False)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    restored = json.loads(done.stdout.strip().splitlines()[-1])
    assert restored.pop("global_step") == 3
    assert (
        sorted(restored) == sorted(shapes) == ["net/hidden/bias", "net/hidden/kernel", "net/out/bias", "net/out/kernel"]
    )
    for v in model.variables:
        expected = keras.ops.convert_to_numpy(v).reshape(-1)
        np.testing.assert_array_equal(np.asarray(restored[v.path], np.float32), expected)
