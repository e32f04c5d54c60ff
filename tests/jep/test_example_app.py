"""examples/jvm-app trains with Python hooks loaded by spec (``loss_hooks:LossLogger``) in a JVM
started by plain ``java`` (jep backend; docs/bridge.md, "Backends"); tests/examples runs it with
Gradle ``run`` and Maven ``exec:exec``."""

import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXAMPLE = os.path.join(REPO, "examples", "jvm-app")
STEPS = 60


def _check_trained(output, checkpoint_dir):
    line = [x for x in output.splitlines() if "trained: " in x][-1]
    fields = dict(re.findall(r"(\w+)=(\[[^]]*\]|\S+)", line))
    assert int(fields["global_step"]) == STEPS, line
    assert float(fields["loss"]) < 1e-3 and abs(float(fields["w"]) - 3) < 0.05 and abs(float(fields["b"]) + 1) < 0.05
    assert (checkpoint_dir / f"model.ckpt-{STEPS}.index").exists()
    # the Python hook saw every run, its loss the Java hook's
    python = dict(re.findall(r"python: runs=(\d+) last_loss=(\S+)", output))
    assert list(python) == [str(STEPS)], output[-3000:]
    assert abs(float(python[str(STEPS)]) - float(fields["loss"])) < 1e-6
    assert "python: step=50 loss=" in output


def _app_command(tmp_path, jep_jar, runtime_options):
    """``java [runtime options] -cp ... com.example.TrainWithHooks``, the app compiled into ``tmp_path``."""
    from jhooks.bridge.process.classpath import classpath

    classes = tmp_path / "classes"
    cp = os.pathsep.join(classpath())
    source = os.path.join(EXAMPLE, "src", "main", "java", "com", "example", "TrainWithHooks.java")
    done = subprocess.run(["javac", "-d", str(classes), "-cp", cp, source], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return ["java", *runtime_options, "-cp", os.pathsep.join([str(classes), cp, jep_jar]), "com.example.TrainWithHooks"]


def _app_environment(python_path):
    env = {k: v for k, v in os.environ.items() if k != "JHOOKS_CLASSPATH"}
    env["PYTHONPATH"] = python_path
    return env


def test_the_example_app_trains_with_python_hooks_under_plain_java(tmp_path, jep_jar, runtime_options):
    ckpt = tmp_path / "ckpt"
    done = subprocess.run(
        [
            *_app_command(tmp_path, jep_jar, runtime_options),
            str(ckpt),
            str(STEPS),
            "loss_hooks:LossLogger",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=_app_environment(os.path.join(EXAMPLE, "src", "main", "python")),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    _check_trained(done.stdout, ckpt)


def _check_ended(done, checkpoint_dir):
    """A SIGTERM-ed TrainWithHooks: exit 143 within 10 s, after the training loop stopped (the
    ``trained:`` line) and every hook's end() ran: the checkpoint saver's final save of the last
    step is the latest checkpoint."""
    from jhooks.checkpoint.state import latest_checkpoint

    assert done.status == 143, done.err[-3000:]
    assert done.seconds < 10.0, (done.seconds, done.err[-3000:])
    trained = re.findall(r"trained: global_step=(\d+)", done.after)
    assert trained, done.after[-3000:] + done.err[-3000:]
    step = int(trained[-1])
    assert latest_checkpoint(str(checkpoint_dir)) == str(checkpoint_dir / f"model.ckpt-{step}")
    return step


def test_sigterm_ends_the_training_and_every_java_hooks_end_under_plain_java(tmp_path, runtime_options, sigterm_when):
    """Java hooks only, no Python: the JVM exits through its shutdown hooks with the training thread
    still running, so end() never ran (no final checkpoint); now the open session stops after the
    run in progress and the program's close() runs end() (org.jhooks.tf.SessionExit)."""
    from jhooks.bridge.process.classpath import classpath

    classes = tmp_path / "classes"
    cp = os.pathsep.join(classpath())
    source = os.path.join(EXAMPLE, "src", "main", "java", "com", "example", "TrainWithHooks.java")
    compiled = subprocess.run(["javac", "-d", str(classes), "-cp", cp, source], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    command = ["java", *runtime_options, "-cp", os.pathsep.join([str(classes), cp]), "com.example.TrainWithHooks"]
    for trial in range(3):
        ckpt = tmp_path / f"ckpt{trial}"
        done = sigterm_when(
            [*command, str(ckpt), "100000000"],
            lambda line: "global_step:0 = " in line,  # LoggingTensorHook's line: the session trains
            env=_app_environment(""),
            ready_on="stderr",
        )
        assert _check_ended(done, ckpt) > 0


def test_sigterm_ends_the_jvm_training_with_a_hook_that_imported_tensorflow(
    tmp_path, jep_jar, runtime_options, sigterm_when
):
    """The JVM's exit used to hang 1 time in 3 here: HDF5's C exit handler called h5py's converters,
    which wait for the GIL that a thread stopped at the JVM's exit safepoint held. Now Python's exit
    functions (h5py's unregisters them) run in a shutdown hook, after the session's end(): the
    Python hook's end() runs too."""
    command = _app_command(tmp_path, jep_jar, runtime_options)
    env = _app_environment(os.path.join(REPO, "tests", "jep"))
    for trial in range(8):
        ckpt = tmp_path / f"ckpt{trial}"
        done = sigterm_when(
            [*command, str(ckpt), "100000000", "tf_hooks:RunCounter"],
            lambda line: line.startswith("PY runs"),  # the session has run with the hook
            env=env,
        )
        assert "PY h5py True\n" in done.before, done.before
        step = _check_ended(done, ckpt)
        assert f"PY end runs {step}\n" in done.after, (trial, done.after[-3000:])
