"""BestCheckpointsListener under a corrupted index and after a kill, in both languages, with real
checkpoints on disk: a bad index is one HookError / HookException in ``begin`` naming the listener,
the file and the entry, and nothing is deleted; ``begin`` removes the checkpoints of its own
basename that its index does not list (what a kill between a copy and the index write leaves), and
nothing else.

Before: a step listed twice made the listener delete its own best checkpoint (both languages); NaN
was ranked best in Python and never evicted; 1e999 was a raw OverflowError in Python and dropped in
Java; deep nesting was a RecursionError / StackOverflowError; a step of 5.9 was read as 5; orphan
copies stayed in the sub-directory forever."""

from __future__ import annotations

import json
import os
import re
import shutil

import jpype
import pytest
from hooks_support import in_graph, train
from test_best_checkpoints import model_with_metric, steps_in

from jhooks.api.errors import HookError
from jhooks.checkpoint.state import all_checkpoints, read_state
from jhooks.hooks import BestCheckpointsListener, CheckpointSaverHook
from jhooks.hooks.best_checkpoints_index import BestCheckpointsIndex

pytestmark = pytest.mark.timeout(300)

LANGUAGES = ["python", "java"]


def trained(tmp_path):
    """A saver dir after 6 runs (saves at 0..6, the saver keeps 4, 5, 6) with a best/ of steps 0
    and 5 (metric 0 at both) ranked by a Python listener (min, keep 2)."""
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(model_with_metric)
    with m.gs.graph.as_default():
        listener = BestCheckpointsListener(ckpt, "metric:0", mode="min", keep=2)
        train([CheckpointSaverHook(ckpt, saveSteps=1, listeners=[listener], maxToKeep=3)], m, 6, ckpt)
    assert listener.best() == [(0, 0.0), (5, 0.0)]
    return ckpt, os.path.join(ckpt, "best")


def listener_begin(language, ckpt, metric="metric:0", mode="min"):
    """A new listener of the same dir (keep 2) begins: its best() as (step, value) pairs, or the
    error it raised as (class name, message)."""
    if language == "python":
        listener = BestCheckpointsListener(ckpt, metric, mode=mode, keep=2)
        try:
            listener.begin()
        except HookError as e:
            return type(e).__name__, str(e)
        return listener.best()
    from jhooks.bridge.process import jvm

    jvm.start()
    listener = jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")(ckpt, metric, mode, 2)
    try:
        listener.begin()
    except jpype.JException as e:
        return type(e).__name__.split(".")[-1], str(e.getMessage())
    return [(int(e.step()), float(e.value())) for e in listener.best()]


def snapshot(directory):
    contents = {}
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name), "rb") as f:
            contents[name] = f.read()
    return contents


