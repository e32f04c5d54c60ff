"""JVM start-up: one TensorFlow runtime in either import order, reuse, refusals."""

import os
import subprocess
import sys
import textwrap

import pytest

from jhooks.bridge import jvm

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

COUNT_RUNTIMES = """
import os
maps = [l.split()[-1] for l in open('/proc/self/maps') if 'libtensorflow_cc.so.2' in l]
print('RUNTIMES', sorted(set(maps)), len({os.stat(p).st_ino for p in set(maps)}))
"""


def run_python(code, timeout=300):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.mark.parametrize("tensorflow_first", [True, False], ids=["tensorflow-first", "jvm-first"])
def test_either_import_order_gives_one_runtime_used_by_both_languages(tensorflow_first):
    code = ("import tensorflow as tf\n" if tensorflow_first else "") + """
from jhooks.bridge import jvm
jvm.start()
jvm.start()
import tensorflow as tf
from org.tensorflow import TensorFlow
from org.tensorflow.types import TFloat32
with TFloat32.scalarOf(3.0) as t:
    java_value = t.getFloat()
print('PY', float(tf.constant(2.0) * 3), 'JAVA', java_value, 'VERSION', TensorFlow.version())
""" + COUNT_RUNTIMES
    done = run_python(code)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "PY 6.0 JAVA 3.0 VERSION 2.18.0" in done.stdout
    runtimes = [line for line in done.stdout.splitlines() if line.startswith("RUNTIMES")][0]
    assert runtimes.endswith(" 1"), runtimes
    assert "site-packages/tensorflow/libtensorflow_cc.so.2" in runtimes


def test_start_is_idempotent_and_reuses_the_running_jvm():
    import jpype

    before = jpype.JClass("java.lang.System").identityHashCode(jpype.JClass("java.lang.System"))
    jvm.start()
    assert jpype.isJVMStarted()
    assert jpype.JClass("java.lang.System").identityHashCode(jpype.JClass("java.lang.System")) == before


def test_shared_runtime_mode_uses_its_own_javacpp_cache():
    import jpype

    System = jpype.JClass("java.lang.System")
    assert str(System.getProperty("org.bytedeco.javacpp.pathsFirst")) == "true"
    cache = str(System.getProperty("org.bytedeco.javacpp.cachedir"))
    assert cache.endswith("-shared") and cache == jvm.javacpp_cache_dir(True)
    assert jvm.javacpp_cache_dir(False) != cache


def test_default_javacpp_cache_is_the_checkouts_build_dir_or_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.delenv(jvm.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    installed = tmp_path / "site-packages"  # an installed wheel: no build.gradle next to the package
    installed.mkdir()
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "build.gradle").write_text("")
    assert [jvm.javacpp_cache_dir(False, installed), jvm.javacpp_cache_dir(True, installed),
            jvm.javacpp_cache_dir(False, checkout), jvm.javacpp_cache_dir(True, checkout)] == [
        str(tmp_path / "xdg" / "jhooks" / "javacpp-cache"), str(tmp_path / "xdg" / "jhooks" / "javacpp-cache-shared"),
        str(checkout / "build" / "javacpp-cache"), str(checkout / "build" / "javacpp-cache-shared")]
    monkeypatch.setenv(jvm.CACHE_ENV, str(tmp_path / "mine"))
    assert jvm.javacpp_cache_dir(True, installed) == str(tmp_path / "mine-shared")


def test_a_version_mismatch_is_refused_naming_both_versions():
    with pytest.raises(jvm.TensorFlowVersionError) as e:
        jvm.check_tensorflow_version("2.17.1", "1.1.0")
    assert "2.17.1" in str(e.value) and "2.18.0" in str(e.value) and "1.1.0" in str(e.value)
    jvm.check_tensorflow_version("2.18.0", "1.1.0")
    jvm.check_tensorflow_version(None, "1.1.0")


def test_a_mismatch_stops_start_before_the_jvm_starts():
    done = run_python("""
import jpype
from jhooks.bridge import jvm
jvm.installed_tensorflow = lambda: '2.17.1'
try:
    jvm.start()
except jvm.TensorFlowVersionError as e:
    print('REFUSED', e)
print('STARTED', jpype.isJVMStarted())
""")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "REFUSED Python TensorFlow 2.17.1" in done.stdout and "2.18.0" in done.stdout
    assert "STARTED False" in done.stdout


def test_the_detected_tensorflow_java_version_comes_from_the_classpath():
    assert jvm.tf_java_version(["/x/tensorflow-core-api-1.0.0.jar"]) == "1.0.0"
    assert jvm.tf_java_version(["/x/other.jar"]) == jvm.DEFAULT_TF_JAVA


def test_a_jvm_started_elsewhere_without_the_jar_is_a_clear_error():
    done = run_python("""
import jpype
jpype.startJVM(convertStrings=False)
from jhooks.bridge import jvm
try:
    jvm.start()
except jvm.JvmError as e:
    print('ERROR', e)
""")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ERROR a JVM is already running without the jhooks jar (org.jhooks.Hook not found)" in done.stdout
