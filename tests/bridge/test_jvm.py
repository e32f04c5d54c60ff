"""JVM start-up: one TensorFlow runtime in either import order, reuse, refusals."""

import os
import subprocess
import sys
import textwrap

import pytest

from jhooks.bridge.process import errors, jvm, runtime
from jhooks.bridge.process.classpath import classpath

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

COUNT_RUNTIMES = """
import os
maps = [l.split()[-1] for l in open('/proc/self/maps') if 'libtensorflow_cc.so.2' in l]
print('RUNTIMES', sorted(set(maps)), len({os.stat(p).st_ino for p in set(maps)}))
"""


def run_python(code, timeout=300):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.mark.parametrize("tensorflow_first", [True, False], ids=["tensorflow-first", "jvm-first"])
def test_either_import_order_gives_one_runtime_used_by_both_languages(tensorflow_first):
    code = (
        ("import tensorflow as tf\n" if tensorflow_first else "")
        + """
from jhooks.bridge.process import errors, jvm, runtime
jvm.start()
jvm.start()
import tensorflow as tf
from org.tensorflow import TensorFlow
from org.tensorflow.types import TFloat32
with TFloat32.scalarOf(3.0) as t:
    java_value = t.getFloat()
print('PY', float(tf.constant(2.0) * 3), 'JAVA', java_value, 'VERSION', TensorFlow.version())
"""
        + COUNT_RUNTIMES
    )
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
    assert cache.endswith("-shared") and cache == runtime.javacpp_cache_dir(True)
    assert runtime.javacpp_cache_dir(False) != cache


def test_default_javacpp_cache_is_the_checkouts_build_dir_or_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.delenv(runtime.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    installed = tmp_path / "site-packages"  # an installed wheel: no build.gradle next to the package
    installed.mkdir()
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "build.gradle").write_text("")
    assert [
        runtime.javacpp_cache_dir(False, installed),
        runtime.javacpp_cache_dir(True, installed),
        runtime.javacpp_cache_dir(False, checkout),
        runtime.javacpp_cache_dir(True, checkout),
    ] == [
        str(tmp_path / "xdg" / "jhooks" / "javacpp-cache"),
        str(tmp_path / "xdg" / "jhooks" / "javacpp-cache-shared"),
        str(checkout / "build" / "javacpp-cache"),
        str(checkout / "build" / "javacpp-cache-shared"),
    ]
    monkeypatch.setenv(runtime.CACHE_ENV, str(tmp_path / "mine"))
    assert runtime.javacpp_cache_dir(True, installed) == str(tmp_path / "mine-shared")


def _python_tf(version, cc_sha="x" * 43, distribution="tensorflow-cpu"):
    build = runtime.TF_JAVA_RUNTIMES["1.1.0"]
    libraries = {name: (sha, size) for name, sha, size in build.libraries}
    libraries["libtensorflow_cc.so.2"] = (cc_sha, libraries["libtensorflow_cc.so.2"][1])
    return runtime.PythonTensorFlow(distribution, version, "/site-packages/tensorflow", libraries)


def test_the_runtime_is_checked_by_build_identity_not_by_version():
    build = runtime.TF_JAVA_RUNTIMES["1.1.0"]
    cc_sha = dict((name, sha) for name, sha, _ in build.libraries)["libtensorflow_cc.so.2"]
    assert runtime.runtime_problem(_python_tf("2.18.0", cc_sha), "1.1.0", []) is None
    other = runtime.runtime_problem(_python_tf("2.17.1"), "1.1.0", [])
    assert isinstance(other, errors.TensorFlowVersionError)
    assert str(other).startswith(
        "Python TensorFlow 2.17.1 (tensorflow-cpu) is not the TensorFlow build tensorflow-java 1.1.0 wraps "
        "(tensorflow-cpu 2.18.0); one process can hold only one TensorFlow runtime. Install tensorflow-cpu==2.18.0"
    )
    same_version = runtime.runtime_problem(_python_tf("2.18.0", distribution="tensorflow"), "1.1.0", [])
    assert str(same_version).startswith(
        "Python TensorFlow 2.18.0 (tensorflow, libtensorflow_cc.so.2 sha256 xxxxxxxxxxxx…) is not the TensorFlow "
        f"build tensorflow-java 1.1.0 wraps (tensorflow-cpu 2.18.0, libtensorflow_cc.so.2 sha256 {cc_sha[:12]}…)"
    )
    unknown = runtime.runtime_problem(_python_tf("2.18.0", cc_sha), "0.9.0", [])
    assert str(unknown).startswith("tensorflow-java 0.9.0 is not known to jhooks")


