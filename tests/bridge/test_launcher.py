"""python -m jhooks java: the app's main runs in this process with the Python hooks it was given."""

import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TEST_CLASSES = os.path.join(REPO, "build", "bridge-test-classes")  # compiled by conftest


def launcher(*argv, timeout=300):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, HERE]))
    return subprocess.run(
        [sys.executable, "-m", "jhooks", "java", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=HERE,
    )


def test_the_app_gets_the_command_line_hooks_and_loads_more():
    done = launcher(
        "--classpath",
        TEST_CLASSES,
        "org.jhooks.bridgetest.HookApp",
        "--hook",
        "launcher_hooks:Greeter",
        "--hook",
        "launcher_hooks:Greeter",
        "--",
        "a",
        "-b",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line]
    assert lines == [
        "args [a, -b]",
        "available true",
        "hooks [launcher_hooks.Greeter (Python), launcher_hooks.Greeter (Python)]",
        "Greeter.beginSession ()",
        "Greeter.beginSession ()",
        "Greeter.beginSession ('from java', 42, 2.5, True)",
    ]


def test_a_python_exception_in_the_app_fails_the_launch_with_both_stacks():
    done = launcher("--classpath", TEST_CLASSES, "org.jhooks.bridgetest.HookApp", "--", "--fail")
    assert done.returncode == 1
    # a built-in RuntimeError reaches Java as IllegalStateException caused by its carrier (standard_errors)
    assert "org.jhooks.bridgetest.HookApp.main threw java.lang.IllegalStateException" in done.stderr
    assert (
        "Caused by: org.jhooks.bridge.PythonException: builtins.RuntimeError: exploded in beginSession" in done.stderr
    )
    assert "at <python>.launcher_hooks.beginSession(" in done.stderr
    assert "at org.jhooks.bridgetest.HookApp.main(HookApp.java" in done.stderr


def test_a_bad_hook_spec_is_named():
    done = launcher("--classpath", TEST_CLASSES, "org.jhooks.bridgetest.HookApp", "--hook", "launcher_hooks:Nope")
    assert done.returncode == 2
    assert "hook spec 'launcher_hooks:Nope': launcher_hooks has no 'Nope'" in done.stderr


@pytest.mark.parametrize("call", ["fromCommandLine()", 'load("m:C")'])
def test_outside_the_launcher_python_hooks_say_how_to_start_the_app(call):
    import jpype

    from jhooks.bridge.process.calls import call_java

    PythonHooks = jpype.JClass("org.jhooks.python.PythonHooks")
    if PythonHooks.available():
        pytest.skip("a loader was installed in this process")
    with pytest.raises(jpype.JClass("java.lang.IllegalStateException"), match="python -m jhooks java"):
        if call == "fromCommandLine()":
            call_java(PythonHooks.fromCommandLine)
        else:
            call_java(PythonHooks.load, "m:C")


def test_the_example_training_app_runs_with_a_python_hook_printing_the_loss(tmp_path):
    done = launcher(
        "org.jhooks.examples.TrainLinearModel",
        "--hook",
        "launcher_hooks:LossPrinter",
        "--",
        str(tmp_path / "ckpt"),
        "60",
        "gd",
        "20",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    printed = [line.split() for line in lines if line.startswith("python loss ")]
    # one line per run; the global step fetched in the same run as train_step is read before or
    # after its increment, so only the count and the values' types are fixed
    assert len(printed) == 60
    assert all(p[4] == "float32" for p in printed)
    losses = [float(p[3]) for p in printed]
    assert losses[-1] < losses[0] / 10
    java_summary = [line for line in lines if line.startswith("{")][-1]
    assert '"global_step":60' in java_summary
    assert "python end 60" in lines


def test_install_hooks_hands_python_hook_objects_to_the_app():
    import jpype

    import jhooks
    from jhooks.bridge.launcher.loader import install_hooks, uninstall_hooks
    from jhooks.bridge.process.calls import call_java

    class Counting(jhooks.Hook):
        def __init__(self):
            self.calls = []

        def beforeSessionRun(self, runContext):
            self.calls.append(f"beforeSessionRun x={float(runContext.originalArgs.feeds['x:0'])}")

        def end(self, session):
            self.calls.append(f"end step={session.globalStep()}")

    PythonHooks = jpype.JClass("org.jhooks.python.PythonHooks")
    hook = Counting()
    installed = install_hooks([hook])
    try:
        from_app = PythonHooks.fromCommandLine()
        assert list(from_app) == installed and len(installed) == 1
        assert str(from_app[0].describe()) == f"{Counting.__module__}.{Counting.__qualname__}, Python"
        assert int(call_java(jpype.JClass("org.jhooks.bridgetest.JvmDriver").run, from_app, 2, None)) == 2
    finally:
        uninstall_hooks()
    assert hook.calls == ["beforeSessionRun x=1.0", "beforeSessionRun x=2.0", "end step=2"]
    assert not PythonHooks.available()


def test_the_jvm_demo_runs_under_the_launcher_with_a_model_dependent_python_hook(tmp_path):
    csv = os.path.join(REPO, "jhooks", "demo", "data", "wdbc.csv")
    done = launcher(
        "org.jhooks.demo.JvmTrainingDemo",
        "--hook",
        "launcher_hooks:LossPrinter",
        "--",
        csv,
        "--steps",
        "3",
        "--checkpoint-dir",
        str(tmp_path / "ckpt"),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    # the step fetched with train_step may be read before or after its increment: not compared
    assert [line.split()[:2] for line in lines if line.startswith("python ")] == [["python", "loss"]] * 3 + [
        ["python", "end"]
    ]
    assert "python end 3" in lines
    assert any(line.startswith("JvmTrainingDemo: global step 0 -> 3") for line in lines)


# --- specs run code: the target is checked before anything is called ---------------------------


@pytest.mark.parametrize(
    "spec,called",
    [
        ("launcher_hooks:side_effect", "SIDE EFFECT"),  # a function not annotated to return a hook
        ("launcher_hooks:NotAHook", "NotAHook constructed"),  # a class that is no hook
        ("os:getcwd", None),  # anything importable
    ],
)
def test_a_hook_spec_that_names_no_hook_class_or_factory_is_refused_without_calling_it(spec, called):
    done = launcher("--classpath", TEST_CLASSES, "org.jhooks.bridgetest.HookApp", "--hook", spec)
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"hook spec {spec!r}" in done.stderr and "nothing was called" in done.stderr, done.stderr[-2000:]
    if called:
        assert called not in done.stdout


def test_a_hook_factory_annotated_to_return_a_hook_is_accepted():
    done = launcher(
        "--classpath", TEST_CLASSES, "org.jhooks.bridgetest.HookApp", "--hook", "launcher_hooks:make_greeter"
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Greeter.beginSession ('made',)" in done.stdout


def test_python_hooks_load_and_load_listener_check_the_target_before_calling_it(capsys):
    import jpype

    from jhooks.bridge.launcher.loader import install_hooks, uninstall_hooks

    PythonHooks = jpype.JClass("org.jhooks.python.PythonHooks")
    PythonException = jpype.JClass("org.jhooks.bridge.PythonException")
    install_hooks([])
    try:
        with pytest.raises(PythonException, match="nothing was called"):
            PythonHooks.load("launcher_hooks:side_effect", "rm -rf /")
        with pytest.raises(PythonException, match="not a jhooks.CheckpointSaverListener subclass"):
            PythonHooks.loadListener("launcher_hooks:Greeter")
        assert "SIDE EFFECT" not in capsys.readouterr().out
        made = PythonHooks.load("launcher_hooks:make_greeter", "x")
        assert str(made.toString()) == "launcher_hooks.Greeter (Python)"
    finally:
        uninstall_hooks()


def train_linear_model_with(hook_spec, checkpoint_dir):
    """TrainLinearModel for 4 steps, a checkpoint every 2, with one --hook; the finished process."""
    done = launcher(
        "org.jhooks.examples.TrainLinearModel", "--hook", hook_spec, "--", str(checkpoint_dir), "4", "gd", "2"
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_python_hooks_and_the_app_log_info_in_one_stream_by_default(tmp_path):
    done = train_linear_model_with("launcher_hooks:InfoLogger", tmp_path)
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} I "
    lines = done.stderr.splitlines()
    python = [line for line in lines if re.fullmatch(stamp + r"launcher_hooks: python hook saw step \d", line)]
    java = [
        line
        for line in lines
        if re.fullmatch(stamp + r"org\.jhooks\.hooks\.CheckpointSaverHook: Saved checkpoint .*", line)
    ]
    assert len(python) == 4, done.stderr[-3000:]
    assert len(java) == 3, done.stderr[-3000:]  # steps 0, 2, 4 (java.util.logging's own format is gone)


def test_a_hook_module_that_configures_logging_is_left_alone(tmp_path):
    done = train_linear_model_with("launcher_quiet_hooks:InfoLogger", tmp_path)
    assert "python hook saw step" not in done.stderr
    assert "Saved checkpoint" not in done.stderr  # Java's INFO follows Python's WARNING too
