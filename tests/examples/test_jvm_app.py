"""examples/jvm-app as a JVM user gets it: copied out of the checkout, after the README's one
publishing step (``gradle publishToMavenLocal``), built and run with the plain commands its build
files document: ``gradle -q run`` and ``mvn -q compile exec:exec``, then the same with Python hooks
(``-Ppython=PYTHON`` / ``-Dpython=PYTHON``: jep, docs/bridge.md "Backends").

The local Maven repository is build/m2-example (``-Dmaven.repo.local``, read by Gradle's
``mavenLocal()`` as by Maven), not ``~/.m2``: the test depends on no state of the user's, and the
downloads (about 200 MB, TensorFlow's native jar and Maven's plugins) are reused between runs.
jhooks itself is removed from there and published again first, so every run resolves the fresh
artifact. The example names no path of the checkout: a copy resolves only coordinates.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

from jhooks.api.version import VERSION

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(REPO, "examples", "jvm-app")
LOCAL_REPO = os.path.join(REPO, "build", "m2-example")
JAVACPP_CACHE = os.path.join(REPO, "build", "javacpp-cache")
STEPS = 60

needs_gradle = pytest.mark.skipif(shutil.which("gradle") is None, reason="Gradle is not installed")
needs_maven = pytest.mark.skipif(shutil.which("mvn") is None, reason="Maven is not installed")
needs_jep = pytest.mark.skipif(importlib.util.find_spec("jep") is None, reason="jep is not installed (jhooks[jep])")


def _env():
    """No jhooks classpath from this test run: the app sees only what it resolves."""
    return {k: v for k, v in os.environ.items() if k not in ("JHOOKS_CLASSPATH", "PYTHONPATH")}


def _run(command, cwd, ok=True):
    done = subprocess.run(command, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=1500)
    if not ok:
        return done
    assert done.returncode == 0, f"{command}\n{done.stdout[-4000:]}\n{done.stderr[-5000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def published():
    """``gradle publishToMavenLocal`` from the checkout into the private local repository."""
    shutil.rmtree(os.path.join(LOCAL_REPO, "org", "jhooks"), ignore_errors=True)
    _run(["gradle", "-q", "--console=plain", "publishToMavenLocal", f"-Dmaven.repo.local={LOCAL_REPO}"], REPO)
    assert os.path.exists(os.path.join(LOCAL_REPO, "org", "jhooks", "jhooks", VERSION, f"jhooks-{VERSION}.jar"))
    return LOCAL_REPO


@pytest.fixture
def app(tmp_path):
    copy = tmp_path / "jvm-app"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("build", "target", ".gradle"))
    assert not str(copy).startswith(REPO)
    return copy


def test_the_example_names_no_path_of_the_checkout():
    for name in ("build.gradle", "pom.xml", "settings.gradle"):
        with open(os.path.join(EXAMPLE, name)) as f:
            text = f.read()
        assert "../" not in text, name


def _check_trained(output, checkpoint_dir, python_hooks=False, last_step=STEPS):
    line = [x for x in output.splitlines() if "trained: " in x][-1]  # Maven may prefix a colour reset
    fields = dict(re.findall(r"(\w+)=(\[[^]]*\]|\S+)", line))
    assert int(fields["global_step"]) == last_step, line
    assert float(fields["loss"]) < 1e-3 and abs(float(fields["w"]) - 3) < 0.05 and abs(float(fields["b"]) + 1) < 0.05
    assert "model.ckpt-50.index" in fields["checkpoints"], line
    assert (checkpoint_dir / f"model.ckpt-{last_step}.index").exists()  # the final save when the session closed
    python = dict(re.findall(r"python: runs=(\d+) last_loss=(\S+)", output))
    if not python_hooks:
        assert python == {}
        return
    # the Python hook saw every run, its loss the Java hook's
    assert list(python) == [str(STEPS)], output[-3000:]
    assert abs(float(python[str(STEPS)]) - float(fields["loss"])) < 1e-6
    assert "python: step=50 loss=" in output


def _gradle_run(app, ckpt, *extra, ok=True):
    return _run(
        [
            "gradle", "-q", "--console=plain", "run", f"-Dmaven.repo.local={LOCAL_REPO}",
            f"-PcheckpointDir={ckpt}", f"-Psteps={STEPS}", f"-PjavacppCacheDir={JAVACPP_CACHE}", *extra,
        ],
        app,
        ok,
    )  # fmt: skip


def _maven_run(app, ckpt, *extra, ok=True):
    return _run(
        [
            "mvn", "-B", "-q", "-Dstyle.color=never", f"-Dmaven.repo.local={LOCAL_REPO}",
            f"-DcheckpointDir={ckpt}", f"-Dsteps={STEPS}", f"-Djavacpp.cachedir={JAVACPP_CACHE}", *extra,
            "compile", "exec:exec",
        ],
        app,
        ok,
    )  # fmt: skip


@needs_gradle
def test_a_copy_builds_and_trains_with_gradle_run(app, published, tmp_path):
    _check_trained(_gradle_run(app, tmp_path / "ckpt"), tmp_path / "ckpt")


@needs_gradle
def test_a_second_run_trains_on_from_the_first_runs_checkpoint(app, published, tmp_path):
    """What a user who runs ``gradle -q run`` twice sees: the second run restores the first's last
    checkpoint and trains ``steps`` more (it trained none, and printed loss=NaN)."""
    _gradle_run(app, tmp_path / "ckpt")
    out = _gradle_run(app, tmp_path / "ckpt")
    _check_trained(out, tmp_path / "ckpt", last_step=2 * STEPS)


@needs_gradle
@needs_maven
def test_a_copy_builds_and_trains_with_maven_exec(app, published, tmp_path):
    _check_trained(_maven_run(app, tmp_path / "ckpt"), tmp_path / "ckpt")


@needs_gradle
@needs_jep
def test_a_copy_trains_with_python_hooks_under_gradle_run(app, published, tmp_path):
    out = _gradle_run(app, tmp_path / "ckpt", f"-Ppython={sys.executable}", "-PpythonHooks=loss_hooks:LossLogger")
    _check_trained(out, tmp_path / "ckpt", python_hooks=True)


@needs_gradle
@needs_maven
@needs_jep
def test_a_copy_trains_with_python_hooks_under_maven_exec(app, published, tmp_path):
    out = _maven_run(app, tmp_path / "ckpt", f"-Dpython={sys.executable}", "-DpythonHooks=loss_hooks:LossLogger")
    _check_trained(out, tmp_path / "ckpt", python_hooks=True)


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """The python of an environment without jhooks: what -Ppython / -Dpython get by mistake."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    return str(venv / "bin" / "python")


FIX = "give the python of an environment with jhooks[jep] installed (pip install 'jhooks[jep]' there)"


@needs_gradle
def test_gradle_names_a_python_without_jhooks_and_the_fix(app, published, tmp_path, bare_python):
    done = _gradle_run(app, tmp_path / "ckpt", f"-Ppython={bare_python}", ok=False)
    assert done.returncode != 0
    assert (
        f"-Ppython={bare_python}: '{bare_python} -m jhooks jvm-options --jep-jar' failed: {bare_python}: No module "
        f"named jhooks; {FIX}"
    ) in done.stderr, done.stderr[-3000:]  # was "Stream closed"


@needs_gradle
@needs_maven
def test_maven_names_a_python_without_jhooks_and_the_fix(app, published, tmp_path, bare_python):
    done = _maven_run(app, tmp_path / "ckpt", f"-Dpython={bare_python}", ok=False)
    assert done.returncode != 0
    text = done.stdout + done.stderr  # Maven may prefix a line with a colour reset
    assert f"{bare_python}: No module named jhooks\n" in text, text[:3000]
    assert f"-Dpython={bare_python}: '{bare_python} -m jhooks jvm-options' failed (above); {FIX}\n" in text
    assert not (tmp_path / "ckpt").exists()
