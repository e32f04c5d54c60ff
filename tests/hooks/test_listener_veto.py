"""Listener veto (TF #20992): a CheckpointSaverListener's beforeSave returning SaveDecision.SKIP
skips that save: no files, the state file byte-identical, no afterSave. Under TensorFlow's
MonitoredSession with real checkpoints, for both savers, and across the bridge both ways (a Java
listener on a Python saver, a Python listener on a Java saver)."""

from __future__ import annotations

import glob
import json
import os
import re

import jpype
import pytest
from hooks_support import Model, in_graph, train

from jhooks import CheckpointSaverListener, HookError, SaveDecision
from jhooks.bridge import JavaCheckpointSaverListener, JavaHook
from jhooks.bridge.hooks.python_hooks import as_java_listener
from jhooks.hooks import AsyncCheckpointSaverHook, CheckpointSaverHook

pytestmark = pytest.mark.timeout(180)


class Vetoing(CheckpointSaverListener):
    """Skips the saves of ``skip``; records calls and, at each beforeSave, the state file's bytes."""

    def __init__(self, ckpt, skip):
        self.ckpt, self.skip, self.calls, self.stateAt = ckpt, set(skip), [], {}

    def beforeSave(self, session, globalStep):
        self.calls.append(f"beforeSave@{globalStep}")
        self.stateAt[globalStep] = _state_bytes(self.ckpt)
        return SaveDecision.SKIP if globalStep in self.skip else None

    def afterSave(self, session, globalStep):
        self.calls.append(f"afterSave@{globalStep}")
        return False


class Plain(CheckpointSaverListener):
    """A TensorFlow-style listener: beforeSave returns nothing."""

    def __init__(self):
        self.calls = []

    def beforeSave(self, session, globalStep):
        self.calls.append(f"beforeSave@{globalStep}")

    def afterSave(self, session, globalStep):
        self.calls.append(f"afterSave@{globalStep}")
        return False


def _state_bytes(ckpt):
    path = os.path.join(ckpt, "checkpoint")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def steps_with_files(ckpt):
    names = (
        re.match(r"model\.ckpt-(\d+)\.", os.path.basename(p)) for p in glob.glob(os.path.join(ckpt, "model.ckpt-*"))
    )
    return sorted({int(m.group(1)) for m in names if m})


@pytest.mark.parametrize("saverClass", [CheckpointSaverHook, AsyncCheckpointSaverHook])
def test_skipped_save_writes_nothing_and_fires_no_after_save(tmp_path, saverClass):
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(Model)
    veto, plain = Vetoing(ckpt, skip=[2]), Plain()
    with m.gs.graph.as_default():
        saver = saverClass(ckpt, saveSteps=1, listeners=[veto, plain], maxToKeep=0)
        train([saver], m, 3, ckpt)
    assert steps_with_files(ckpt) == [0, 1, 3]
    assert saver.savedSteps() == [0, 1, 3]
    assert plain.calls == ["beforeSave@0", "afterSave@0", "beforeSave@1", "afterSave@1", "beforeSave@2"] + [
        "beforeSave@3",
        "afterSave@3",
    ]
    assert "afterSave@2" not in veto.calls
    # the state file is byte-identical from before the skipped save to before the next one
    assert veto.stateAt[2] is not None and veto.stateAt[3] == veto.stateAt[2]
    assert b"model.ckpt-2" not in _state_bytes(ckpt)


def test_a_skipped_final_save_keeps_the_latest(tmp_path):
    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        saver = CheckpointSaverHook(ckpt, saveSteps=100, listeners=[Vetoing(ckpt, skip=[4])])
        train([saver], m, 4, ckpt)
    assert steps_with_files(ckpt) == [0]
    assert _state_bytes(ckpt).startswith(b'model_checkpoint_path: "model.ckpt-0"')


def test_a_bad_decision_names_the_saver_the_listener_and_the_value(tmp_path):
    class Bad(CheckpointSaverListener):
        def beforeSave(self, session, globalStep):
            return "skip"

        def __repr__(self):
            return "Bad()"

    ckpt = str(tmp_path / "ckpt")
    _, m = in_graph(Model)
    with (
        m.gs.graph.as_default(),
        pytest.raises(
            HookError,
            match=r"CheckpointSaverHook\.afterCreateSession: CheckpointSaverListener Bad\(\)\.beforeSave returned str "
            r"'skip' for step 0; expected None or jhooks\.SaveDecision",
        ),
    ):
        train([CheckpointSaverHook(ckpt, saveSteps=1, listeners=[Bad()])], m, 2, ckpt)
    assert steps_with_files(ckpt) == []


