"""``python -m jhooks conformance``: the table, --json, and checking a user's hook or session factory."""

import json
import textwrap

import pytest

from jhooks.cli.main import main

USER_MODULE = textwrap.dedent("""
    import tensorflow as tf
    from jhooks import Hook, SessionRunArgs

    CREATED = []

    class StepReader(Hook):
        def beforeSessionRun(self, runContext):
            return SessionRunArgs("global_step_read:0")

    class BrokenInEnd(Hook):
        def end(self, session):
            raise ValueError("user hook breaks in end")

    def creator(checkpointDir):
        CREATED.append(checkpointDir)
        return tf.compat.v1.train.ChiefSessionCreator(checkpoint_dir=checkpointDir)
""")


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "conformance_user_hooks.py").write_text(USER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    import conformance_user_hooks

    return importlib.reload(conformance_user_hooks)


def test_table_and_json_for_two_combos(tmp_path, capsys):
    out = tmp_path / "r.json"
    code = main(["conformance", "--combo", "python-driver-python-hooks", "--combo", "jvm-driver-python-hooks",
                 "--scenario", "normal_end_hook_order", "--scenario", "cross_language_cause", "--json", str(out)])
    text = capsys.readouterr().out.splitlines()
    assert code == 0
    assert text[0].split() == ["scenario", "python-driver-python-hooks", "jvm-driver-python-hooks"]
    assert text[1].split() == ["normal_end_hook_order", "passed", "passed"]
    assert text[2].split() == ["cross_language_cause", "skipped", "skipped"]
    assert text[-1] == "2 passed, 0 failed, 0 xfailed, 2 skipped"
    assert json.loads(out.read_text()) == {"results": [
        {"scenario": "normal_end_hook_order", "combo": "python-driver-python-hooks", "outcome": "passed"},
        {"scenario": "normal_end_hook_order", "combo": "jvm-driver-python-hooks", "outcome": "passed"},
        {"scenario": "cross_language_cause", "combo": "python-driver-python-hooks", "outcome": "skipped"},
        {"scenario": "cross_language_cause", "combo": "jvm-driver-python-hooks", "outcome": "skipped"}]}


def test_a_well_behaved_user_hook_passes_alongside_the_scripted_hooks(user_module, capsys):
    code = main(["conformance", "--combo", "python-driver-mixed-hooks", "--scenario", "normal_end_hook_order",
                 "--scenario", "stop_run_context_after_run", "--hook-factory", "conformance_user_hooks:StepReader"])
    assert (code, capsys.readouterr().out.splitlines()[-1]) == (0, "2 passed, 0 failed, 0 xfailed, 0 skipped")


def test_a_user_hook_that_raises_fails_naming_hook_and_callback(user_module, capsys):
    code = main(["conformance", "--combo", "python-driver-python-hooks", "--scenario", "normal_end_hook_order",
                 "--hook-factory", "conformance_user_hooks:BrokenInEnd"])
    out = capsys.readouterr().out
    assert code == 1
    assert "your hook conformance_user_hooks.BrokenInEnd raised in end: ValueError: user hook breaks in end" in out
    assert out.splitlines()[-1] == "0 passed, 1 failed, 0 xfailed, 0 skipped"


def test_a_user_session_factory_drives_the_python_driver(user_module, capsys):
    code = main(["conformance", "--scenario", "checkpoint_saver_every_2_steps", "--scenario", "normal_end_one_hook",
                 "--combo", "python-driver-python-hooks", "--combo", "jvm-driver-java-hooks",
                 "--session-factory", "conformance_user_hooks:creator"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[1].split() == ["checkpoint_saver_every_2_steps", "passed", "skipped"]
    assert len(user_module.CREATED) == 2 and user_module.CREATED[0].endswith("checkpoints") and user_module.CREATED[1] is None


def test_a_user_hook_factory_skips_the_jvm_driver_cases_it_cannot_join(user_module, capsys):
    code = main(["conformance", "--scenario", "normal_end_hook_order", "--combo", "python-driver-python-hooks",
                 "--combo", "jvm-driver-java-hooks", "--hook-factory", "conformance_user_hooks:BrokenInEnd"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[1].split() == ["normal_end_hook_order", "failed", "skipped"]
    assert lines[-1] == "0 passed, 1 failed, 0 xfailed, 1 skipped"


@pytest.mark.parametrize("flag", ["--hook-factory", "--session-factory"])
def test_a_factory_that_cannot_be_loaded_exits_2_naming_flag_spec_and_error(user_module, capsys, flag):
    code = main(["conformance", "--scenario", "normal_end_hook_order", flag, "conformance_user_hooks:Missing"])
    captured = capsys.readouterr()
    assert (code, captured.out) == (2, "")
    assert captured.err == (f"jhooks conformance: {flag} conformance_user_hooks:Missing: AttributeError: "
                            "module 'conformance_user_hooks' has no attribute 'Missing'\n")
