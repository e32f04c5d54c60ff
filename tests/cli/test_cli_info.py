"""``python -m jhooks info``: versions, the JavaCPP cache and the classpath, in a fresh process."""

import os
import subprocess
import sys

from jhooks.bridge import jvm
from jhooks.bridge.classpath import classpath

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_info_prints_versions_cache_and_classpath():
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "jhooks", "info"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    import importlib.metadata

    import jhooks

    jars = classpath()
    assert done.stdout.splitlines() == [
        f"jhooks {jhooks.__version__}, Python {sys.version.split()[0]}",
        f"tensorflow: {jvm.installed_tensorflow()}",
        f"jpype: {importlib.metadata.version('JPype1')}",
        f"tensorflow-java: {jvm.tf_java_version(jars)}",
        f"javacpp cache: {jvm.javacpp_cache_dir(jvm.tensorflow_wheel_dir() is not None)}",
    ] + [f"classpath: {jar}" for jar in jars]
    assert "tensorflow: 2.18.0" in done.stdout and "tensorflow-java: 1.1.0" in done.stdout
