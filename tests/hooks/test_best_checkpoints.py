"""BestCheckpointsListener under TensorFlow's MonitoredSession with real checkpoints: keeps the best
N by a metric in its sub-directory (own state file, values of the right step), resumes its ranking,
never touches files outside the sub-directory; its Java twin on a Python saver ranks the same."""

from __future__ import annotations

import json
import os
import re

import jpype
import numpy as np
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, read_checkpoint, train

from jhooks.bridge import JavaCheckpointSaverListener
from jhooks.checkpoint.state import all_checkpoints
from jhooks.hooks import AsyncCheckpointSaverHook, BestCheckpointsListener, CheckpointSaverHook

pytestmark = pytest.mark.timeout(180)

# metric(step) = (7 * step) mod 5: 0, 2, 4, 1, 3, 0, 2 for steps 0..6
METRIC = [0, 2, 4, 1, 3, 0, 2]


def model_with_metric():
    m = Model()
    tf.math.floormod(m.gs * 7, 5, name="metric")
    return m


def steps_in(directory):
    names = (re.match(r"model\.ckpt-(\d+)\.", f) for f in os.listdir(directory))
    return sorted({int(m.group(1)) for m in names if m})


def run(tmp_path, listenerFor, saverClass=CheckpointSaverHook, runs=6):
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(model_with_metric)
    with m.gs.graph.as_default():
        listener = listenerFor(ckpt)
        saver = saverClass(ckpt, saveSteps=1, listeners=[listener], maxToKeep=3)
        train([saver], m, runs, ckpt)
    return ckpt, listener


@pytest.mark.parametrize("saverClass", [CheckpointSaverHook, AsyncCheckpointSaverHook])
def test_keeps_the_best_two_by_min(tmp_path, saverClass):
    ckpt, best = run(tmp_path, lambda d: BestCheckpointsListener(d, "metric:0", mode="min", keep=2), saverClass)
    bestDir = os.path.join(ckpt, "best")
    # values 0@0 and 0@5 beat 1@3 (a tie keeps the older first)
    assert best.best() == [(0, 0.0), (5, 0.0)]
    assert steps_in(bestDir) == [0, 5]
    assert sorted(os.listdir(bestDir)) == sorted(
        ["checkpoint", "best_checkpoints.json"]
        + [f"model.ckpt-{s}.{x}" for s in (0, 5) for x in ("index", "data-00000-of-00001")]
    )
    assert tf.train.latest_checkpoint(bestDir) == os.path.join(bestDir, "model.ckpt-0")
    assert all_checkpoints(bestDir) == [os.path.join(bestDir, f"model.ckpt-{s}") for s in (5, 0)]
    for step in (0, 5):
        values = read_checkpoint(os.path.join(bestDir, f"model.ckpt-{step}"))
        assert int(values["global_step"]) == step and int(values["count"]) == step
    # the saver's own dir and rotation are untouched (maxToKeep=3)
    assert steps_in(ckpt) == [4, 5, 6]
    with open(os.path.join(bestDir, "best_checkpoints.json")) as f:
        index = json.load(f)
    assert index["best"] == [
        {"step": 0, "value": 0.0, "checkpoint": "model.ckpt-0"},
        {"step": 5, "value": 0.0, "checkpoint": "model.ckpt-5"},
    ]


def test_max_mode_and_keep_one(tmp_path):
    ckpt, best = run(tmp_path, lambda d: BestCheckpointsListener(d, "metric:0", mode="max", keep=1, subdir="top"))
    assert best.best() == [(2, 4.0)]
    assert steps_in(os.path.join(ckpt, "top")) == [2]
    assert best.bestCheckpoint() == os.path.join(ckpt, "top", "model.ckpt-2")


