"""Checkpoint files: never touch what is not ours; a failed write is an error (issue 12).

Every test runs the synchronous and the asynchronous saver in the four directions: Python session
(TF's MonitoredSession) with Python or Java hooks, JVM session (org.jhooks.tf.MonitoredSession)
with Java or Python hooks. Real sessions, real files; faults are real file-system states (a
directory where a checkpoint file must go, a garbage state file). docs/contract.md, "Checkpoints".
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import jpype
import pytest
from hooks_support import Model, in_graph, train
from test_cross_python_hooks_jvm_driver import recipe_graph, run_jvm

from jhooks import hooks as pyhooks
from jhooks.api.errors import HookError
from jhooks.bridge import JavaHook
from jhooks.checkpoint import CheckpointSaveError

pytestmark = pytest.mark.timeout(180)

DIRECTIONS = [
    "python-driver-python-hooks",
    "python-driver-java-hooks",
    "jvm-driver-java-hooks",
    "jvm-driver-python-hooks",
]
KINDS = ["CheckpointSaverHook", "AsyncCheckpointSaverHook"]
DATA = ".data-00000-of-00001"


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


def make_saver(language, kind, ckpt, saveSteps=2, basename="model.ckpt", maxToKeep=5):
    if language == "python":
        return getattr(pyhooks, kind)(str(ckpt), saveSteps=saveSteps, checkpointBasename=basename, maxToKeep=maxToKeep)
    builder = jpype.JClass("org.jhooks.hooks." + kind).builder(str(ckpt))
    return builder.saveSteps(saveSteps).checkpointBasename(basename).maxToKeep(maxToKeep).build()


def run(direction, kind, ckpt, steps=5, **saver):
    """Trains ``steps`` runs with one saver of ``kind`` in ``direction``; returns (hook, result)."""
    driver, _, language, _ = direction.split("-")
    hook = make_saver(language, kind, ckpt, **saver)
    try:
        if driver == "python":
            _, m = in_graph(Model)
            with m.gs.graph.as_default():
                out = train([JavaHook(hook) if language == "java" else hook], m, steps)
        else:
            out = run_jvm([hook], recipe_graph(), steps)
    finally:
        with contextlib.suppress(Exception):
            hook.close()
    return hook, out


def saved(hook):
    return [int(s) for s in hook.savedSteps()]


def write_checkpoint_files(prefix, content=b"not ours"):
    for suffix in (".index", DATA, ".meta"):
        with open(str(prefix) + suffix, "wb") as f:
            f.write(content)


def snapshot(directory):
    """{name: bytes} of every regular file under ``directory``."""
    out = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, directory)] = f.read()
    return out


GRAPH = "graph.pbtxt"


def graph_files(names):
    """What a saver writes at session creation besides checkpoints, as TensorFlow's: ``graph.pbtxt``
    and ONE event file (the graph and meta graph events), both checked to be among ``names``."""
    events = [n for n in names if n.startswith("events.out.tfevents.")]
    assert len(events) == 1 and GRAPH in names, sorted(names)
    return [GRAPH, *events]


def state_lines(ckpt):
    with open(os.path.join(ckpt, "checkpoint"), encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_resuming_a_copied_run_dir_never_deletes_the_source_runs_files(tmp_path, direction, kind):
    """TF's Saver writes absolute paths into the state file; a copied run dir names the source's
    files. Rotation (maxToKeep=1) deletes only the saver's own checkpoints in its own dir."""
    src, copy = tmp_path / "src", tmp_path / "copy"
    src.mkdir()
    copy.mkdir()
    for step in (100, 200):
        write_checkpoint_files(src / f"model.ckpt-{step}")
        write_checkpoint_files(copy / f"model.ckpt-{step}")
    state = (
        f'model_checkpoint_path: "{src}/model.ckpt-200"\n'
        f'all_model_checkpoint_paths: "{src}/model.ckpt-100"\n'
        f'all_model_checkpoint_paths: "{src}/model.ckpt-200"\n'
    )
    (src / "checkpoint").write_text(state)
    (copy / "checkpoint").write_text(state)
    source_before = snapshot(src)
    hook, out = run(direction, kind, copy, maxToKeep=1)
    assert out["runs"] == 5 and saved(hook) == [0, 2, 4, 5]
    assert snapshot(src) == source_before
    after = snapshot(copy)
    for step in (100, 200):  # the copied files are not listed as this dir's: never deleted
        assert after[f"model.ckpt-{step}.index"] == b"not ours"
    assert state_lines(copy) == ['model_checkpoint_path: "model.ckpt-5"', 'all_model_checkpoint_paths: "model.ckpt-5"']
    ours = sorted(n for n in after if not n.startswith(("model.ckpt-100", "model.ckpt-200", "checkpoint")))
    assert ours == sorted(["model.ckpt-5" + DATA, "model.ckpt-5.index", *graph_files(after)])