# --- across the bridge ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


def java_scripted_listener(name, skip):
    """The conformance suite's Java ScriptedListener (a real Java class overriding decideSave)."""
    spec = json.dumps({"name": name, "skipSaveAt": list(skip)})
    recorder = jpype.JClass("org.jhooks.conformance.Recorder")()
    listener = jpype.JClass("org.jhooks.conformance.ScriptedListener")(
        jpype.JClass("com.google.gson.JsonParser").parseString(spec).getAsJsonObject(), recorder
    )
    return listener, recorder


def listener_trace(recorder):
    return [str(event) for event in recorder.listenerTrace()]


@pytest.mark.parametrize("saverClass", [CheckpointSaverHook, AsyncCheckpointSaverHook])
def test_java_listener_vetoes_a_python_saver(jvm, tmp_path, saverClass):
    ckpt = str(tmp_path / "ckpt")
    java, recorder = java_scripted_listener("j", [1, 3])
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        saver = saverClass(ckpt, saveSteps=1, listeners=[JavaCheckpointSaverListener(java)])
        train([saver], m, 3, ckpt)
    assert steps_with_files(ckpt) == [0, 2]
    assert listener_trace(recorder) == [
        "j.begin",
        "j.beforeSave@0",
        "j.afterSave@0",
        "j.beforeSave@1",
        "j.beforeSave@2",
        "j.afterSave@2",
        "j.beforeSave@3",
        "j.end@3",
    ]


@pytest.mark.parametrize("kind", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
def test_python_listener_vetoes_a_java_saver(jvm, tmp_path, kind):
    ckpt = str(tmp_path / "ckpt")
    veto = Vetoing(ckpt, skip=[2])
    builder = jpype.JClass(f"org.jhooks.hooks.{kind}").builder(ckpt).saveSteps(jpype.JInt(1)).maxToKeep(jpype.JInt(0))
    java = builder.listeners(jpype.JClass("java.util.List").of(as_java_listener(veto))).build()
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([JavaHook(java)], m, 3, ckpt)
    assert steps_with_files(ckpt) == [0, 1, 3]
    assert [int(s) for s in java.savedSteps()] == [0, 1, 3]
    assert "afterSave@2" not in veto.calls and "beforeSave@2" in veto.calls
    assert veto.stateAt[3] == veto.stateAt[2]


class BadDecision(CheckpointSaverListener):
    def beforeSave(self, session, globalStep):
        return "skip"

    def __repr__(self):
        return "BadDecision()"


@pytest.mark.parametrize("kind", ["CheckpointSaverHook", "AsyncCheckpointSaverHook"])
def test_a_bad_decision_on_a_java_saver_is_a_hook_error_too(jvm, tmp_path, kind):
    """The same Python listener gives a HookError on a Python saver (above) and gave a bare
    TypeError on a Java saver; now a HookError naming the listener, beforeSave and the value there
    too, and a HookException naming them for a Java caller."""
    ckpt = str(tmp_path / "ckpt")
    listeners = jpype.JClass("java.util.List").of(as_java_listener(BadDecision()))
    java = jpype.JClass(f"org.jhooks.hooks.{kind}").builder(ckpt).saveSteps(jpype.JInt(1)).listeners(listeners).build()
    _, m = in_graph(Model)
    expected = r"CheckpointSaverListener BadDecision\(\)\.beforeSave: returned str 'skip' for step 0 to a Java saver"
    with m.gs.graph.as_default(), pytest.raises(HookError, match=expected) as raised:
        train([JavaHook(java)], m, 2, ckpt)
    assert raised.value.hook == "CheckpointSaverListener BadDecision()" and raised.value.callback == "beforeSave"
    assert steps_with_files(ckpt) == []
    # a Java caller of the same listener (the Java saver's own callback, no Python caller between)
    java = jpype.JClass(f"org.jhooks.hooks.{kind}").builder(ckpt).saveSteps(jpype.JInt(1)).listeners(listeners).build()
    java.begin()
    session = jpype.JClass("org.jhooks.Session")
    with pytest.raises(jpype.JClass("org.jhooks.HookException")) as thrown:
        java.afterCreateSession(jpype.JProxy(session, dict={"globalStep": lambda: 0}), None)
    assert re.search(expected, str(thrown.value.getMessage()))
