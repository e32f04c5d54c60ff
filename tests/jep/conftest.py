"""tests/jep: the jep backend, each test a JVM started by plain ``java`` that embeds this
environment's Python (docs/bridge.md, "Backends"). Skipped when jep is not installed (pip install
'jhooks[jep]'; scripts/setup installs it)."""

import dataclasses
import glob
import importlib.util
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

os.environ.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))

if importlib.util.find_spec("jep") is None:
    pytest.skip("jep is not installed (pip install 'jhooks[jep]')", allow_module_level=True)


def _cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "jhooks", "jvm-options", *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.fixture(scope="session")
def jep_jar():
    return _cli("--jep-jar")


@pytest.fixture(scope="session")
def runtime_options():
    return _cli().split()


@pytest.fixture(scope="session")
def test_classes():
    """tests/jep/java compiled against the jhooks classpath (no jep needed to compile)."""
    from jhooks.bridge.process.classpath import classpath

    out = os.path.join(REPO, "build", "jep-test-classes")
    sources = sorted(glob.glob(os.path.join(HERE, "java", "**", "*.java"), recursive=True))
    cp = os.pathsep.join(classpath())
    done = subprocess.run(
        ["javac", "-Xlint:all", "-Werror", "-d", out, "-cp", cp, "--release", "17", *sources],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="session")
def run_java(jep_jar, runtime_options, test_classes):
    """Runs ``java [options] MAIN ARGS`` with the jhooks classpath, the test classes and (unless
    ``jep=False``) jep's jar; tests/jep on PYTHONPATH for the hook modules. Returns the completed process."""
    from jhooks.bridge.process.classpath import classpath

    def command(main, *args, options=None, jep=True):
        cp = [*classpath(), test_classes] + ([jep_jar] if jep else [])
        return ["java", *(runtime_options if options is None else options), "-cp", os.pathsep.join(cp), main, *args]

    def environment(env=None):
        out = {**os.environ, "PYTHONPATH": HERE, **(env or {})}
        out.pop("JHOOKS_CLASSPATH", None)
        return out

    def run(main, *args, options=None, jep=True, timeout=600, env=None):
        return subprocess.run(
            command(main, *args, options=options, jep=jep),
            capture_output=True,
            text=True,
            timeout=timeout,
            env=environment(env),
            cwd=HERE,
        )

    run.command = command
    run.environment = environment
    return run


@dataclasses.dataclass
class Signalled:
    """What :func:`sigterm_when` saw: the stdout lines up to the ready one and after it, the exit
    status, the standard error, and the seconds from SIGTERM to the process's end."""

    before: list[str]
    after: str
    status: int
    err: str
    seconds: float


@pytest.fixture(scope="session")
def sigterm_when():
    """Starts ``command`` (stdout and stderr piped, text), reads its stdout (``ready_on="stderr"``:
    its stderr) until ``ready(line)``, sends SIGTERM and waits (60 s, then kills it). Returns a
    :class:`Signalled` (``after``: the rest of stdout; with ``ready_on="stderr"`` all of it)."""
    import signal
    import time

    def run(command, ready, env, cwd=None, ready_on="stdout"):
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
        seen = []
        try:
            for line in proc.stdout if ready_on == "stdout" else proc.stderr:
                seen.append(line)
                if ready(line):
                    break
            proc.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            out, err = proc.communicate(timeout=60)
            if ready_on == "stderr":
                err = "".join(seen) + err
            seconds = time.monotonic() - signalled
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        return Signalled(seen, out, proc.returncode, err, seconds)

    return run
