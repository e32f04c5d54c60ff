"""The one JVM of this process, and the TensorFlow runtime it may use.

Two ways to start it, chosen by what is asked for (docs/bridge.md, "Start-up and the runtime rule"):

- ``start()``: for Java hooks in a Python session and Python hooks handed to Java, which need no
  TensorFlow natives. The natives are still loaded when that is safe: the installed Python
  TensorFlow is the very build tensorflow-java wraps (:data:`TF_JAVA_RUNTIMES`, compared by the
  libraries' SHA-256 and size, not by a version string), or there is no Python TensorFlow and
  tensorflow-java's own runtime is on the classpath. Otherwise the JVM starts **hooks-only**:
  JavaCPP's ``loadLibraries=false`` keeps every native library out, so any TensorFlow 2.x (or
  none) may be in Python, and a Java hook that reaches TensorFlow natives fails with
  :class:`TensorFlowRuntimeError` naming it, never a crash.
- ``start(natives=True)``: for JVM sessions, the launcher and anything in ``org.jhooks.tf``. The
  natives must load, from one runtime shared with Python: when the Python TensorFlow wheel ships
  ``libtensorflow_cc.so.2`` tensorflow-java is pointed at the wheel's own libraries
  (``org.bytedeco.javacpp.pathsFirst`` + ``platform.linkpath``), whichever side loads first; two
  copies abort the process (protobuf "File already exists in database"). Refused before anything
  starts, with :class:`TensorFlowVersionError` (another Python TensorFlow build) or
  :class:`TensorFlowRuntimeError` (no runtime at all, saying what to install).

A hooks-only JVM exists only when the natives cannot be loaded safely in this process, which cannot
change while it runs, and JPype cannot restart a JVM: a later ``start(natives=True)`` gets the same
refusal. Once started, Java log records go to Python ``logging`` (jhooks.bridge.console,
docs/logging.md). Nothing here ever shuts the JVM down.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import importlib.metadata
import importlib.util
import logging
import os
import re
import sys
import threading
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jhooks.bridge import console, signals, threads
from jhooks.bridge.classpath import ENV_VAR, classpath

log = logging.getLogger(__name__)


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
MARKER_CLASS = "org.jhooks.Hook"
CACHE_ENV = "JHOOKS_JAVACPP_CACHE"
LOAD_LIBRARIES = "org.bytedeco.javacpp.loadLibraries"
NATIVE_RESOURCE = "org/tensorflow/internal/c_api/linux-x86_64/libtensorflow_cc.so.2"
_DISTRIBUTIONS = ("tensorflow-cpu", "tensorflow", "tensorflow-intel")
_REPO = Path(__file__).resolve().parent.parent.parent

# What the running JVM can do; see mode().
SHARED_RUNTIME = "shared-runtime"
OWN_RUNTIME = "own-runtime"
HOOKS_ONLY = "hooks-only"

_lock = threading.Lock()
_mode: str | None = None
_hooks_only_because: TensorFlowVersionError | TensorFlowRuntimeError | None = None


class JvmError(RuntimeError):
    """The JVM cannot be used by jhooks: wrong classpath, wrong TensorFlow, or a conflicting runtime."""


class JavaClassNotFoundError(TypeError):
    """A Java class name that no jar or directory on the JVM's classpath has; the message names the
    class and the classpath searched. A TypeError, as JPype's own lookup failure."""


class TensorFlowVersionError(JvmError):
    """The installed Python TensorFlow is not the build tensorflow-java wraps, so the two cannot share
    one runtime. ``reason`` says why, ``fix`` what to install."""

    def __init__(self, reason: str, fix: str) -> None:
        super().__init__(f"{reason}. {fix}")
        self.reason, self.fix = reason, fix