def test_never_deletes_outside_its_subdir_and_resumes(tmp_path):
    ckpt = str(tmp_path / "ckpt")
    bestDir = os.path.join(ckpt, "best")
    os.makedirs(bestDir)
    # files a careless listener could take for its own: strangers in best/, and the saver's dir
    # (model.ckpt-99.index there would be an orphan of its own: test_best_checkpoints_faults.py)
    strangers = [os.path.join(bestDir, n) for n in ("other.ckpt-99.index", "model.ckpt-99.index.bak")]
    for path in strangers + [os.path.join(ckpt, "notes.txt")]:
        with open(path, "w") as f:
            f.write("keep me")
    # what a killed copy and a killed index write leave: removed by begin()
    for leftover in ("model.ckpt-7.index.tempstate.copy", "best_checkpoints.json.tmpab12"):
        with open(os.path.join(bestDir, leftover), "w") as f:
            f.write("half")
    first = run(tmp_path, lambda d: BestCheckpointsListener(d, "metric:0", mode="max", keep=2), runs=3)[1]
    assert first.best() == [(2, 4.0), (1, 2.0)]
    # a new run (restored from the latest checkpoint, step 3) continues the ranking from the index file
    second = run(tmp_path, lambda d: BestCheckpointsListener(d, "metric:0", mode="max", keep=2), runs=2)[1]
    assert second.best() == [(2, 4.0), (4, 3.0)]
    assert steps_in(bestDir) == [2, 4, 99]  # the .bak
    assert not [f for f in os.listdir(bestDir) if ".tmp" in f or "tempstate" in f]
    for path in strangers + [os.path.join(ckpt, "notes.txt")]:
        with open(path) as f:
            assert f.read() == "keep me"


def test_another_metric_in_the_same_subdir_is_refused(tmp_path):
    run(tmp_path, lambda d: BestCheckpointsListener(d, "metric:0", mode="max"), runs=1)
    from jhooks.api.errors import HookError

    with pytest.raises(HookError, match=r"BestCheckpointsListener.*ranks 'metric:0' \(max\), not 'loss:0' \(min\)"):
        run(tmp_path, lambda d: BestCheckpointsListener(d, "loss:0", mode="min"), runs=1)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "median"}, "mode must be 'min' or 'max', got 'median'"),
        ({"keep": 0}, "keep must be an int >= 1, got 0"),
        ({"subdir": "../escape"}, "subdir must be a directory name without a path separator, got '../escape'"),
        ({"subdir": ".."}, "subdir must be a directory name"),
        ({"checkpointBasename": "a/b"}, "checkpointBasename must be a file name"),
    ],
)
def test_bad_arguments_name_the_listener_and_the_value(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match="BestCheckpointsListener: " + re.escape(message)):
        BestCheckpointsListener(str(tmp_path), "metric:0", **kwargs)


def test_keep_may_be_a_numpy_int():
    """``keep=np.int64(2)`` (from a config array) was refused as "keep must be an int >= 1, got 2"."""
    assert BestCheckpointsListener("ckpt", "metric:0", keep=np.int64(2)).keep == 2
    with pytest.raises(ValueError, match="keep must be an int >= 1, got 2.0"):
        BestCheckpointsListener("ckpt", "metric:0", keep=2.0)


def test_a_metric_that_is_not_one_number_fails_naming_it(tmp_path):
    def build():
        m = Model()
        tf.identity(m.big, name="vector")
        return m

    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(build)
    with m.gs.graph.as_default(), pytest.raises(ValueError, match=r"metric vector:0 must be one number.*shape \(16,\)"):
        train([CheckpointSaverHook(ckpt, saveSteps=1, listeners=[BestCheckpointsListener(ckpt, "vector:0")])], m, 1)


