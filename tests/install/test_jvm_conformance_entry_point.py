"""The conformance suite from a JVM project's own build, with no Python: the example app
(examples/jvm-app) depends on the published org.jhooks:jhooks and, for its tests,
org.jhooks:jhooks-conformance; its ``gradle test`` and its ``mvn test`` run
``org.jhooks.conformance.ConformanceRunner`` (one JUnit test per scenario) against the app's own
hook and session creator, from a copy outside the checkout, with every ``python*`` program removed
from PATH and no Python variables set (so nothing can start Python or JPype).
"""

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from jhooks.api.version import VERSION
from jhooks.conformance import scenarios

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_REPO = os.path.join(REPO, "build", "repo")
JAVACPP_CACHE = os.path.join(REPO, "build", "javacpp-cache")


def _env_without_python(bin_dir):
    """PATH = one directory of links to every program on PATH except python*; no Python variables."""
    os.makedirs(bin_dir)
    for directory in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(directory) or directory.startswith(os.path.join(REPO, ".venv")):
            continue
        for name in os.listdir(directory):
            target = os.path.join(directory, name)
            link = os.path.join(bin_dir, name)
            if name.startswith("python") or os.path.lexists(link) or not os.access(target, os.X_OK):
                continue
            os.symlink(target, link)
    drop = ("PYTHON", "VIRTUAL_ENV", "JHOOKS_CLASSPATH", "JPY", "PYTEST")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env["PATH"] = bin_dir
    return env


@pytest.fixture(scope="module")
def published():
    done = subprocess.run(
        ["gradle", "-q", "--console=plain", "publish"], cwd=REPO, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return os.path.join(BUILD_REPO, "org", "jhooks", "jhooks-conformance", VERSION)


def _app_without_python(tmp_path, tool):
    app = tmp_path / "jvm-app"
    shutil.copytree(os.path.join(REPO, "examples", "jvm-app"), app, ignore=shutil.ignore_patterns("build", ".gradle"))
    env = _env_without_python(str(tmp_path / "bin"))
    assert shutil.which("python3", path=env["PATH"]) is None and shutil.which("python", path=env["PATH"]) is None
    assert shutil.which(tool, path=env["PATH"]) and shutil.which("java", path=env["PATH"])
    return app, env


def test_the_example_app_runs_the_conformance_suite_in_its_gradle_test_without_python(tmp_path, published):
    app, env = _app_without_python(tmp_path, "gradle")
    done = subprocess.run(
        ["gradle", "-q", "--console=plain", "test", f"-PjhooksRepo={BUILD_REPO}", f"-PjavacppCacheDir={JAVACPP_CACHE}"],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    _check_report(app / "build" / "test-results" / "test" / "TEST-com.example.HooksConformanceTest.xml", done)


@pytest.mark.skipif(shutil.which("mvn") is None, reason="Maven is not installed")
def test_the_example_app_runs_the_conformance_suite_in_its_maven_test_without_python(tmp_path, published):
    app, env = _app_without_python(tmp_path, "mvn")
    local = os.path.join(REPO, "build", "m2-example")  # Maven's downloads, shared with test_maven_artifact
    shutil.rmtree(os.path.join(local, "org", "jhooks"), ignore_errors=True)  # only our own artifacts, re-resolved
    done = subprocess.run(
        [
            "mvn",
            "-B",
            "-q",
            "-Dstyle.color=never",
            f"-Dmaven.repo.local={local}",
            f"-Djhooks.repo=file://{BUILD_REPO}",
            f"-Djavacpp.cachedir={JAVACPP_CACHE}",
            "test",
        ],  # fmt: skip
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    _check_report(app / "target" / "surefire-reports" / "TEST-com.example.HooksConformanceTest.xml", done)


def _check_report(report, done):
    """One test per scenario, named as the pytest and JUnit ids; none failed; few skipped."""
    suite = ET.parse(report).getroot()
    names = scenarios.names()
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert sorted(cases) == sorted(f"{n}[jvm-driver-java-hooks]" for n in names)
    assert (suite.get("failures"), suite.get("errors")) == ("0", "0")
    skipped = [name for name, c in cases.items() if c.find("skipped") is not None]
    assert len(skipped) < 10, skipped  # only the scenarios that fix a hook's language to Python
    assert int(suite.get("tests")) - len(skipped) >= 0.9 * len(names)
    assert "org.jpype" not in done.stdout + done.stderr