GLOBS = {"m?": "mA", "run[1]": "run1", "*": "x"}


@pytest.mark.parametrize("basename", sorted(GLOBS))
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_glob_characters_in_the_basename_are_literal(tmp_path, direction, kind, basename):
    decoy = GLOBS[basename]  # matches the basename read as a glob pattern
    for step in range(6):
        write_checkpoint_files(tmp_path / f"{decoy}-{step}")
    decoys = snapshot(tmp_path)
    hook, _ = run(direction, kind, tmp_path, basename=basename, maxToKeep=1)
    assert saved(hook) == [0, 2, 4, 5]
    after = snapshot(tmp_path)
    assert {n: after.get(n) for n in decoys} == decoys
    assert sorted(set(after) - set(decoys)) == sorted(
        ["checkpoint", f"{basename}-5{DATA}", f"{basename}-5.index", *graph_files(after)]
    )
    assert state_lines(tmp_path)[0] == f'model_checkpoint_path: "{basename}-5"'


@pytest.mark.parametrize("basename", ["a/b", "..", "../escape", "x/../y", "back\\slash", ""])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("language", ["python", "java"])
def test_a_basename_with_path_parts_is_refused_by_the_constructor(tmp_path, language, kind, basename):
    error = ValueError if language == "python" else jpype.JClass("java.lang.IllegalArgumentException")
    with pytest.raises(error) as e:
        make_saver(language, kind, tmp_path, basename=basename)
    text = str(e.value)
    assert kind in text and "checkpointBasename" in text and f"'{basename}'" in text
    assert os.listdir(tmp_path) == []


GARBAGE = {
    "binary": b"\x00\xff\xfe garbage \x81",
    "text": b"this is not a checkpoint state\n",
    "no-latest": b'all_model_checkpoint_paths: "model.ckpt-0"\n',
    "empty": b"",
}


