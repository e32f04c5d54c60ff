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
refusal. Once started, Java log records go to Python ``logging`` (jhooks.bridge.process.console,
docs/logging.md), signals end the process in bounded time (``signals``, ``watchdog``) and so does its
exit (``exit_guard``). Nothing here ever shuts the JVM down. The rule itself is
:mod:`jhooks.bridge.process.runtime`; the JVM's state is ``PROCESS.jvm``
(:mod:`jhooks.bridge.process.state`).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jhooks.bridge.backend.choice import current, embedded
from jhooks.bridge.convert import standard_errors
from jhooks.bridge.process import console, direct_calls, runtime, signals
from jhooks.bridge.process.classpath import classpath
from jhooks.bridge.process.errors import (
    JavaClassNotFoundError,
    JvmError,
    TensorFlowRuntimeError,
    TensorFlowVersionError,
)
from jhooks.bridge.process.exit_guard import install_exit_guard
from jhooks.bridge.process.state import PROCESS
from jhooks.bridge.process.watchdog import arm_watchdog

log = logging.getLogger(__name__)

MARKER_CLASS = "org.jhooks.Hook"

# What the running JVM can do; see mode().
SHARED_RUNTIME = "shared-runtime"
OWN_RUNTIME = "own-runtime"
HOOKS_ONLY = "hooks-only"

_state = PROCESS.jvm

JAVA_RELEASE = 17
"""The oldest Java the jhooks jar runs on (it is compiled for 17)."""
NO_JDK_FIX = (
    f"install a JDK {JAVA_RELEASE} or later (Debian/Ubuntu: apt-get install openjdk-{JAVA_RELEASE}-jdk-headless) "
    "or set JAVA_HOME to one"
)


@dataclass(frozen=True)
class JavaRuntime:
    """The Java that would run jhooks' JVM: its home directory and release (``17.0.15``)."""

    home: str
    version: str


