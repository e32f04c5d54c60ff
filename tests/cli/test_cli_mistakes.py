"""Common mistakes with ``python -m jhooks java`` get one line on stderr naming the value and the
fix, exit status 2, and no traceback unless ``--debug`` is given. Each case is a fresh process
with a real JVM."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from jhooks.bridge.process.classpath import classpath

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAIN = "org.jhooks.examples.TrainLinearModel"


@pytest.fixture
def hooks_dir(tmp_path):
    (tmp_path / "needs_args.py").write_text(
        textwrap.dedent(
            """
            import jhooks

            class Threshold(jhooks.Hook):
                def __init__(self, threshold):
                    self.threshold = threshold
            """
        )
    )
    (tmp_path / "broken_import.py").write_text("import a_dependency_that_is_not_installed\n")
    return tmp_path


def jhooks_java(*args, cwd, pythonpath=""):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (REPO, pythonpath) if p))
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    return subprocess.run(
        [sys.executable, "-m", "jhooks", "java", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def one_line(done):
    assert done.returncode == 2, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("python -m jhooks java: ")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_hook_module_that_cannot_be_imported(tmp_path):
    line = one_line(jhooks_java(MAIN, "--hook", "my_hooks:LossLogger", "--", str(tmp_path / "ckpt"), "5", cwd=tmp_path))
    assert line == (
        "python -m jhooks java: hook spec 'my_hooks:LossLogger': cannot import 'my_hooks' (No module named "
        "'my_hooks'); put the directory that holds my_hooks on PYTHONPATH (PYTHONPATH=DIR python -m jhooks "
        "java ...) or pip install its package"
    )


def test_a_hook_module_whose_own_import_fails(hooks_dir):
    line = one_line(jhooks_java(MAIN, "--hook", "broken_import:X", cwd=hooks_dir, pythonpath=str(hooks_dir)))
    assert "cannot import 'broken_import' (No module named 'a_dependency_that_is_not_installed')" in line
    assert "it was found, but importing it failed: fix that import" in line


def test_a_hook_class_that_needs_arguments(hooks_dir):
    line = one_line(jhooks_java(MAIN, "--hook", "needs_args:Threshold", cwd=hooks_dir, pythonpath=str(hooks_dir)))
    assert line == (
        "python -m jhooks java: hook spec 'needs_args:Threshold': needs_args.Threshold cannot be built with no "
        "arguments (missing a required argument: 'threshold'); a --hook class is built with none: give its "
        "parameters defaults, or name a factory that passes them (def make() -> Threshold: ...)"
    )


def test_a_classpath_entry_that_does_not_exist(tmp_path):
    line = one_line(jhooks_java("--classpath", "app.jar", "com.example.Train", cwd=tmp_path))
    assert line == (
        f"python -m jhooks java: --classpath entry 'app.jar' does not exist (relative to {tmp_path}); give the "
        "path of your app's jar or classes directory"
    )


def test_a_main_class_not_on_the_classpath_names_the_classpath_searched(tmp_path):
    line = one_line(jhooks_java("--classpath", str(tmp_path), "com.example.Train", cwd=tmp_path))
    assert line.startswith(
        "python -m jhooks java: main class: Java class com.example.Train not found on the classpath searched ("
    )
    assert str(tmp_path) in line and classpath()[0] in line


def test_debug_adds_the_traceback(tmp_path):
    done = jhooks_java("--classpath", "app.jar", "com.example.Train", "--debug", cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback (most recent call last)" in done.stderr
    assert done.stderr.rstrip().splitlines()[-1].startswith("python -m jhooks java: --classpath entry 'app.jar'")
