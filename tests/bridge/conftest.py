"""One JVM per pytest process, started by jhooks.bridge.process.jvm (tests needing a fresh process use
subprocess)."""

import os

import pytest

os.environ.setdefault(
    "JHOOKS_JAVACPP_CACHE", os.path.join(os.path.dirname(__file__), "..", "..", "build", "javacpp-cache")
)


HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def compile_test_classes() -> str:
    """Compiles tests/bridge/java (Java hooks used only by these tests) against the jhooks classpath."""
    import glob
    import subprocess

    from jhooks.bridge.process.classpath import classpath

    out = os.path.join(REPO, "build", "bridge-test-classes")
    sources = sorted(glob.glob(os.path.join(HERE, "java", "**", "*.java"), recursive=True))
    done = subprocess.run(
        [
            "javac",
            "-Xlint:all",
            "-Werror",
            "-parameters",
            "-d",
            out,
            "-cp",
            os.pathsep.join(classpath()),
            "--release",
            "17",
            *sources,
        ],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"javac failed on tests/bridge/java:\n{done.stderr}")
    return out


@pytest.fixture(scope="session", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start(extra_classpath=[compile_test_classes()])
    return jvm_module


@pytest.fixture
def java_log():
    """The shared call log of the Java test hooks, emptied before each test."""
    import jpype

    log = jpype.JClass("org.jhooks.bridgetest.RecordingHook").LOG
    log.clear()
    return log