def test_without_python_tensorflow_the_jvm_needs_tensorflow_javas_native_jar(tmp_path):
    jars = classpath()
    assert runtime.runtime_problem(None, "1.1.0", jars) is None  # the checkout's classpath has the native jar
    without = [j for j in jars if not j.endswith("-linux-x86_64.jar")]
    problem = runtime.runtime_problem(None, "1.1.0", without)
    assert isinstance(problem, errors.TensorFlowRuntimeError)
    assert str(problem) == (
        "no TensorFlow runtime is installed for the JVM: no Python TensorFlow, and tensorflow-java 1.1.0's native "
        "jar is not on the classpath. Install tensorflow-cpu==2.18.0 (pip install 'jhooks[tf]'), or add "
        "org.tensorflow:tensorflow-core-native:1.1.0:linux-x86_64's jar to JHOOKS_CLASSPATH with the jhooks jars"
    )


def test_the_installed_tensorflow_is_identified_from_its_record_without_importing_it():
    installed = runtime.python_tensorflow()
    assert installed.distribution == "tensorflow-cpu" and installed.version == runtime.installed_tensorflow()
    build = runtime.TF_JAVA_RUNTIMES["1.1.0"]
    assert installed.libraries == {name: (sha, size) for name, sha, size in build.libraries}
    assert runtime.runtime_problem(installed, "1.1.0", classpath()) is None


def test_the_wrapped_build_is_byte_for_byte_the_native_jars_runtime():
    """TF_JAVA_RUNTIMES holds the SHA-256 and size of the libraries in tensorflow-java's native jar."""
    import base64
    import hashlib
    import zipfile

    native = [j for j in classpath() if j.endswith("tensorflow-core-native-1.1.0-linux-x86_64.jar")]
    assert len(native) == 1
    found = []
    with zipfile.ZipFile(native[0]) as z:
        for name, _, _ in runtime.TF_JAVA_RUNTIMES["1.1.0"].libraries:
            digest = hashlib.sha256()
            with z.open("org/tensorflow/internal/c_api/linux-x86_64/" + name) as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
            sha = base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()
            found.append((name, sha, z.getinfo("org/tensorflow/internal/c_api/linux-x86_64/" + name).file_size))
    assert tuple(found) == runtime.TF_JAVA_RUNTIMES["1.1.0"].libraries


def test_a_mismatch_stops_a_jvm_session_before_the_jvm_starts_and_starts_hooks_only():
    done = run_python("""
import jpype
from jhooks.bridge.process import errors, jvm, runtime
real = runtime.python_tensorflow()
runtime.python_tensorflow = lambda: runtime.PythonTensorFlow('tensorflow-cpu', '2.17.1', real.directory,
                                                     dict.fromkeys(real.libraries, ('other', 1)))
try:
    jvm.start(natives=True)
except errors.TensorFlowVersionError as e:
    print('REFUSED', e)
print('STARTED', jpype.isJVMStarted())
jvm.start()
print('MODE', jvm.mode(), jpype.JClass('java.lang.System').getProperty('org.bytedeco.javacpp.loadLibraries'))
""")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "REFUSED Python TensorFlow 2.17.1 (tensorflow-cpu) is not the TensorFlow build" in done.stdout
    assert "STARTED False" in done.stdout
    assert "MODE hooks-only false" in done.stdout


def test_the_detected_tensorflow_java_version_comes_from_the_classpath():
    assert runtime.tf_java_version(["/x/tensorflow-core-api-1.0.0.jar"]) == "1.0.0"
    assert runtime.tf_java_version(["/x/other.jar"]) == runtime.DEFAULT_TF_JAVA


def test_a_jvm_started_elsewhere_without_the_jar_is_a_clear_error():
    done = run_python("""
import jpype
jpype.startJVM(convertStrings=False)
from jhooks.bridge.process import errors, jvm, runtime
try:
    jvm.start()
except errors.JvmError as e:
    print('ERROR', e)
""")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ERROR a JVM is already running without the jhooks jar (org.jhooks.Hook not found)" in done.stdout
