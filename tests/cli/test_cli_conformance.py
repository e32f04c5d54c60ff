"""``python -m jhooks conformance``: the table, --json, --junit-xml, the console (one line per
failure; stack traces only with --verbose), and checking a user's hook or session factory."""

import json
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

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

    class StopsAfterFirstRun(Hook):
        def afterSessionRun(self, runContext, runValues):
            runContext.requestStop()

    def broken_factory():
        raise RuntimeError("the factory cannot make a hook")

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
    code = main(
        [
            "conformance",
            "--combo",
            "python-driver-python-hooks",
            "--combo",
            "jvm-driver-python-hooks",
            "--scenario",
            "normal_end_hook_order",
            "--scenario",
            "cross_language_cause",
            "--json",
            str(out),
        ]
    )
    text = capsys.readouterr().out.splitlines()
    assert code == 0
    assert text[0].split() == ["scenario", "python-driver-python-hooks", "jvm-driver-python-hooks"]
    assert text[1].split() == ["normal_end_hook_order", "passed", "passed"]
    assert text[2].split() == ["cross_language_cause", "skipped", "skipped"]
    assert text[-1] == "2 passed, 0 failed, 0 xfailed, 2 skipped"
    assert json.loads(out.read_text()) == {
        "results": [
            {"scenario": "normal_end_hook_order", "combo": "python-driver-python-hooks", "outcome": "passed"},
            {"scenario": "normal_end_hook_order", "combo": "jvm-driver-python-hooks", "outcome": "passed"},
            {"scenario": "cross_language_cause", "combo": "python-driver-python-hooks", "outcome": "skipped"},
            {"scenario": "cross_language_cause", "combo": "jvm-driver-python-hooks", "outcome": "skipped"},
        ]
    }


def test_a_well_behaved_user_hook_passes_alongside_the_scripted_hooks(user_module, capsys):
    code = main(
        [
            "conformance",
            "--combo",
            "python-driver-mixed-hooks",
            "--scenario",
            "normal_end_hook_order",
            "--scenario",
            "stop_run_context_after_run",
            "--hook-factory",
            "conformance_user_hooks:StepReader",
        ]
    )
    assert (code, capsys.readouterr().out.splitlines()[-1]) == (0, "2 passed, 0 failed, 0 xfailed, 0 skipped")


