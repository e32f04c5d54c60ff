"""``python -m jhooks info``: versions, the JavaCPP cache and the classpath, in a fresh process."""

import os
import subprocess
import sys

from jhooks.bridge.process import jvm, runtime
from jhooks.bridge.process.classpath import classpath

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_info_prints_versions_cache_and_classpath():
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, "-m", "jhooks", "info"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    import importlib.metadata

    import jhooks

    jars = classpath()
    java = jvm.java_runtime()
    assert java.version.split(".")[0].isdigit() and int(java.version.split(".")[0]) >= 17, java
    assert done.stdout.splitlines() == [
        f"jhooks {jhooks.__version__}, Python {sys.version.split()[0]}",
        f"jhooks-conformance: {importlib.metadata.version('jhooks-conformance')}",  # the other distributions
        f"jhooks-demo: {importlib.metadata.version('jhooks-demo')}",
        f"tensorflow: {runtime.installed_tensorflow()}",
        f"jpype: {importlib.metadata.version('JPype1')}",
        _jep_line(),
        f"java: {java.version} ({java.home})",
        f"tensorflow-java: {runtime.tf_java_version(jars)}",
        "jvm: JVM sessions and Java hooks, sharing Python TensorFlow's runtime (the build tensorflow-java wraps)",
        f"javacpp cache: {runtime.javacpp_cache_dir(runtime.tensorflow_wheel_dir() is not None)}",
    ] + [f"classpath: {jar}" for jar in jars]
    assert "tensorflow: 2.18.0" in done.stdout and "tensorflow-java: 1.1.0" in done.stdout


def _jep_line() -> str:
    import importlib.metadata

    from jhooks.bridge.backend.jep_backend import jep_jar

    try:
        version = importlib.metadata.version("jep")
    except importlib.metadata.PackageNotFoundError:
        return "jep: not installed"
    return f"jep: {version} (jar for a JVM started by java: {jep_jar()})"


def test_version_is_the_one_source_of_truth_for_python_and_the_jar():
    from jhooks.api.version import VERSION
    from jhooks.bridge.process.classpath import jar_version

    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "jhooks", "--version"], env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == f"jhooks {VERSION}\n"
    java = subprocess.run(
        ["java", "-cp", os.pathsep.join(classpath()), "org.jhooks.Version"], capture_output=True, text=True
    )
    assert java.returncode == 0 and java.stdout == f"{VERSION}\n", java.stderr
    assert jar_version(classpath()[0]) == VERSION
    import importlib.metadata

    assert importlib.metadata.version("jhooks") == VERSION


def test_info_says_a_java_home_without_a_jdk_was_passed_over(tmp_path):
    """JPype passes over a JAVA_HOME that holds no JVM (mvn and gradle refuse one): info says so."""
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env["JAVA_HOME"] = str(tmp_path / "jdk-17")
    done = subprocess.run(
        [sys.executable, "-m", "jhooks", "info"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    java = jvm.java_runtime()
    note = f"JAVA_HOME={tmp_path / 'jdk-17'} is not a JDK JPype can use, so it was passed over"
    line = f"java: {java.version} ({java.home}; {note})"
    assert line in done.stdout.splitlines(), done.stdout
