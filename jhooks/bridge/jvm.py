"""The one JVM of this process, started with one TensorFlow runtime shared with Python.

``start()`` starts the JVM (or reuses a running one) with the jhooks classpath and loads the
TensorFlow natives up front. When the installed Python TensorFlow wheel ships
``libtensorflow_cc.so.2``, tensorflow-java is pointed at the wheel's own libraries
(``org.bytedeco.javacpp.pathsFirst`` + ``platform.linkpath``), so the process holds exactly one
TensorFlow runtime whichever side loads first; two copies abort the process (protobuf "File
already exists in database"). See docs/bridge.md, "Start-up and the runtime rule".

Nothing here ever shuts the JVM down: JPype cannot restart it, so closing a session must not.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import logging
import os
import re
import sys
import threading
from pathlib import Path
from typing import List, Optional, Sequence

from jhooks.bridge import threads
from jhooks.bridge.classpath import classpath

log = logging.getLogger(__name__)

# tensorflow-java release -> the TensorFlow release whose runtime it wraps.
TF_JAVA_RUNTIMES = {"1.0.0": "2.16.2", "1.1.0": "2.18.0"}
DEFAULT_TF_JAVA = "1.1.0"
MARKER_CLASS = "org.jhooks.Hook"
CACHE_ENV = "JHOOKS_JAVACPP_CACHE"
_REPO = Path(__file__).resolve().parent.parent.parent

_lock = threading.Lock()


class JvmError(RuntimeError):
    """The JVM cannot be used by jhooks: wrong classpath, wrong TensorFlow, or a conflicting runtime."""


class TensorFlowVersionError(JvmError):
    """The installed Python TensorFlow is not the release tensorflow-java wraps."""


def tf_java_version(jars: Sequence[str]) -> str:
    """The tensorflow-java version on ``jars`` (from ``tensorflow-core-api-X.jar``), or the default."""
    for jar in jars:
        m = re.search(r"tensorflow-core-api-(\d+\.\d+\.\d+)\.jar$", jar)
        if m:
            return m.group(1)
    return DEFAULT_TF_JAVA


def installed_tensorflow() -> Optional[str]:
    """The version of the installed Python TensorFlow distribution, or None; never imports it."""
    for dist in ("tensorflow-cpu", "tensorflow", "tensorflow-intel"):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def check_tensorflow_version(installed: Optional[str], tf_java: str) -> None:
    """Raises TensorFlowVersionError unless ``installed`` is the TensorFlow that ``tf_java`` wraps.

    ``installed`` None (no Python TensorFlow) passes: tensorflow-java then uses its own natives.
    """
    if installed is None:
        return
    expected = TF_JAVA_RUNTIMES.get(tf_java)
    if expected is None:
        raise TensorFlowVersionError(
            f"tensorflow-java {tf_java} is not known to jhooks (known: {sorted(TF_JAVA_RUNTIMES)})")
    if installed != expected:
        raise TensorFlowVersionError(
            f"Python TensorFlow {installed} is installed but tensorflow-java {tf_java} wraps TensorFlow "
            f"{expected}; one process can hold only one TensorFlow runtime. Install "
            f"tensorflow-cpu=={expected} (pip install 'jhooks[tf]') or use the matching tensorflow-java.")


def tensorflow_wheel_dir() -> Optional[str]:
    """The installed tensorflow package dir if it ships ``libtensorflow_cc.so.2``; never imports it."""
    spec = importlib.util.find_spec("tensorflow") if "tensorflow" not in sys.modules else sys.modules[
        "tensorflow"].__spec__
    if spec is None or not spec.origin:
        return None
    tfdir = os.path.dirname(spec.origin)
    return tfdir if os.path.exists(os.path.join(tfdir, "libtensorflow_cc.so.2")) else None


def javacpp_cache_dir(shared_runtime: bool, checkout: Path = _REPO) -> str:
    """The JavaCPP cache: ``$JHOOKS_JAVACPP_CACHE``; else ``build/javacpp-cache`` in a checkout
    (``checkout`` holds ``build.gradle``), or ``$XDG_CACHE_HOME/jhooks/javacpp-cache`` (default
    ``~/.cache``) for an installed wheel, never a ``build`` dir inside site-packages. Suffixed
    ``-shared`` in the shared-runtime mode (the two modes must never share a cache dir)."""
    base = os.environ.get(CACHE_ENV)
    if not base and (checkout / "build.gradle").exists():
        base = str(checkout / "build" / "javacpp-cache")
    if not base:
        cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(cache_home, "jhooks", "javacpp-cache")
    return base + "-shared" if shared_runtime else base


def jvm_args(tfdir: Optional[str]) -> List[str]:
    """The ``-D`` options for the runtime rule; ``tfdir`` None means tensorflow-java's own natives."""
    if tfdir is None:
        return [f"-Dorg.bytedeco.javacpp.cachedir={javacpp_cache_dir(False)}"]
    return [
        "-Dorg.bytedeco.javacpp.pathsFirst=true",
        f"-Dorg.bytedeco.javacpp.platform.linkpath={tfdir}",
        f"-Dorg.bytedeco.javacpp.cachedir={javacpp_cache_dir(True)}",
    ]