def test_java_twin_on_a_python_saver_ranks_the_same(tmp_path):
    from jhooks.bridge.process import jvm

    jvm.start()

    def java(d):
        cls = jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")
        return JavaCheckpointSaverListener(cls(d, "metric:0", "min", 2, "best", None))

    ckpt, listener = run(tmp_path, java)
    assert [(int(e.step()), float(e.value())) for e in listener.java.best()] == [(0, 0.0), (5, 0.0)]
    assert steps_in(os.path.join(ckpt, "best")) == [0, 5]
    assert np.isclose(read_checkpoint(os.path.join(ckpt, "best", "model.ckpt-5"))["global_step"], 5)


GARBAGE_INDEXES = [
    '{"metric": "metric:0", "mode": "min", "best": "x"}',
    '{"metric": "metric:0", "mode": "min", "best": [{"step": "x", "value": 1}]}',
    '{"metric": "metric:0", "mode": "min", "best": [{"step": true, "value": 1}]}',
    '{"metric": "metric:0", "mode": "min", "best": [{"step": "3", "value": 1}]}',
    '{"metric": "metric:0", "mode": "min", "best": [{"step": 1, "value": "abc"}]}',
    '{"metric": {"a": 1}, "mode": "min", "best": []}',
    '{"metric": "metric:0", "mode": "min", "best": [3]}',
    "[1, 2]",
    "nul",
]


@pytest.mark.parametrize("language", ["python", "java"])
@pytest.mark.parametrize("text", GARBAGE_INDEXES)
def test_a_garbage_index_file_is_the_listeners_error_in_begin_in_both_languages(tmp_path, language, text):
    """Whatever best_checkpoints.json holds, begin() fails with HookError / HookException naming
    the listener, begin and the file, and leaves the file as it was (the Java twin raised Gson's
    ClassCastException / NumberFormatException / UnsupportedOperationException for some)."""
    bestDir = tmp_path / "best"
    bestDir.mkdir()
    index = bestDir / "best_checkpoints.json"
    index.write_text(text)
    if language == "python":
        from jhooks.api.errors import HookError

        with pytest.raises(HookError, match=r"BestCheckpointsListener\.begin: .*best_checkpoints\.json"):
            BestCheckpointsListener(str(tmp_path), "metric:0").begin()
    else:
        from jhooks.bridge.process import jvm

        jvm.start()
        listener = jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")(str(tmp_path), "metric:0", "min", 1)
        with pytest.raises(jpype.JClass("org.jhooks.HookException")) as raised:
            listener.begin()
        assert re.search(r"BestCheckpointsListener\.begin: .*best_checkpoints\.json", str(raised.value.getMessage()))
    assert index.read_text() == text


@pytest.mark.parametrize("language", ["python", "java"])
def test_a_glob_basename_and_strangers_in_the_subdir_are_left_alone_in_both_languages(tmp_path, language):
    """Basename ``run[1]*?`` is a literal name: dropping ``run[1]*?-N`` never touches ``run1ab-N``
    files (which it matches as a glob pattern), nor other files in the sub-directory or the saver's
    dir; the sub-directory ends with exactly the best checkpoint of this basename."""
    base = "run[1]*?"
    ckpt = str(tmp_path / "ckpt")
    bestDir = os.path.join(ckpt, "best")
    os.makedirs(bestDir)
    strangers = [
        os.path.join(bestDir, n)
        for n in ("run1ab-0.index", "run1ab-0.data-00000-of-00001", "run1ab-1.index", f"{base}-1.meta.bak", "notes")
    ] + [os.path.join(ckpt, n) for n in ("run1ab-0.index", "run1ab-2.data-00000-of-00001")]
    for path in strangers:
        with open(path, "w") as f:
            f.write("keep me")

    def build():
        m = Model()
        tf.cast(m.gs, tf.float32, name="metric")  # rises with the step: each save is the new best
        return m

    _, m = in_graph(build)
    with m.gs.graph.as_default():
        if language == "python":
            listener = BestCheckpointsListener(ckpt, "metric:0", mode="max", keep=1, checkpointBasename=base)
        else:
            from jhooks.bridge.process import jvm

            jvm.start()
            cls = jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")
            listener = JavaCheckpointSaverListener(cls(ckpt, "metric:0", "max", 1, None, base))
        saver = CheckpointSaverHook(ckpt, saveSteps=1, listeners=[listener], checkpointBasename=base, maxToKeep=1)
        train([saver], m, 4, ckpt)
    ours = sorted(f for f in os.listdir(bestDir) if f.startswith(base + "-") and not f.endswith(".bak"))
    assert ours == [f"{base}-4.data-00000-of-00001", f"{base}-4.index"]
    assert all_checkpoints(bestDir) == [os.path.join(bestDir, f"{base}-4")]
    for path in strangers:
        with open(path) as f:
            assert f.read() == "keep me", path