BAD_ENTRIES = [
    (
        '{"step": 0, "value": 0.0, "checkpoint": "model.ckpt-0"}',
        r"best\[2\]: step 0 is listed twice \(also best\[0\]\)",
    ),
    ('{"step": 7, "value": NaN, "checkpoint": "model.ckpt-7"}', r"is not JSON \("),
    ('{"step": 7, "value": 1e999, "checkpoint": "model.ckpt-7"}', r"best\[2\]: value 1e999 is not a finite number"),
    ('{"step": 7, "value": [[[1]]], "checkpoint": "model.ckpt-7"}', r"nests deeper than an index \(3 levels\)"),
    ('{"step": 5.9, "value": 1, "checkpoint": "model.ckpt-5"}', r"best\[2\]: step 5.9 is not a global step"),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("bad, message", BAD_ENTRIES, ids=["twice", "nan", "1e999", "nested", "5.9"])
def test_a_bad_entry_is_the_listeners_error_in_begin_and_nothing_is_deleted(tmp_path, language, bad, message):
    ckpt, bestDir = trained(tmp_path)
    index = os.path.join(bestDir, "best_checkpoints.json")
    with open(index) as f:
        text = f.read()
    with open(index, "w") as f:
        f.write(text.replace("\n ]", ",\n" + bad + "\n ]"))
    before = snapshot(bestDir)
    kind, error = listener_begin(language, ckpt)
    assert kind == ("HookError" if language == "python" else "HookException")
    assert error.startswith(f"BestCheckpointsListener.begin: {index}: "), error
    assert re.search(message, error), error
    assert error.endswith("; remove or repair it"), error
    assert snapshot(bestDir) == before


def test_both_languages_refuse_each_bad_entry_with_the_same_message(tmp_path):
    ckpt, bestDir = trained(tmp_path)
    index = os.path.join(bestDir, "best_checkpoints.json")
    with open(index) as f:
        text = f.read()
    for bad, _ in BAD_ENTRIES:
        if "NaN" in bad:
            continue  # the JSON grammar's refusal: each parser words the position its way
        with open(index, "w") as f:
            f.write(text.replace("\n ]", ",\n" + bad + "\n ]"))
        assert listener_begin("python", ckpt)[1] == listener_begin("java", ckpt)[1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_begin_removes_copies_its_index_does_not_list_and_nothing_else(tmp_path, language):
    """What a kill leaves: a whole copy the index does not list yet (killed before the index write),
    the data of a half copy (killed before its .index), a dropped checkpoint still on disk (killed
    before the drop), a state file that lists the new copy. begin() removes those checkpoints and
    rewrites the state file from the index; strangers stay."""
    ckpt, bestDir = trained(tmp_path)
    for name in os.listdir(ckpt):  # a whole copy of the saver's step 6 and the data of step 4
        if name.startswith("model.ckpt-6.") or name.startswith("model.ckpt-4.data"):
            shutil.copy(os.path.join(ckpt, name), os.path.join(bestDir, name))
    with open(os.path.join(bestDir, "checkpoint"), "w") as f:
        f.write('model_checkpoint_path: "model.ckpt-6"\nall_model_checkpoint_paths: "model.ckpt-6"\n')
    strangers = ["model.ckpt-6.index.bak", "other.ckpt-3.index", "model.ckpt-x.index", "notes", "model.ckpt-"]
    for name in strangers:
        with open(os.path.join(bestDir, name), "w") as f:
            f.write("keep me")
    os.mkdir(os.path.join(bestDir, "model.ckpt-8.index"))  # not a file: left alone
    assert listener_begin(language, ckpt) == [(0, 0.0), (5, 0.0)]
    assert steps_in(bestDir) == [0, 5, 6, 8]  # 6: the .bak stranger, 8: the directory
    assert all_checkpoints(bestDir) == [os.path.join(bestDir, f"model.ckpt-{s}") for s in (5, 0)]
    assert read_state(bestDir).modelCheckpointPath == "model.ckpt-0"
    for name in strangers:
        with open(os.path.join(bestDir, name)) as f:
            assert f.read() == "keep me", name
    assert os.path.isdir(os.path.join(bestDir, "model.ckpt-8.index"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_an_index_every_copy_is_an_orphan(tmp_path, language):
    """A kill after the first copy but before the first index write: no index, one copy. begin()
    removes it and the state file; the next save ranks from nothing."""
    ckpt, bestDir = trained(tmp_path)
    os.remove(os.path.join(bestDir, "best_checkpoints.json"))
    assert listener_begin(language, ckpt) == []
    assert sorted(os.listdir(bestDir)) == []


def test_a_listed_checkpoint_that_is_missing_is_not_ranked_and_others_stay(tmp_path, caplog):
    ckpt, bestDir = trained(tmp_path)
    for name in os.listdir(bestDir):
        if name.startswith("model.ckpt-0."):
            os.remove(os.path.join(bestDir, name))
    assert listener_begin("python", ckpt) == [(5, 0.0)]
    assert "lists steps whose checkpoints are missing; not ranked: [0]" in caplog.text
    assert listener_begin("java", ckpt) == [(5, 0.0)]
    assert all_checkpoints(bestDir) == [os.path.join(bestDir, "model.ckpt-5")]
    with open(os.path.join(bestDir, "best_checkpoints.json")) as f:
        assert [e["step"] for e in json.load(f)["best"]] == [0, 5]  # the index is rewritten by the next copy


def test_a_listener_of_another_subdir_removes_nothing_in_this_one(tmp_path):
    ckpt, bestDir = trained(tmp_path)
    for name in os.listdir(ckpt):
        if name.startswith("model.ckpt-6."):
            shutil.copy(os.path.join(ckpt, name), os.path.join(bestDir, name))
    _, m = in_graph(model_with_metric)
    with m.gs.graph.as_default():
        listener = BestCheckpointsListener(ckpt, "metric:0", mode="max", keep=1, subdir="top")
        train([CheckpointSaverHook(ckpt, saveSteps=1, listeners=[listener], maxToKeep=3)], m, 2, ckpt)
    assert steps_in(bestDir) == [0, 5, 6]
    assert steps_in(os.path.join(ckpt, "top")) == [7]


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_infinite_metric_never_qualifies(tmp_path, language):
    """The index holds finite values only: an infinite metric (step 2 here, mode max) is not a best
    checkpoint, as NaN is not (it was the best and the index write failed: Python's ValueError,
    Gson's IllegalArgumentException)."""
    import tensorflow as tf
    from hooks_support import Model

    from jhooks.bridge import JavaCheckpointSaverListener

    def build():
        m = Model()
        step = tf.cast(m.gs, tf.float64)
        tf.where(tf.equal(m.gs, 2), tf.constant(float("inf"), tf.float64), step, name="metric")
        return m

    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(build)
    with m.gs.graph.as_default():
        if language == "python":
            listener = BestCheckpointsListener(ckpt, "metric:0", mode="max", keep=2)
        else:
            from jhooks.bridge.process import jvm

            jvm.start()
            cls = jpype.JClass("org.jhooks.hooks.BestCheckpointsListener")
            listener = JavaCheckpointSaverListener(cls(ckpt, "metric:0", "max", 2))
        train([CheckpointSaverHook(ckpt, saveSteps=1, listeners=[listener])], m, 4, ckpt)
    assert steps_in(os.path.join(ckpt, "best")) == [3, 4]
    index = os.path.join(ckpt, "best", BestCheckpointsIndex.FILE)
    assert BestCheckpointsIndex.read(index, "metric:0", "max", "model.ckpt") == [(4, 4.0), (3, 3.0)]