@pytest.mark.parametrize("garbage", [*sorted(GARBAGE), "directory"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_a_garbage_or_unreadable_state_file_stops_the_saver_in_begin_and_nothing_is_overwritten(
    tmp_path, direction, kind, garbage
):
    """TF would log, ignore the file and later overwrite model.ckpt-N of the old run; both
    languages refuse in begin instead, writing and deleting nothing."""
    write_checkpoint_files(tmp_path / "model.ckpt-0", b"old run, step 0")
    write_checkpoint_files(tmp_path / "model.ckpt-2", b"old run, step 2")
    if garbage == "directory":
        (tmp_path / "checkpoint").mkdir()
    else:
        (tmp_path / "checkpoint").write_bytes(GARBAGE[garbage])
    before = snapshot(tmp_path)
    with pytest.raises(HookError) as e:
        run(direction, kind, tmp_path)
    text = str(e.value)
    assert f"{kind}.begin: checkpoint state file {tmp_path}/checkpoint" in text, text
    assert snapshot(tmp_path) == before
    assert (garbage == "directory") == (tmp_path / "checkpoint").is_dir()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_the_next_saver_removes_the_temporaries_of_a_killed_save(tmp_path, direction, kind):
    stale = [
        "checkpoint.tmp3kq9x",
        "checkpoint.tmp123456789",
        f"model.ckpt-7{DATA}.tempstate1234",
        "model.ckpt-7.index.tempstate99",
    ]
    foreign = ["other-7.index.tempstate5", "notes.txt", "checkpoint-notes"]
    for name in stale + foreign:
        (tmp_path / name).write_bytes(b"x")
    hook, _ = run(direction, kind, tmp_path, steps=1)
    assert saved(hook) == [0, 1]
    names = set(os.listdir(tmp_path))
    assert not names & set(stale)
    assert set(foreign) <= names


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_a_failed_write_stops_training_with_an_error_naming_hook_step_and_path(tmp_path, direction, kind):
    """The index of step 2 cannot be written (a directory is in its place): the save is an error
    naming the hook, global step 2 and the prefix; training stops (no end of input), and the state
    file still names the last good checkpoint."""
    (tmp_path / "model.ckpt-2.index").mkdir()
    with pytest.raises(CheckpointSaveError) as e:
        run(direction, kind, tmp_path, steps=8)
    error = e.value
    prefix = str(tmp_path / "model.ckpt-2")
    assert (error.hook, error.globalStep, error.prefix) == (kind, 2, prefix)
    assert f"{kind}." in str(error) and f"checkpoint save of global step 2 to {prefix} failed" in str(error)
    assert error.__cause__ is not None
    assert state_lines(tmp_path)[0] == 'model_checkpoint_path: "model.ckpt-0"'
    assert not any(".tempstate" in n or n.startswith("checkpoint.tmp") for n in os.listdir(tmp_path))


FSIZE_GRAPH_FAST = {
    ("python-driver-java-hooks", "CheckpointSaverHook"),
    ("jvm-driver-python-hooks", "AsyncCheckpointSaverHook"),
}
FSIZE_FAST = {
    ("python-driver-python-hooks", "CheckpointSaverHook"),
    ("jvm-driver-java-hooks", "AsyncCheckpointSaverHook"),
}


@pytest.mark.parametrize(
    "direction,kind",
    [
        pytest.param(d, k, marks=() if (d, k) in FSIZE_FAST else pytest.mark.slow)  # a process each: ~30 s
        for d in DIRECTIONS
        for k in KINDS
    ],
)
def test_a_file_size_limit_during_a_save_is_an_error_not_end_of_input(tmp_path, direction, kind):
    """Under RLIMIT_FSIZE TensorFlow reports the failed write as OUT_OF_RANGE, which a monitored
    session takes for end of input; the saver's error names hook, global step and prefix instead."""
    done = fsize_train(direction, kind, tmp_path, "save")
    lines = done.stdout.splitlines()
    prefix = str(tmp_path / "model.ckpt-0")
    assert done.returncode == 3, done.stdout + done.stderr[-3000:]
    assert lines[0] == f"ERROR CheckpointSaveError 0 {prefix}", done.stdout
    message = "\n".join(lines[1:])
    assert f"{kind}." in message and f"checkpoint save of global step 0 to {prefix} failed" in message
    assert "OutOfRange" in message or "File too large" in message, message
    assert not os.path.exists(tmp_path / "checkpoint")
    graph_files(os.listdir(tmp_path))  # written before the save, as TF's hook


def fsize_train(direction, kind, ckpt, what):
    """fsize_trainer.py in a process of its own (the limit is per process)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fsize_trainer.py")
    return subprocess.run(
        [sys.executable, script, direction, kind, str(ckpt), what], capture_output=True, text=True, timeout=150
    )


@pytest.mark.parametrize(
    "direction,kind",
    [
        pytest.param(d, k, marks=() if (d, k) in FSIZE_GRAPH_FAST else pytest.mark.slow)  # a process each: ~30 s
        for d in DIRECTIONS
        for k in KINDS
    ],
)
def test_a_file_size_limit_during_the_graph_write_is_an_error_naming_hook_and_callback(tmp_path, direction, kind):
    """graph.pbtxt (a 1 MiB constant: ~4 MiB of text) is written at session creation before the
    first save, as TF's hook does; under RLIMIT_FSIZE its write fails: a HookError /
    HookException naming the hook, afterCreateSession and the file, never swallowed; no temporary
    is left, no graph.pbtxt half-written, no checkpoint saved."""
    done = fsize_train(direction, kind, tmp_path, "graph")
    lines = done.stdout.splitlines()
    assert done.returncode == 3, done.stdout + done.stderr[-3000:]
    assert lines[0].split()[:2] == ["ERROR", "HookError"], done.stdout
    message = "\n".join(lines[1:])
    assert f"{kind}.afterCreateSession: cannot write the graph to {tmp_path / GRAPH}" in message, message
    assert "File too large" in message, message
    assert sorted(os.listdir(tmp_path)) == [], sorted(os.listdir(tmp_path))


def _rotation(language, ckpt, maxToKeep):
    if language == "python":
        from jhooks.checkpoint import CheckpointRotation

        return CheckpointRotation(str(ckpt), "model.ckpt", maxToKeep)
    return jpype.JClass("org.jhooks.checkpoint.CheckpointRotation")(
        jpype.JClass("java.nio.file.Path").of(str(ckpt), []), "model.ckpt", maxToKeep
    )


@pytest.mark.parametrize("language", ["python", "java"])
def test_a_rotation_a_kill_interrupted_deletes_only_the_dropped_checkpoints_the_state_file_no_longer_lists(
    tmp_path, language
):
    """What a kill between the state file and the deletions leaves: the journal names what the save
    dropped. The next rotation deletes those that are this saver's and unlisted, nothing else."""
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (tmp_path / "x").mkdir()
    for prefix in ("model.ckpt-6", "model.ckpt-7", "model.ckpt-8", "model.ckpt-5", "other-6"):
        write_checkpoint_files(ckpt / prefix)
    write_checkpoint_files(tmp_path / "x" / "model.ckpt-6")
    (ckpt / "checkpoint").write_text(
        'model_checkpoint_path: "model.ckpt-8"\n'
        'all_model_checkpoint_paths: "model.ckpt-7"\nall_model_checkpoint_paths: "model.ckpt-8"\n'
    )
    outside = str(tmp_path / "x" / "model.ckpt-6")
    journal = ["model.ckpt-6", "model.ckpt-7", "", "other-6", "../x/model.ckpt-6", outside, "model.ckpt-9"]
    (ckpt / "checkpoint.rotation").write_text("".join(n + "\n" for n in journal))
    before = snapshot(tmp_path)
    deleted = [str(p) for p in _rotation(language, ckpt, 2).finishInterruptedRotation()]
    assert deleted == [str(ckpt / "model.ckpt-6")]
    gone = {f"ckpt/model.ckpt-6{s}" for s in (".index", DATA, ".meta")} | {"ckpt/checkpoint.rotation"}
    assert snapshot(tmp_path) == {k: v for k, v in before.items() if k not in gone}
    assert list(_rotation(language, ckpt, 2).finishInterruptedRotation()) == []  # no journal: nothing


@pytest.mark.parametrize("language", ["python", "java"])
def test_a_rotation_leaves_no_journal_and_without_one_deletes_no_unlisted_checkpoint(tmp_path, language):
    write_checkpoint_files(tmp_path / "model.ckpt-1")  # a user's checkpoint, never listed
    rotation = _rotation(language, tmp_path, 2)
    for step in (2, 3, 4):
        write_checkpoint_files(tmp_path / f"model.ckpt-{step}")
        rotation.record(str(tmp_path / f"model.ckpt-{step}"))
    assert not (tmp_path / "checkpoint.rotation").exists()
    assert list(_rotation(language, tmp_path, 2).finishInterruptedRotation()) == []
    prefixes = sorted({n.split(".", 2)[1] for n in os.listdir(tmp_path) if n.startswith("model.ckpt-")})
    assert prefixes == ["ckpt-1", "ckpt-3", "ckpt-4"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_the_next_saver_finishes_the_rotation_of_a_killed_save(tmp_path, direction, kind):
    run(direction, kind, tmp_path, steps=1)
    for prefix in ("model.ckpt-400", "model.ckpt-500", "other-400"):
        write_checkpoint_files(tmp_path / prefix)
    (tmp_path / "checkpoint.rotation").write_text("model.ckpt-400\nother-400\nmodel.ckpt-1\n")
    hook, _ = run(direction, kind, tmp_path, steps=1)
    assert saved(hook) == [0, 1]
    names = set(os.listdir(tmp_path))
    assert not {n for n in names if n.startswith("model.ckpt-400")} and "checkpoint.rotation" not in names
    assert {f"{p}{s}" for p in ("model.ckpt-500", "other-400") for s in (".index", DATA, ".meta")} <= names
    assert (tmp_path / f"model.ckpt-500{DATA}").read_bytes() == b"not ours"