def start(extra_classpath: Sequence[str] = ()) -> None:
    """Starts the JVM for jhooks, or checks the running one. Safe to call any number of times.

    ``extra_classpath`` (jars or class dirs) is appended; on a running JVM it goes to JPype's
    dynamic class loader.

    Raises TensorFlowVersionError (before starting anything) when the installed Python TensorFlow
    is not the one tensorflow-java wraps, JvmError when a JVM started elsewhere lacks the jhooks
    jar, and jhooks.bridge.classpath.ClasspathError when the jar is not built.
    """
    import jpype

    with _lock:
        if jpype.isJVMStarted():
            _check_running(jpype)
            threads.install_exit_guard()
            extend_classpath(extra_classpath)
            return
        jars = classpath()
        tf_java = tf_java_version(jars)
        check_tensorflow_version(installed_tensorflow(), tf_java)
        tfdir = tensorflow_wheel_dir()
        args = jvm_args(tfdir)
        jpype.startJVM(*args, classpath=list(jars) + list(extra_classpath), convertStrings=False)
        import jpype.imports  # noqa: F401  (enables `from org... import`)
        _load_natives(jpype)
        threads.install_exit_guard()
        log.debug("JVM started: tensorflow-java %s, runtime from %s", tf_java, tfdir or "tensorflow-java")


def _load_natives(jpype) -> str:
    return str(jpype.JClass("org.tensorflow.TensorFlow").version())


def _check_running(jpype) -> None:
    try:
        jpype.JClass(MARKER_CLASS)
    except Exception as e:
        raise JvmError(
            f"a JVM is already running without the jhooks jar ({MARKER_CLASS} not found); JPype cannot "
            "restart it. Call jhooks.bridge.jvm.start() before anything else starts the JVM, or start it "
            "with classpath=jhooks.bridge.classpath.classpath()") from e
    import jpype.imports  # noqa: F401

    system = jpype.JClass("java.lang.System")
    recipe = system.getProperty("org.bytedeco.javacpp.pathsFirst") is not None
    if not recipe and tensorflow_wheel_dir() is not None and "tensorflow" in sys.modules:
        raise JvmError(
            "the running JVM was started without the shared-runtime options and Python TensorFlow is already "
            "imported: loading tensorflow-java's natives now would put a second TensorFlow runtime in this "
            "process and abort it. Start the JVM with jhooks.bridge.jvm.start()")
    _load_natives(jpype)


def extend_classpath(jars: Sequence[str]) -> None:
    """Adds jars or class dirs to the running JVM's classpath (JPype's dynamic class loader, which
    ``jpype.JClass`` uses)."""
    import jpype

    for jar in jars:
        jpype.addClassPath(os.path.abspath(jar))
