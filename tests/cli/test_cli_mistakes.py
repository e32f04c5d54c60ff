"""Common mistakes with ``python -m jhooks java`` get one line on stderr naming the value and the
fix, exit status 2, and no traceback unless ``--verbose`` is given. Each case is a fresh process
with a real JVM (no JDK: JPype's real finder, shown none, by a sitecustomize; a wrong TensorFlow:
tests/bridge/test_runtime_modes.py on another release)."""

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
    (tmp_path / "tf_hooks.py").write_text(
        textwrap.dedent(
            """
            import tensorflow as tf

            import jhooks

            class VersionAtEnd(jhooks.Hook):
                def end(self, session):
                    print("hook end: tensorflow", tf.__version__, flush=True)
            """
        )
    )
    (tmp_path / "wrong_signature.py").write_text(
        textwrap.dedent(
            """
            import jhooks

            class LossLogger(jhooks.Hook):
                def afterSessionRun(self, runContext):  # runValues is missing
                    pass
            """
        )
    )
    return tmp_path


NO_JDK = """
import jpype._jvmfinder as finder
finder.LinuxJVMFinder._java = "/nonexistent/bin/java"
finder.LinuxJVMFinder._locations = ()
"""


def jhooks_java(*args, cwd, pythonpath="", command="java", no_jdk=False):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (REPO, pythonpath) if p))
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    if no_jdk:  # a fault-injecting sitecustomize: JPype's real JVM finder looks in places without a JDK
        (cwd / "no_jdk").mkdir()
        (cwd / "no_jdk" / "sitecustomize.py").write_text(NO_JDK)
        env["PYTHONPATH"] += os.pathsep + str(cwd / "no_jdk")
        env.pop("JAVA_HOME", None)
    return subprocess.run(
        [sys.executable, "-m", "jhooks", command, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def one_line(done, command="java"):
    """The mistake's one line, which is all of stderr: each is found before TensorFlow is imported
    (its C++ start-up lines) and the JVM started."""
    assert done.returncode == 2, done.stderr[-3000:]
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"python -m jhooks {command}: "), done.stderr
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


def test_a_main_class_not_on_the_classpath_names_the_app_entries_not_every_jar(tmp_path):
    line = one_line(jhooks_java("--classpath", str(tmp_path), "com.example.Train", cwd=tmp_path))
    assert line == (
        "python -m jhooks java: main class: Java class com.example.Train not found on the classpath searched "
        f"({len(classpath())} jhooks jars, listed by python -m jhooks info; 1 other entry: {tmp_path}); check the "
        "name (package.Class, Outer$Inner for a nested class) or add its jar or classes directory: --classpath "
        "with python -m jhooks java, jhooks.bridge.process.jvm.start(extra_classpath=[...]) in Python"
    )


def test_a_hook_class_the_module_does_not_have(hooks_dir):
    line = one_line(jhooks_java(MAIN, "--hook", "wrong_signature:LossLoger", cwd=hooks_dir, pythonpath=str(hooks_dir)))
    assert line == (
        "python -m jhooks java: hook spec 'wrong_signature:LossLoger': wrong_signature has no 'LossLoger'; did you "
        "mean 'wrong_signature:LossLogger'?"
    )


def test_a_hook_whose_callback_has_the_wrong_signature(hooks_dir):
    line = one_line(jhooks_java(MAIN, "--hook", "wrong_signature:LossLogger", cwd=hooks_dir, pythonpath=str(hooks_dir)))
    assert line == (
        "python -m jhooks java: hook spec 'wrong_signature:LossLogger': wrong_signature.LossLogger.afterSessionRun "
        "has the wrong signature; expected afterSessionRun(self, runContext, runValues)"
    )


def test_a_spec_with_a_dot_for_the_colon(hooks_dir):
    line = one_line(jhooks_java(MAIN, "--hook", "wrong_signature.LossLogger", cwd=hooks_dir))
    assert line == (
        "python -m jhooks java: hook spec 'wrong_signature.LossLogger' must be 'package.module:ClassName': did you "
        "mean 'wrong_signature:LossLogger'?"
    )


NO_JDK_LINE = (
    "no JDK found (JPype found no libjvm.so in JAVA_HOME, /usr/bin/java's JDK or /usr/lib/jvm); install a JDK 17 or "
    "later (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless) or set JAVA_HOME to one"
)


def test_no_jdk(tmp_path):
    line = one_line(jhooks_java(MAIN, "--", str(tmp_path / "ckpt"), "3", cwd=tmp_path, no_jdk=True))
    assert line == f"python -m jhooks java: {NO_JDK_LINE}"


def test_info_says_there_is_no_jdk(tmp_path):
    done = jhooks_java(cwd=tmp_path, command="info", no_jdk=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"\njava: none: {NO_JDK_LINE}\njvm: none: " in done.stdout, done.stdout
    assert "JVM sessions and Java hooks" not in done.stdout


def test_verbose_adds_the_traceback(tmp_path):
    done = jhooks_java("--classpath", "app.jar", "com.example.Train", "--verbose", cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback (most recent call last)" in done.stderr
    assert done.stderr.rstrip().splitlines()[-1].startswith("python -m jhooks java: --classpath entry 'app.jar'")


def test_a_hook_module_that_imports_tensorflow_before_the_jvm_starts_still_runs(hooks_dir):
    """The --hook modules are imported by the command line's checks, before the JVM starts and
    shares Python TensorFlow's runtime: a module importing TensorFlow first is fine."""
    done = jhooks_java(
        MAIN, "--hook", "tf_hooks:VersionAtEnd", "--", str(hooks_dir / "ckpt"), "3", cwd=hooks_dir,
        pythonpath=str(hooks_dir),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "hook end: tensorflow 2.18.0" in done.stdout and '"global_step":3' in done.stdout, done.stdout