@pytest.mark.parametrize("dtype, scale", [("uint8", 60), ("uint16", 16000)])
def test_an_unsigned_metric_ranks_by_its_number_in_both_languages(tmp_path, dtype, scale):
    """Java read a uint8 240 as the byte -16 (a uint16 64000 as -1536): its BestCheckpointsListener
    kept another step than Python's and its StopIfNoImprovementHook's best was negative. Both twins
    in a Python session, a metric of (7 * step mod 5) * scale: 0, 1, 2, 4... times scale."""
    from jhooks.bridge import JavaHook
    from jhooks.bridge.process import jvm
    from jhooks.hooks import StopIfNoImprovementHook

    jvm.start()

    def build():
        m = model_with_metric()
        metric = m.gs.graph.get_tensor_by_name("metric:0")
        tf.cast(metric * scale, dtype, name="unsigned")
        tf.constant(4 * scale, dtype=dtype, name="constant")
        return m

    ranked = {}
    for language in ("python", "java"):
        ckpt = str(tmp_path / language)
        _, m = in_graph(build)
        with m.gs.graph.as_default():
            if language == "python":
                best = BestCheckpointsListener(ckpt, "unsigned:0", mode="max", keep=1)
                stop = StopIfNoImprovementHook("constant:0", mode="max", patience=100)
            else:
                cls = jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")
                best = JavaCheckpointSaverListener(cls(ckpt, "unsigned:0", "max", 1, None, None))
                stopClass = jpype.JClass("org.jhooks.hooks.StopIfNoImprovementHook")
                patience = jpype.JObject(100, jpype.JClass("java.lang.Integer"))
                stop = JavaHook(stopClass("constant:0", "max", patience, None, None))
            train([CheckpointSaverHook(ckpt, saveSteps=1, listeners=[best]), stop], m, 6, ckpt)
        if language == "python":
            ranked[language] = (best.best(), stop.best())
        else:
            ranked[language] = ([(int(e.step()), float(e.value())) for e in best.java.best()], float(stop.java.best()))
    assert ranked["python"] == ranked["java"] == ([(2, 4.0 * scale)], 4.0 * scale)


@pytest.mark.parametrize("language", ["python", "java"])
def test_subdir_checkpoint_is_refused_in_the_constructor_in_both_languages(tmp_path, language):
    """``subdir="checkpoint"`` made a directory where the saver's state file goes: training failed
    with the saver's CheckpointStateError ("Is a directory") and the directory stayed, so no later
    run (nor tf.train.latest_checkpoint) could read that checkpoint dir."""
    message = "BestCheckpointsListener: subdir must not be 'checkpoint', the name of the saver's state file"
    if language == "python":
        with pytest.raises(ValueError) as raised:
            BestCheckpointsListener(str(tmp_path), "metric:0", subdir="checkpoint")
        assert str(raised.value) == message
    else:
        from jhooks.bridge.process import jvm

        jvm.start()
        cls = jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")
        with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException")) as thrown:
            cls(str(tmp_path), "metric:0", "min", 1, "checkpoint", None)
        assert str(thrown.value.getMessage()) == message
    assert os.listdir(tmp_path) == []
