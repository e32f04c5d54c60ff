"""The TensorFlow runtime rule: which TensorFlow runtime the JVM may load in this process.

Python's TensorFlow and tensorflow-java can share one process only when they share one runtime: the
installed Python TensorFlow must be the very build tensorflow-java wraps (:data:`TF_JAVA_RUNTIMES`,
compared by the libraries' SHA-256 and size, not by a version string), or there is no Python
TensorFlow and tensorflow-java's own runtime is on the classpath. :func:`runtime_problem` says why
not, as the error to raise; :func:`jvm_args` gives the JVM options that point tensorflow-java at
the Python wheel's libraries (docs/bridge.md, "Start-up and the runtime rule"). Nothing here
starts or asks the JVM; :mod:`jhooks.bridge.process.jvm` applies the rule.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import importlib.util
import os
import re
import sys
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from jhooks.bridge.process.classpath import ENV_VAR
from jhooks.bridge.process.errors import TensorFlowRuntimeError, TensorFlowVersionError


@dataclass(frozen=True)
class RuntimeBuild:
    """A TensorFlow runtime build: its release, the wheel it comes from, and each library's SHA-256
    (urlsafe base64 without padding, as a wheel's RECORD writes it) and size in bytes."""

    release: str
    distribution: str
    libraries: tuple[tuple[str, str, int], ...]


# tensorflow-java release -> the TensorFlow build its linux-x86_64 native jar repackages: byte for
# byte the libraries of the tensorflow-cpu 2.18.0 wheels (the same in the cp310, cp311 and cp312
# wheels). tests/bridge/test_jvm.py checks these against the native jar.
TF_JAVA_RUNTIMES = {
    "1.1.0": RuntimeBuild(
        "2.18.0",
        "tensorflow-cpu",
        (
            ("libtensorflow_cc.so.2", "nRcK17VEeY6Snhl6u0-BdryMbRz8iL0THL1bE9RA0l8", 632604616),
            ("libtensorflow_framework.so.2", "BenG_zd_5uK9HDgAEu8fXWnkanoPNj11PaU-ezmM_E0", 49821432),
        ),
    ),
}
DEFAULT_TF_JAVA = "1.1.0"
CACHE_ENV = "JHOOKS_JAVACPP_CACHE"
LOAD_LIBRARIES = "org.bytedeco.javacpp.loadLibraries"
NATIVE_RESOURCE = "org/tensorflow/internal/c_api/linux-x86_64/libtensorflow_cc.so.2"
_DISTRIBUTIONS = ("tensorflow-cpu", "tensorflow", "tensorflow-intel")
_REPO = Path(__file__).resolve().parents[3]  # a checkout, when jhooks runs from one


@dataclass(frozen=True)
class PythonTensorFlow:
    """The installed Python TensorFlow, found without importing it: the distribution and version
    from its metadata (None when it has none), its package directory, and per library of
    :class:`RuntimeBuild` its (sha256, size), or None when the package has no such file."""

    distribution: str | None
    version: str | None
    directory: str
    libraries: dict[str, tuple[str, int] | None]


def tf_java_version(jars: Sequence[str]) -> str:
    """The tensorflow-java version on ``jars`` (from ``tensorflow-core-api-X.jar``), or the default."""
    for jar in jars:
        m = re.search(r"tensorflow-core-api-(\d+\.\d+\.\d+)\.jar$", jar)
        if m:
            return m.group(1)
    return DEFAULT_TF_JAVA


def installed_tensorflow() -> str | None:
    """The version of the installed Python TensorFlow distribution, or None; never imports it."""
    for dist in _DISTRIBUTIONS:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def tensorflow_package_dir() -> str | None:
    """The directory of the ``tensorflow`` package Python would import, or None; never imports it."""
    module = sys.modules.get("tensorflow")
    spec = module.__spec__ if module is not None else importlib.util.find_spec("tensorflow")
    if spec is None or not spec.origin:
        return None
    return os.path.dirname(spec.origin)


def tensorflow_wheel_dir() -> str | None:
    """The installed tensorflow package dir if it ships ``libtensorflow_cc.so.2``; never imports it."""
    tfdir = tensorflow_package_dir()
    return tfdir if tfdir and os.path.exists(os.path.join(tfdir, "libtensorflow_cc.so.2")) else None


def _file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()


def _recorded(directory: str) -> tuple[str | None, str | None, dict[str, tuple[str, int]]]:
    """(distribution, version, {file: (sha256, size)}) from the RECORD of the distribution that
    installed ``directory``'s files; (None, None, {}) when no metadata covers them."""
    for name in _DISTRIBUTIONS:
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        entries = {}
        for line in (dist.read_text("RECORD") or "").splitlines():  # a text scan: RECORD has ~20k lines
            if not line.startswith("tensorflow/lib"):
                continue
            path, digest, size = line.rsplit(",", 2)
            file = path[len("tensorflow/") :]
            if "/" not in file and digest.startswith("sha256=") and size.isdigit():
                entries[file] = (digest[len("sha256=") :], int(size))
        if entries and os.path.realpath(str(dist.locate_file("tensorflow"))) == os.path.realpath(directory):
            return name, dist.version, entries
    return None, None, {}


def python_tensorflow() -> PythonTensorFlow | None:
    """The installed Python TensorFlow (see :class:`PythonTensorFlow`), or None; never imports it.

    Library identities come from the wheel's RECORD when the file on disk has the recorded size,
    else from hashing the file (a few seconds for the 630 MB runtime)."""
    directory = tensorflow_package_dir()
    if directory is None:
        return None
    distribution, version, recorded = _recorded(directory)
    names = {name for build in TF_JAVA_RUNTIMES.values() for name, _, _ in build.libraries}
    libraries: dict[str, tuple[str, int] | None] = {}
    for name in sorted(names):
        path = os.path.join(directory, name)
        if not os.path.exists(path):
            libraries[name] = None
            continue
        size = os.path.getsize(path)
        entry = recorded.get(name)
        libraries[name] = entry if entry is not None and entry[1] == size else (_file_sha256(path), size)
    return PythonTensorFlow(distribution, version, directory, libraries)


def bundles_runtime(jars: Sequence[str]) -> bool:
    """Whether one of ``jars`` holds tensorflow-java's own linux-x86_64 runtime (the native jar)."""
    for jar in jars:
        if not (jar.endswith(".jar") and os.path.isfile(jar)):
            continue
        try:
            with zipfile.ZipFile(jar) as z:
                z.getinfo(NATIVE_RESOURCE)
                return True
        except (KeyError, OSError, zipfile.BadZipFile):
            continue
    return False


def _short(sha256: str) -> str:
    return sha256[:12] + "…"


def runtime_problem(
    python_tf: PythonTensorFlow | None, tf_java: str, jars: Sequence[str]
) -> TensorFlowVersionError | TensorFlowRuntimeError | None:
    """Why tensorflow-java ``tf_java``'s natives cannot be loaded safely in this process, as the
    error ``jhooks.bridge.process.jvm.start`` raises for ``natives=True``; None when they can
    (``python_tf`` is exactly the build it wraps, or absent while ``jars`` bundle tensorflow-java's
    own runtime)."""
    build = TF_JAVA_RUNTIMES.get(tf_java)
    if build is None:
        return TensorFlowVersionError(
            f"tensorflow-java {tf_java} is not known to jhooks (known: {sorted(TF_JAVA_RUNTIMES)})",
            "Use the tensorflow-java release the jhooks jar was built with",
        )
    wanted = f"{build.distribution}=={build.release}"
    if python_tf is None:
        if bundles_runtime(jars):
            return None
        return TensorFlowRuntimeError(
            f"no TensorFlow runtime is installed for the JVM: no Python TensorFlow, and tensorflow-java "
            f"{tf_java}'s native jar is not on the classpath",
            f"Install {wanted} (pip install 'jhooks[tf]'), or add "
            f"org.tensorflow:tensorflow-core-native:{tf_java}:linux-x86_64's jar to {ENV_VAR} with the jhooks jars",
        )
    if all(python_tf.libraries.get(name) == (sha, size) for name, sha, size in build.libraries):
        return None
    have = python_tf.distribution or python_tf.directory
    wraps = f"{build.distribution} {build.release}"
    if python_tf.version == build.release:
        cc = python_tf.libraries.get("libtensorflow_cc.so.2")
        cc_want = next(sha for name, sha, _ in build.libraries if name == "libtensorflow_cc.so.2")
        have += f", libtensorflow_cc.so.2 {'missing' if cc is None else 'sha256 ' + _short(cc[0])}"
        wraps += f", libtensorflow_cc.so.2 sha256 {_short(cc_want)}"
    have = f"Python TensorFlow {python_tf.version or '(no metadata)'} ({have})"
    return TensorFlowVersionError(
        f"{have} is not the TensorFlow build tensorflow-java {tf_java} wraps ({wraps}); one process can hold "
        "only one TensorFlow runtime",
        f"Install {wanted} (pip install 'jhooks[tf]') to use TensorFlow from Java in this process (JVM sessions, "
        "the launcher, org.jhooks.tf, Java hooks that run TensorFlow ops such as AsyncCheckpointSaverHook); Java "
        "hooks that use no TensorFlow natives run with any TensorFlow 2.x",
    )


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


def jvm_args(tfdir: str | None) -> list[str]:
    """The ``-D`` options for the runtime rule; ``tfdir`` None means tensorflow-java's own natives."""
    if tfdir is None:
        return [f"-Dorg.bytedeco.javacpp.cachedir={javacpp_cache_dir(False)}"]
    return [
        "-Dorg.bytedeco.javacpp.pathsFirst=true",
        f"-Dorg.bytedeco.javacpp.platform.linkpath={tfdir}",
        f"-Dorg.bytedeco.javacpp.cachedir={javacpp_cache_dir(True)}",
    ]
