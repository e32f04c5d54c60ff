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


def test_the_example_app_trains_with_python_hooks_under_plain_java(tmp_path, jep_jar, runtime_options):
    from jhooks.bridge.process.classpath import classpath

    classes = tmp_path / "classes"
    cp = os.pathsep.join(classpath())
    source = os.path.join(EXAMPLE, "src", "main", "java", "com", "example", "TrainWithHooks.java")
    done = subprocess.run(["javac", "-d", str(classes), "-cp", cp, source], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ckpt = tmp_path / "ckpt"
    env = {k: v for k, v in os.environ.items() if k != "JHOOKS_CLASSPATH"}
    env["PYTHONPATH"] = os.path.join(EXAMPLE, "src", "main", "python")
    done = subprocess.run(
        [
            "java",
            *runtime_options,
            "-cp",
            os.pathsep.join([str(classes), cp, jep_jar]),
            "com.example.TrainWithHooks",
            str(ckpt),
            str(STEPS),
            "loss_hooks:LossLogger",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    _check_trained(done.stdout, ckpt)