class TensorFlowRuntimeError(JvmError):
    """The JVM has no TensorFlow runtime for what was asked: none is installed, or the JVM runs Java
    hooks only. ``hook``/``callback`` name the Java hook that needed it, when one did."""

    def __init__(self, reason: str, fix: str, hook: str | None = None, callback: str | None = None) -> None:
        where = f"{hook}.{callback}: " if hook and callback else (f"{hook}: " if hook else "")
        super().__init__(f"{where}{reason}. {fix}")
        self.reason, self.fix, self.hook, self.callback = reason, fix, hook, callback


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
    error :func:`start` raises for ``natives=True``; None when they can (``python_tf`` is exactly
    the build it wraps, or absent while ``jars`` bundle tensorflow-java's own runtime)."""
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


def mode() -> str | None:
    """What the JVM started by :func:`start` can do: :data:`SHARED_RUNTIME` (TensorFlow natives
    loaded from the Python TensorFlow wheel), :data:`OWN_RUNTIME` (tensorflow-java's own natives, no
    Python TensorFlow), :data:`HOOKS_ONLY` (no natives), or None before it started."""
    return _mode


def natives_loaded() -> bool:
    """Whether the running JVM has TensorFlow's natives (JVM sessions and org.jhooks.tf work)."""
    return _mode in (SHARED_RUNTIME, OWN_RUNTIME)


def start(extra_classpath: Sequence[str] = (), *, natives: bool = False) -> None:
    """Starts the JVM for jhooks, or checks the running one. Safe to call any number of times.

    ``natives``: whether the caller needs TensorFlow's natives (JVM sessions, the launcher,
    ``org.jhooks.tf``); without it the JVM may start hooks-only (module docstring).
    ``extra_classpath`` (jars or class dirs) is appended; on a running JVM it goes to JPype's
    dynamic class loader.

    Raises (before starting anything, or on a running hooks-only JVM) TensorFlowVersionError when
    ``natives`` and the installed Python TensorFlow is not the build tensorflow-java wraps,
    TensorFlowRuntimeError when ``natives`` and no TensorFlow runtime is installed; JvmError when a
    JVM started elsewhere lacks the jhooks jar; jhooks.bridge.classpath.ClasspathError when the jar
    is missing or another version.
    """
    from jhooks.bridge.backend import embedded

    if embedded():
        raise JvmError(
            'this Python runs inside a JVM through jep (the jep backend, docs/bridge.md "Backends"): Python '
            "cannot start or extend that JVM; Java hooks in Python sessions need a process that Python starts"
        )
    import jpype

    global _mode, _hooks_only_because
    with _lock:
        if jpype.isJVMStarted():
            _check_running(jpype, natives)
            threads.install_exit_guard()
            console.install()
            extend_classpath(extra_classpath)
            return
        jars = classpath()
        tf_java = tf_java_version(jars)
        python_tf = python_tensorflow()
        problem = runtime_problem(python_tf, tf_java, jars)
        if problem is not None and natives:
            raise problem
        if problem is not None:
            args = [f"-D{LOAD_LIBRARIES}=false"]
        else:
            args = jvm_args(python_tf.directory if python_tf is not None else None)
        signals.install_handlers()  # before the JVM's, which stay in front (signals.py)
        # interrupt=False makes JPype 1.7 install its Java handlers for SIGINT/SIGTERM (the flag is
        # inverted in JPypeContext.initialize): they interrupt the main thread and raise the signal
        # in Python. With interrupt=True the JVM's own handlers call System.exit while Java
        # threads are inside Python, which crashes the process.
        jpype.startJVM(*args, classpath=list(jars) + list(extra_classpath), convertStrings=False, interrupt=False)
        import jpype.imports  # noqa: F401  (enables `from org... import`)

        if problem is None:
            _load_natives(jpype)
            _mode = SHARED_RUNTIME if python_tf is not None else OWN_RUNTIME
        else:
            _mode, _hooks_only_because = HOOKS_ONLY, problem
            log.info("JVM started for Java hooks only (no TensorFlow natives): %s", problem.reason)
        threads.install_exit_guard()
        signals.arm_watchdog()
        console.install()
        log.debug("JVM started: tensorflow-java %s, %s", tf_java, _mode)


def require_natives(what: str) -> None:
    """Starts the JVM when none runs; raises TensorFlowRuntimeError naming ``what`` when the JVM runs
    hooks only. For Java code about to use TensorFlow natives, e.g. ``org.jhooks.tf`` classes."""
    start()
    if _mode == HOOKS_ONLY:
        raise hooks_only_error(what)


def hooks_only_error(
    what: str | None, hook: str | None = None, callback: str | None = None, cause: BaseException | None = None
) -> TensorFlowRuntimeError:
    """The error for ``what`` (or the Java ``hook``'s ``callback``) needing TensorFlow natives in this
    hooks-only JVM: it says why the JVM has none and which TensorFlow is needed."""
    because = _hooks_only_because
    reason = (
        (f"{what} needs" if what else "needs")
        + " TensorFlow's native runtime, but this process's JVM runs Java hooks only, without TensorFlow natives"
        + (f", because {because.reason}" if because is not None else "")
        + " (JPype cannot restart a JVM)"
    )
    error = TensorFlowRuntimeError(reason, because.fix if because is not None else "", hook, callback)
    if cause is not None:
        error.__cause__ = cause
    return error


def is_missing_natives(exc: BaseException) -> bool:
    """Whether ``exc`` (a Java exception, or a Python one converted from Java) or one of its causes is
    a failed TensorFlow native call of a hooks-only JVM: an UnsatisfiedLinkError, or a class that
    could not initialize for want of one."""
    if _mode != HOOKS_ONLY:
        return False
    import jpype

    linkage = jpype.JClass("java.lang.LinkageError")
    unsatisfied = jpype.JClass("java.lang.UnsatisfiedLinkError")
    seen = 0
    current: Any = exc
    while current is not None and seen < 32:
        if isinstance(current, unsatisfied):
            return True
        if isinstance(current, linkage):
            message = str(current.getMessage() or "")
            if "org.tensorflow" in message or "org.bytedeco" in message:
                return True
        # A Java exception goes on with its Java cause; a Python one (a hook error converted from
        # Java) with the Java original it keeps as __cause__.
        current = current.getCause() if hasattr(current, "getCause") else current.__cause__
        seen += 1
    return False


def _load_natives(jpype) -> str:
    return str(jpype.JClass("org.tensorflow.TensorFlow").version())


def _check_running(jpype, natives: bool) -> None:
    global _mode, _hooks_only_because
    if _mode == HOOKS_ONLY:
        if natives:
            raise _refusal(_hooks_only_because)
        return
    if _mode is not None:
        return
    try:
        jpype.JClass(MARKER_CLASS)
    except Exception as e:
        raise JvmError(
            f"a JVM is already running without the jhooks jar ({MARKER_CLASS} not found); JPype cannot "
            "restart it. Call jhooks.bridge.jvm.start() before anything else starts the JVM, or start it "
            "with classpath=jhooks.bridge.classpath.classpath()"
        ) from e
    importlib.import_module("jpype.imports")  # enables `from org... import`, as start() does

    system = jpype.JClass("java.lang.System")
    jars = [str(p) for p in str(system.getProperty("java.class.path") or "").split(os.pathsep) if p]
    python_tf = python_tensorflow()
    problem = runtime_problem(python_tf, tf_java_version(jars), jars)
    if problem is not None:
        if natives:
            raise problem
        system.setProperty(LOAD_LIBRARIES, "false")  # JavaCPP reads it at each load: no stray natives
        _mode, _hooks_only_because = HOOKS_ONLY, problem
        return
    recipe = system.getProperty("org.bytedeco.javacpp.pathsFirst") is not None
    if not recipe and tensorflow_wheel_dir() is not None and "tensorflow" in sys.modules:
        raise JvmError(
            "the running JVM was started without the shared-runtime options and Python TensorFlow is already "
            "imported: loading tensorflow-java's natives now would put a second TensorFlow runtime in this "
            "process and abort it. Start the JVM with jhooks.bridge.jvm.start()"
        )
    _load_natives(jpype)
    _mode = SHARED_RUNTIME if python_tf is not None else OWN_RUNTIME


def check_embedding_jvm() -> None:
    """For the jep backend (a JVM started by plain ``java`` that embeds this interpreter, docs/bridge.md,
    "Backends"): refuses, before any hook module imports TensorFlow, a JVM in which Python's
    TensorFlow and tensorflow-java cannot share one runtime. Sets :func:`mode`.

    Raises TensorFlowVersionError / TensorFlowRuntimeError as :func:`start` with ``natives=True``, and
    JvmError when Python's TensorFlow wheel ships the runtime but the JVM was started without the
    options that make tensorflow-java load it (the message lists the missing flags exactly, as
    ``java`` takes them: JavaCPP reads them when it loads its first class, so they cannot be set later).
    """
    global _mode
    from jhooks.bridge.backend import current

    system = current().jclass("java.lang.System")
    jars = [str(p) for p in str(system.getProperty("java.class.path") or "").split(os.pathsep) if p]
    python_tf = python_tensorflow()
    problem = runtime_problem(python_tf, tf_java_version(jars), jars)
    if problem is not None:
        raise problem
    if python_tf is None:
        _mode = OWN_RUNTIME
        return
    wanted = jvm_args(python_tf.directory)
    missing = []
    for flag in wanted[:2]:  # pathsFirst and linkpath decide which runtime loads; the cache dir is advice
        key, _, value = flag[2:].partition("=")
        if str(system.getProperty(key) or "") != value:
            missing.append(flag)
    if missing:
        raise JvmError(
            f"this JVM was started without {len(missing)} of the options that make tensorflow-java load the "
            f"TensorFlow runtime of Python's TensorFlow ({python_tf.directory}); a second runtime in one "
            f"process aborts it. Start java with: {' '.join(missing)} (and {wanted[2]} to keep this runtime's "
            "JavaCPP cache apart); 'python -m jhooks jvm-options' prints them all"
        )
    _mode = SHARED_RUNTIME


def _refusal(because: TensorFlowVersionError | TensorFlowRuntimeError | None) -> JvmError:
    """The start(natives=True) refusal on a running hooks-only JVM: the same error type and reason
    as before start-up, saying that the JVM runs hooks only."""
    if isinstance(because, (TensorFlowVersionError, TensorFlowRuntimeError)):
        return type(because)(
            because.reason + "; this process's JVM was started for Java hooks only and JPype cannot restart it",
            because.fix,
        )
    return JvmError("this process's JVM was started for Java hooks only and JPype cannot restart it")


def extend_classpath(jars: Sequence[str]) -> None:
    """Adds jars or class dirs to the running JVM's classpath (JPype's dynamic class loader, which
    ``jpype.JClass`` uses)."""
    import jpype

    for jar in jars:
        jpype.addClassPath(os.path.abspath(jar))


def searched_classpath() -> list[str]:
    """The running JVM's classpath: its start-up ``java.class.path`` and what was added since
    (``extend_classpath``, JPype's dynamic class loader), in order, without repeats."""
    import jpype

    entries = str(jpype.JClass("java.lang.System").getProperty("java.class.path") or "").split(os.pathsep)
    entries += [str(p) for p in jpype.getClassPath(env=False).split(os.pathsep)]
    return list(dict.fromkeys(e for e in entries if e))


def find_class(name: str) -> Any:
    """The Java class ``name`` (JPype's ``JClass``); JavaClassNotFoundError naming the classpath
    searched when it is not on it. The JVM must be running."""
    import jpype

    try:
        return jpype.JClass(name)
    except TypeError:
        searched = searched_classpath()
        raise JavaClassNotFoundError(
            f"Java class {name} not found on the classpath searched ({len(searched)} entries: "
            + os.pathsep.join(searched)
            + "); add its jar or classes directory: --classpath with python -m jhooks java, "
            "jhooks.bridge.jvm.start(extra_classpath=[...]) in Python"
        ) from None
