"""The README's plain-``java`` recipe for Python hooks, with only the wheel (and jep): a new virtual
environment outside the checkout gets ``jhooks[tf,jep]`` from a wheel built here (dependencies from
PyPI, pip's downloads kept in build/pip-cache), nothing of the checkout. The example app's source
compiles against ``python -m jhooks jvm-options --classpath`` and runs as the recipe says:

    java $(python -m jhooks jvm-options) \\
      -cp "classes:$(python -m jhooks jvm-options --classpath):$(python -m jhooks jvm-options --jep-jar)" ...

run by ``sh`` as written. Without the runtime options the JVM is told so by jhooks, naming them.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(REPO, "examples", "jvm-app", "src", "main")
PASSED_THROUGH = ("PIP_", "SSL_CERT_", "REQUESTS_CA_BUNDLE", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY")
STEPS = 60
CLASSPATH = "classes:$(python -m jhooks jvm-options --classpath):$(python -m jhooks jvm-options --jep-jar)"
APP = f"com.example.TrainWithHooks ckpt {STEPS} loss_hooks:LossLogger"


@pytest.fixture(scope="module")
def user(tmp_path_factory):
    """A work directory with the example's sources and a venv holding only the wheel (tf, jep)."""
    root = tmp_path_factory.mktemp("plain-java")
    assert not str(root).startswith(REPO)
    dist = root / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", REPO, "--no-deps", "-q", "-w", str(dist)], check=True)
    (wheel,) = glob.glob(str(dist / "jhooks-*.whl"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    home = root / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k.startswith(PASSED_THROUGH)}
    env.update(
        HOME=str(home),
        # the venv first (its python is the recipe's), then the system's: javac and gcc build jep
        PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
        PIP_CACHE_DIR=os.path.join(REPO, "build", "pip-cache"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        TF_CPP_MIN_LOG_LEVEL="2",
        LANG="C.UTF-8",
    )
    if "JAVA_HOME" in os.environ:
        env["JAVA_HOME"] = os.environ["JAVA_HOME"]
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"{wheel}[tf,jep]"],
        env=env,
        capture_output=True,
        text=True,
        timeout=2400,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    work = root / "work"
    shutil.copytree(EXAMPLE, work / "src")
    env["PYTHONPATH"] = str(work / "src" / "python")  # the app's hook module, nothing of the checkout
    return work, env


def sh(user, script, timeout=900):
    work, env = user
    return subprocess.run(["sh", "-c", script], cwd=work, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_classpath_is_the_wheels_jars(user):
    done = sh(user, "python -m jhooks jvm-options --classpath")
    assert done.returncode == 0, done.stderr
    jars = done.stdout.strip().split(os.pathsep)
    assert jars[0].endswith("/site-packages/jhooks/_jars/jhooks-0.1.0.jar"), jars
    assert all("/site-packages/jhooks/_jars/" in j and os.path.isfile(j) for j in jars), jars
    assert not any(j.startswith(REPO) for j in jars)


def test_the_recipe_trains_with_python_hooks(user):
    javac = sh(user, 'javac -d classes -cp "$(python -m jhooks jvm-options --classpath)" src/java/com/example/*.java')
    assert javac.returncode == 0, javac.stderr
    done = sh(user, f'java $(python -m jhooks jvm-options) -cp "{CLASSPATH}" {APP}')
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    line = [x for x in done.stdout.splitlines() if x.startswith("trained: ")][-1]
    fields = dict(re.findall(r"(\w+)=(\[[^]]*\]|\S+)", line))
    assert int(fields["global_step"]) == STEPS, line
    assert float(fields["loss"]) < 1e-3
    assert f"python: runs={STEPS} last_loss=" in done.stdout  # the Python hook saw every run
    assert (user[0] / "ckpt" / f"model.ckpt-{STEPS}.index").exists()


def test_without_the_options_jhooks_names_them(user):
    javac = sh(user, 'javac -d classes -cp "$(python -m jhooks jvm-options --classpath)" src/java/com/example/*.java')
    assert javac.returncode == 0, javac.stderr
    done = sh(user, f'java -cp "{CLASSPATH}" {APP}')
    assert done.returncode != 0
    first = done.stderr.splitlines()[0]
    assert first.startswith('Exception in thread "main" org.jhooks.bridge.PythonException: jhooks.'), done.stderr
    assert "-Dorg.bytedeco.javacpp.pathsFirst=true" in first and "'python -m jhooks jvm-options'" in first
    assert "UnsatisfiedLinkError" not in done.stderr
