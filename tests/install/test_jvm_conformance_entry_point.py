"""The conformance suite from a JVM project's own build, with no Python: the example app
(examples/jvm-app) depends on the published org.jhooks:jhooks and, for its tests,
org.jhooks:jhooks-conformance; its ``gradle test`` and its ``mvn test`` run
``org.jhooks.conformance.ConformanceRunner`` (one JUnit test per scenario) against the app's own
hook and session creator, from a copy outside the checkout, with every ``python*`` program removed
from PATH and no Python variables set (so nothing can start Python or JPype). The Java examples of
docs/conformance.md run the same way, on the two published jars and their dependencies.
"""

import glob
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from jhooks.api.version import VERSION
from jhooks.bridge.process import classpath
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
    # the suite's log records (each save, the recovery scenarios' warnings) go to the report's
    # output file, not the console (it was about 570 lines, stack traces included)
    output = (app / "target" / "surefire-reports" / "com.example.HooksConformanceTest-output.txt").read_text()
    assert "I org.jhooks.hooks.AsyncCheckpointSaverHook: Saving checkpoints" in output
    assert "org.jhooks" not in done.stdout + done.stderr, done.stdout[-3000:]


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


# Runs the named scenarios of a ConformanceRunner test class (a JUnit filter on the case ids
# <scenario>[<combo>]), as a build tool would run the whole class; exit 1 when one failed.
RUN_SCENARIOS = """
import java.util.List;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

public final class RunScenarios {
  public static void main(String[] args) throws Exception {
    List<String> names = List.of(args).subList(1, args.length);
    Filter some =
        new Filter() {
          @Override
          public boolean shouldRun(Description d) {
            return !d.isTest() || names.stream().anyMatch(n -> d.getMethodName().startsWith(n + "["));
          }

          @Override
          public String describe() {
            return "scenarios " + names;
          }
        };
    JUnitCore core = new JUnitCore();
    core.addListener(
        new RunListener() {
          @Override
          public void testFinished(Description d) {
            System.out.println("ran " + d.getMethodName());
          }
        });
    Result r = core.run(Request.aClass(Class.forName(args[0])).filterWith(some));
    for (Failure f : r.getFailures()) {
      System.out.println("FAILED " + f.getTestHeader() + ": " + f.getMessage());
    }
    System.out.println(r.getRunCount() + " run, " + r.getFailureCount() + " failed");
    System.exit(r.wasSuccessful() ? 0 : 1);
  }
}
"""

# docs/conformance.md's JVM driver, checked as its text says: ConformanceOptions.builder().driver(...)
DRIVER_TEST = """
import org.jhooks.conformance.ConformanceOptions;
import org.jhooks.conformance.ConformanceRunner;
import org.junit.runner.RunWith;

@RunWith(ConformanceRunner.class)
public class MyDriverConformanceTest {
  public static ConformanceOptions options() {
    return ConformanceOptions.builder().driver(new MyDriver()).build();
  }
}
"""

SOME = ["normal_end_hook_order", "end_of_input", "on_error_each_hook_once", "run_without_hooks_recovers"]


def _java_blocks(document):
    with open(os.path.join(REPO, "docs", document), encoding="utf-8") as f:
        return re.findall(r"^```java\n(.*?)^```$", f.read(), re.S | re.M)


def _junit_jars():
    """JUnit 4 and Hamcrest from Gradle's cache (the jhooks build compiles against them), as the
    user's test build brings them: jhooks-conformance does not depend on JUnit."""
    cache = os.path.join(os.environ.get("GRADLE_USER_HOME", os.path.expanduser("~/.gradle")), "caches")
    found = []
    for pattern in ("junit/junit/4.13.2/*/junit-4.13.2.jar", "org.hamcrest/hamcrest-core/1.3/*/hamcrest-core-1.3.jar"):
        jars = sorted(glob.glob(os.path.join(cache, "modules-2", "files-2.1", pattern)))
        assert jars, f"{pattern} is not in Gradle's cache {cache}: run gradle assemble first"
        found.append(jars[0])
    return found


def test_the_java_examples_of_the_conformance_docs_run_on_the_published_artifacts(tmp_path, published):
    """Both Java blocks as written (the JUnit test class of a user's hook, a JVM driver of one's own),
    compiled against the published org.jhooks:jhooks and org.jhooks:jhooks-conformance jars, their
    dependencies and JUnit (no demo or bench jar, no class directory of the checkout), and run
    without Python on a few scenarios each."""
    jars = [
        os.path.join(BUILD_REPO, "org", "jhooks", "jhooks", VERSION, f"jhooks-{VERSION}.jar"),
        os.path.join(published, f"jhooks-conformance-{VERSION}.jar"),
    ]
    dependencies = [j for j in classpath.classpath() if not os.path.basename(j).startswith("jhooks-")]
    path = os.pathsep.join([str(tmp_path / "classes"), *jars, *dependencies, *_junit_jars()])
    (tmp_path / "classes").mkdir()
    sources = []
    for text in [*_java_blocks("conformance.md"), DRIVER_TEST, RUN_SCENARIOS]:
        name = re.search(r"^public (?:final )?class (\w+)", text, re.M).group(1)
        sources.append(tmp_path / f"{name}.java")
        sources[-1].write_text(text)
    assert [s.name for s in sources[:2]] == ["MyHooksConformanceTest.java", "MyDriver.java"]
    compiled = subprocess.run(
        ["javac", "-Xlint:all", "-Werror", "-d", str(tmp_path / "classes"), "-cp", path, *map(str, sources)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    env = _env_without_python(str(tmp_path / "bin"))
    for test_class, combo in (
        ("MyHooksConformanceTest", "jvm-driver-java-hooks"),
        ("MyDriverConformanceTest", "mine-driver-java-hooks"),
    ):
        done = subprocess.run(
            [
                "java",
                f"-Dorg.bytedeco.javacpp.cachedir={JAVACPP_CACHE}",
                "-cp",
                path,
                "RunScenarios",
                test_class,
                *SOME,
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-5000:]
        assert f"{len(SOME)} run, 0 failed" in done.stdout, done.stdout
        ran = sorted(line[4:] for line in done.stdout.splitlines() if line.startswith("ran "))
        assert ran == sorted(f"{n}[{combo}]" for n in SOME)
        assert "org.jpype" not in done.stdout + done.stderr