def test_a_user_hook_that_raises_fails_naming_hook_and_callback(user_module, capsys):
    code = main(
        [
            "conformance",
            "--combo",
            "python-driver-python-hooks",
            "--scenario",
            "normal_end_hook_order",
            "--hook-factory",
            "conformance_user_hooks:BrokenInEnd",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "your hook conformance_user_hooks.BrokenInEnd raised in end: ValueError: user hook breaks in end" in out
    assert out.splitlines()[-1] == "0 passed, 1 failed, 0 xfailed, 0 skipped"


def test_a_user_session_factory_drives_the_python_driver(user_module, capsys):
    code = main(
        [
            "conformance",
            "--scenario",
            "checkpoint_saver_every_2_steps",
            "--scenario",
            "normal_end_one_hook",
            "--combo",
            "python-driver-python-hooks",
            "--combo",
            "jvm-driver-java-hooks",
            "--session-factory",
            "conformance_user_hooks:creator",
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[1].split() == ["checkpoint_saver_every_2_steps", "passed", "skipped"]
    assert (
        len(user_module.CREATED) == 2
        and user_module.CREATED[0].endswith("checkpoints")
        and user_module.CREATED[1] is None
    )


def test_a_python_user_hook_joins_the_jvm_driver_cases_through_the_bridge(user_module, capsys):
    code = main(
        [
            "conformance",
            "--scenario",
            "normal_end_hook_order",
            "--combo",
            "python-driver-python-hooks",
            "--combo",
            "jvm-driver-java-hooks",
            "--hook-factory",
            "conformance_user_hooks:BrokenInEnd",
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[1].split() == ["normal_end_hook_order", "failed", "failed"]
    assert lines[-1] == "0 passed, 2 failed, 0 xfailed, 0 skipped"
    jvm = [line for line in lines if line.startswith("FAILED normal_end_hook_order[jvm-driver-java-hooks]")]
    assert (
        jvm
        and "your hook conformance_user_hooks.BrokenInEnd raised in end: ValueError: user hook breaks in end"
        in (jvm[0])
    )


@pytest.mark.parametrize("flag", ["--hook-factory", "--session-factory"])
def test_a_factory_that_cannot_be_loaded_exits_2_naming_flag_spec_and_error(user_module, capsys, flag):
    code = main(["conformance", "--scenario", "normal_end_hook_order", flag, "conformance_user_hooks:Missing"])
    captured = capsys.readouterr()
    assert (code, captured.out) == (2, "")
    assert captured.err == (
        f"jhooks conformance: {flag} conformance_user_hooks:Missing: AttributeError: "
        "module 'conformance_user_hooks' has no attribute 'Missing'\n"
    )


def _junit(path):
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    return root, {case.get("name"): case for case in root.iter("testcase")}


def test_junit_xml_has_one_case_per_scenario_and_combination(tmp_path, capsys):
    out = tmp_path / "conformance.xml"
    code = main(
        [
            "conformance",
            "--combo",
            "python-driver-python-hooks",
            "--combo",
            "python-driver-mixed-hooks",
            "--scenario",
            "normal_end_hook_order",
            "--scenario",
            "cross_language_cause",
            "--junit-xml",
            str(out),
        ]
    )
    assert code == 0, capsys.readouterr().out
    root, cases = _junit(out)
    assert sorted(cases) == [
        "cross_language_cause[python-driver-mixed-hooks]",
        "cross_language_cause[python-driver-python-hooks]",
        "normal_end_hook_order[python-driver-mixed-hooks]",
        "normal_end_hook_order[python-driver-python-hooks]",
    ]
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("4", "0", "0", "1")
    assert [s.get("name") for s in root.iter("testsuite")] == [
        "python-driver-python-hooks",
        "python-driver-mixed-hooks",
    ]
    skipped = cases["cross_language_cause[python-driver-python-hooks]"].find("skipped")
    assert skipped is not None and skipped.get("message") == "hook j1 must be a Java hook"
    passed = cases["cross_language_cause[python-driver-mixed-hooks]"]
    assert list(passed) == [] and passed.get("classname") == "jhooks.conformance"
    assert float(passed.get("time")) > 0


def test_a_user_hook_that_changes_the_outcome_fails_in_one_line_and_in_the_junit_xml(user_module, tmp_path, capsys):
    out = tmp_path / "conformance.xml"
    code = main(
        [
            "conformance",
            "--combo",
            "python-driver-python-hooks",
            "--scenario",
            "normal_end_hook_order",
            "--scenario",
            "stop_run_context_after_run",
            "--hook-factory",
            "conformance_user_hooks:StopsAfterFirstRun",
            "--junit-xml",
            str(out),
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    failures = [line for line in lines if line.startswith("FAILED ")]
    assert failures == [
        "FAILED normal_end_hook_order[python-driver-python-hooks]: trace: first difference at [12]: "
        "expected h1.before@2, got h1.end (+4 more lines)",
        "FAILED stop_run_context_after_run[python-driver-python-hooks]: trace: first difference at [8]: "
        "expected h1.before@2, got h1.end (+3 more lines)",
    ]
    assert not any(line.lstrip().startswith(("expected [", "got ")) for line in lines), "details only with --verbose"
    assert lines[-1] == "0 passed, 2 failed, 0 xfailed, 0 skipped"
    root, cases = _junit(out)
    assert (root.get("tests"), root.get("failures")) == ("2", "2")
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["hook-factory"] == "conformance_user_hooks:StopsAfterFirstRun"
    failure = cases["normal_end_hook_order[python-driver-python-hooks]"].find("failure")
    assert failure.get("message") == (
        "normal_end_hook_order [python-driver-python-hooks]: trace: first difference at [12]: "
        "expected h1.before@2, got h1.end"
    )
    assert "outcome: expected normal, got stopped" in failure.text.splitlines()
    assert "callerRuns: expected 2, got 1" in failure.text.splitlines()


@pytest.mark.parametrize("verbose", [False, True])
def test_a_runner_failure_is_one_line_and_its_traceback_only_verbose(user_module, capsys, verbose):
    code = main(
        ["conformance", "--combo", "python-driver-python-hooks", "--scenario", "normal_end_hook_order"]
        + ["--hook-factory", "conformance_user_hooks:broken_factory"]
        + (["--verbose"] if verbose else [])
    )
    captured = capsys.readouterr()
    assert code == 1
    headline = "the runner failed: RuntimeError: the factory cannot make a hook"
    if verbose:
        assert f"FAILED normal_end_hook_order[python-driver-python-hooks]\n{headline}\nTraceback" in captured.out
        assert 'in broken_factory\n    raise RuntimeError("the factory cannot make a hook")' in captured.out
    else:
        assert f"FAILED normal_end_hook_order[python-driver-python-hooks]: {headline} (+" in captured.out
        assert "Traceback" not in captured.out + captured.err


@pytest.mark.parametrize("verbose", [False, True])
def test_logged_stack_traces_stay_off_the_console_unless_verbose(tmp_path, verbose):
    """In a real process: the JVM driver's recovery logs the Aborted error with its Java stack
    trace (through Python logging); it lands in the case's system-err, on stderr only if verbose."""
    report = tmp_path / "conformance.xml"
    args = ["--scenario", "recovery_aborted_in_after_run", "--combo", "jvm-driver-java-hooks"]
    args += ["--junit-xml", str(report)] + (["--verbose"] if verbose else [])
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    proc = subprocess.run(
        [sys.executable, "-m", "jhooks", "conformance", *args], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "1 passed, 0 failed, 0 xfailed, 0 skipped"
    stack_line = "\tat org.jhooks.tf.MonitoredSession.withRecovery("
    _, cases = _junit(report)
    system_err = cases["recovery_aborted_in_after_run[jvm-driver-java-hooks]"].find("system-err").text
    assert system_err.startswith(
        "WARNING org.jhooks.tf.MonitoredSession: re-creating the session after a recoverable error (recovery 1)\n"
        "org.tensorflow.exceptions.TensorFlowException: ABORTED: h2 aborts after run 1\n"
    )
    assert stack_line in system_err
    if verbose:
        assert "re-creating the session after a recoverable error (recovery 1)" in proc.stderr
        assert stack_line in proc.stderr
    else:
        assert "\tat " not in proc.stdout + proc.stderr
        assert "recoverable error" not in proc.stdout + proc.stderr
        assert "Local rendezvous" not in proc.stderr


def test_junit_xml_reports_xfailed_as_skipped_and_keeps_unprintable_characters_parseable(tmp_path):
    from jhooks.conformance.report import write_junit_xml
    from jhooks.conformance.runner import CaseResult

    results = [
        CaseResult("s1", "jvm-driver-java-hooks", "xfailed", "defect #7 in the JVM driver", ["trace: differs"]),
        CaseResult("s1", "python-driver-python-hooks", "failed", "a hook said \x1b[31mno\x00\nsecond", ["x"]),
    ]
    out = tmp_path / "r.xml"
    write_junit_xml(str(out), results, {"s1[jvm-driver-java-hooks]": 1.23456})
    root, cases = _junit(out)
    xfailed = cases["s1[jvm-driver-java-hooks]"]
    assert xfailed.get("time") == "1.235"
    skipped = xfailed.find("skipped")
    assert (skipped.get("type"), skipped.get("message"), skipped.text) == (
        "xfail",
        "expected failure: defect #7 in the JVM driver",
        "trace: differs",
    )
    failure = cases["s1[python-driver-python-hooks]"].find("failure")
    assert failure.get("message") == "s1 [python-driver-python-hooks]: a hook said \ufffd[31mno\ufffd"
    assert failure.text == "a hook said \ufffd[31mno\ufffd\nsecond"
    assert [s.get("name") for s in root.iter("testsuite")] == ["jvm-driver-java-hooks", "python-driver-python-hooks"]