def java_runtime() -> JavaRuntime:
    """The Java the backend starts (JPype: ``JAVA_HOME``, else ``/usr/bin/java``'s, else one under
    ``/usr/lib/jvm``), read from its ``release`` file without starting it. JvmError naming what is
    missing and what to install when there is no JDK, or when it is older than :data:`JAVA_RELEASE`."""
    try:
        library = current().jvm_library()
    except LookupError as e:
        raise JvmError(f"no JDK found ({e}); {NO_JDK_FIX}") from None
    home = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(library))))  # <home>/lib/server/
    version = "unknown"
    try:
        with open(os.path.join(home, "release"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("JAVA_VERSION="):
                    version = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    major = version.split(".")[0]
    if major.isdigit() and int(major) < JAVA_RELEASE:
        raise JvmError(f"the JDK at {home} is Java {version}, older than {JAVA_RELEASE}; {NO_JDK_FIX}")
    return JavaRuntime(home, version)


def mode() -> str | None:
    """What the JVM started by :func:`start` can do: :data:`SHARED_RUNTIME` (TensorFlow natives
    loaded from the Python TensorFlow wheel), :data:`OWN_RUNTIME` (tensorflow-java's own natives, no
    Python TensorFlow), :data:`HOOKS_ONLY` (no natives), or None before it started."""
    return _state.mode


def start(extra_classpath: Sequence[str] = (), *, natives: bool = False) -> None:
    """Starts the JVM for jhooks, or checks the running one. Safe to call any number of times.

    ``natives``: whether the caller needs TensorFlow's natives (JVM sessions, the launcher,
    ``org.jhooks.tf``); without it the JVM may start hooks-only (module docstring).
    ``extra_classpath`` (jars or class dirs) is appended; on a running JVM it goes to JPype's
    dynamic class loader.

    Raises (before starting anything, or on a running hooks-only JVM) TensorFlowVersionError when
    ``natives`` and the installed Python TensorFlow is not the build tensorflow-java wraps,
    TensorFlowRuntimeError when ``natives`` and no TensorFlow runtime is installed; JvmError when
    there is no JDK 17+ (:func:`java_runtime`), when a JVM started elsewhere lacks the jhooks jar,
    or when this Python runs inside a JVM (jep);
    jhooks.bridge.process.classpath.ClasspathError when the jar is missing or another version.
    """
    if embedded():
        raise JvmError(
            'this Python runs inside a JVM through jep (the jep backend, docs/bridge.md "Backends"): Python '
            "cannot start or extend that JVM; Java hooks in Python sessions need a process that Python starts"
        )
    backend = current()
    with _state.lock:
        standard_errors.install()  # before any Java exception class is made for Python
        direct_calls.install()
        if backend.jvm_started():
            _check_running(natives)
            install_exit_guard()
            console.install()
            extend_classpath(extra_classpath)
            return
        jars, tf_java, python_tf, problem = _start_plan(natives)
        if problem is not None:
            args = [f"-D{runtime.LOAD_LIBRARIES}=false"]
        else:
            args = runtime.jvm_args(python_tf.directory if python_tf is not None else None)
        signals.install_handlers()  # before the JVM's, which stay in front (signals.py)
        backend.start_jvm(args, list(jars) + list(extra_classpath))
        if problem is None:
            _load_natives()
            _state.mode = SHARED_RUNTIME if python_tf is not None else OWN_RUNTIME
        else:
            _state.mode, _state.hooks_only_because = HOOKS_ONLY, problem
            log.info("JVM started for Java hooks only (no TensorFlow natives): %s", problem.reason)
        install_exit_guard()
        arm_watchdog()
        console.install()
        log.debug("JVM started: tensorflow-java %s, %s", tf_java, _state.mode)


def _start_plan(natives: bool) -> tuple[list[str], str, Any, Any]:
    """The jars, tensorflow-java version, Python TensorFlow and runtime problem :func:`start` starts
    with; raises what it refuses before starting anything (no JDK, the jars, the runtime problem
    when ``natives``). Imports no TensorFlow."""
    java_runtime()  # no JDK, or too old: one JvmError saying what to install, before anything starts
    jars = classpath()
    tf_java = runtime.tf_java_version(jars)
    python_tf = runtime.python_tensorflow()
    problem = runtime.runtime_problem(python_tf, tf_java, jars)
    if problem is not None and natives:
        raise problem
    return list(jars), tf_java, python_tf, problem


def check_start(natives: bool = False) -> None:
    """Raises what :func:`start` with ``natives`` would refuse before it starts anything (JvmError:
    no JDK; ClasspathError; the TensorFlowVersionError or TensorFlowRuntimeError of a runtime the
    JVM cannot load), without starting the JVM or importing TensorFlow: ``python -m jhooks java``
    says these before its own checks import the ``--hook`` modules. Nothing when the JVM runs."""
    if not current().jvm_started():
        _start_plan(natives)


def ensure_running(natives: bool = False) -> None:
    """Makes sure the JVM the bridge uses runs (``natives``: with TensorFlow's natives), for code that
    works on either backend: under jep it does (it hosts this interpreter, and
    ``EmbeddedPython.start()`` checked its runtime); under JPype :func:`start`."""
    if not embedded():
        start(natives=natives)
    else:
        standard_errors.install()


def require_natives(what: str) -> None:
    """Starts the JVM when none runs; raises TensorFlowRuntimeError naming ``what`` when the JVM runs
    hooks only. For Java code about to use TensorFlow natives, e.g. ``org.jhooks.tf`` classes."""
    start()
    if _state.mode == HOOKS_ONLY:
        raise hooks_only_error(what)


def hooks_only_error(
    what: str | None, hook: str | None = None, callback: str | None = None, cause: BaseException | None = None
) -> TensorFlowRuntimeError:
    """The error for ``what`` (or the Java ``hook``'s ``callback``) needing TensorFlow natives in this
    hooks-only JVM: it says why the JVM has none and which TensorFlow is needed."""
    because = _state.hooks_only_because
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
    if _state.mode != HOOKS_ONLY:
        return False
    backend = current()
    seen = 0
    error: Any = exc
    while error is not None and seen < 32:
        if backend.is_instance(error, "java.lang.UnsatisfiedLinkError"):
            return True
        if backend.is_instance(error, "java.lang.LinkageError"):
            message = str(error.getMessage() or "")
            if "org.tensorflow" in message or "org.bytedeco" in message:
                return True
        # A Java exception goes on with its Java cause; a Python one (a hook error converted from
        # Java) with the Java original it keeps as __cause__.
        error = error.getCause() if hasattr(error, "getCause") else error.__cause__
        seen += 1
    return False


def _load_natives() -> str:
    return str(current().jclass("org.tensorflow.TensorFlow").version())


def _check_running(natives: bool) -> None:
    if _state.mode == HOOKS_ONLY:
        if natives:
            raise _refusal(_state.hooks_only_because)
        return
    if _state.mode is not None:
        return
    backend = current()
    try:
        backend.jclass(MARKER_CLASS)
    except Exception as e:
        raise JvmError(
            f"a JVM is already running without the jhooks jar ({MARKER_CLASS} not found); JPype cannot "
            "restart it. Call jhooks.bridge.process.jvm.start() before anything else starts the JVM, or start "
            "it with classpath=jhooks.bridge.process.classpath.classpath()"
        ) from e
    backend.adopt_jvm()  # as start() does

    system = backend.jclass("java.lang.System")
    jars = [str(p) for p in str(system.getProperty("java.class.path") or "").split(os.pathsep) if p]
    python_tf = runtime.python_tensorflow()
    problem = runtime.runtime_problem(python_tf, runtime.tf_java_version(jars), jars)
    if problem is not None:
        if natives:
            raise problem
        system.setProperty(runtime.LOAD_LIBRARIES, "false")  # JavaCPP reads it at each load: no stray natives
        _state.mode, _state.hooks_only_because = HOOKS_ONLY, problem
        return
    recipe = system.getProperty("org.bytedeco.javacpp.pathsFirst") is not None
    if not recipe and runtime.tensorflow_wheel_dir() is not None and "tensorflow" in sys.modules:
        raise JvmError(
            "the running JVM was started without the shared-runtime options and Python TensorFlow is already "
            "imported: loading tensorflow-java's natives now would put a second TensorFlow runtime in this "
            "process and abort it. Start the JVM with jhooks.bridge.process.jvm.start()"
        )
    _load_natives()
    _state.mode = SHARED_RUNTIME if python_tf is not None else OWN_RUNTIME


def check_embedding_jvm() -> None:
    """For the jep backend (a JVM started by plain ``java`` that embeds this interpreter, docs/bridge.md,
    "Backends"): refuses, before any hook module imports TensorFlow, a JVM in which Python's
    TensorFlow and tensorflow-java cannot share one runtime. Sets :func:`mode`.

    Raises TensorFlowVersionError / TensorFlowRuntimeError as :func:`start` with ``natives=True``, and
    JvmError when Python's TensorFlow wheel ships the runtime but the JVM was started without the
    options that make tensorflow-java load it (the message lists the missing flags exactly, as
    ``java`` takes them: JavaCPP reads them when it loads its first class, so they cannot be set later).
    """
    system = current().jclass("java.lang.System")
    jars = [str(p) for p in str(system.getProperty("java.class.path") or "").split(os.pathsep) if p]
    python_tf = runtime.python_tensorflow()
    problem = runtime.runtime_problem(python_tf, runtime.tf_java_version(jars), jars)
    if problem is not None:
        raise problem
    if python_tf is None:
        _state.mode = OWN_RUNTIME
        return
    wanted = runtime.jvm_args(python_tf.directory)
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
    _state.mode = SHARED_RUNTIME


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
    the backend's class lookup uses)."""
    backend = current()
    for jar in jars:
        backend.add_classpath(os.path.abspath(jar))


def searched_classpath() -> list[str]:
    """The running JVM's classpath: its start-up ``java.class.path`` and what was added since
    (``extend_classpath``, JPype's dynamic class loader), in order, without repeats."""
    backend = current()
    entries = str(backend.jclass("java.lang.System").getProperty("java.class.path") or "").split(os.pathsep)
    entries += backend.added_classpath()
    return list(dict.fromkeys(e for e in entries if e))


def find_class(name: str) -> Any:
    """The Java class ``name`` (the backend's class); JavaClassNotFoundError naming the classpath
    searched when it is not on it. The JVM must be running."""
    try:
        return current().jclass(name)
    except TypeError:
        raise class_not_found(name, searched_classpath()) from None


def class_not_found(name: str, searched: Sequence[str]) -> JavaClassNotFoundError:
    """The error for a Java class ``name`` that is on none of the ``searched`` classpath entries;
    also raised by ``python -m jhooks java`` before it starts the JVM."""
    return JavaClassNotFoundError(
        f"Java class {name} not found on the classpath searched ({_described(searched)}); check the name "
        "(package.Class, Outer$Inner for a nested class) or add its jar or classes directory: --classpath "
        "with python -m jhooks java, jhooks.bridge.process.jvm.start(extra_classpath=[...]) in Python"
    )


def _described(searched: Sequence[str], shown: int = 3) -> str:
    """The classpath in a few words (it was a thousand characters of jar paths): how many jhooks jars
    (``python -m jhooks info`` lists them), then the app's entries, the first ``shown`` of them by path."""
    try:
        own = set(classpath())
    except Exception:  # the classpath was found at start-up; a failure now only costs the summary
        own = set()
    others = [e for e in searched if e not in own and os.path.basename(e) != "org.jpype.jar"]  # JPype's own
    text = f"{len(own)} jhooks jars, listed by python -m jhooks info"
    if others:
        more = f" and {len(others) - shown} more" if len(others) > shown else ""
        text += f"; {len(others)} other {'entry' if len(others) == 1 else 'entries'}: " + ", ".join(others[:shown])
        text += more
    return text
