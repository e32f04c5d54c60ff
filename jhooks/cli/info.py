"""``python -m jhooks info``: versions and the Java classpath jhooks would use."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("info", help="print versions and the Java classpath jhooks uses")
    p.set_defaults(run=run)


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def run(args: argparse.Namespace) -> int:
    """Prints jhooks/Python, jhooks's other distributions, TensorFlow, JPype, Java and
    tensorflow-java versions, how a JVM would start here (sharing Python's TensorFlow runtime,
    tensorflow-java's own, or Java hooks only, and why), the JavaCPP cache and the classpath (with
    the jars of the other distributions); exit status 1 when there is no JDK 17+, or the classpath
    cannot be found or its jhooks jar is another version. Starts no JVM, imports no TF."""
    import jhooks
    from jhooks.bridge.process import jvm, runtime
    from jhooks.bridge.process.classpath import ClasspathError, classpath
    from jhooks.bridge.process.errors import JvmError
    from jhooks.cli import extensions

    print(f"jhooks {jhooks.__version__}, Python {sys.version.split()[0]}")
    for distribution in sorted(set(extensions.ELSEWHERE.values())):
        print(f"{distribution}: {_version(distribution)}")
    print(f"tensorflow: {runtime.installed_tensorflow() or 'not installed'}")
    print(f"jpype: {_version('JPype1')}")
    from jhooks.bridge.backend.jep_backend import jep_jar

    jar = jep_jar()
    print(f"jep: {_version('jep')}" + (f" (jar for a JVM started by java: {jar})" if jar else ""))
    try:
        java = jvm.java_runtime()
        print(f"java: {java.version} ({java.home}{_java_home_ignored(java.home)})")
    except JvmError as e:
        print(f"java: none: {e}")
        print("jvm: none: Java hooks, JVM sessions and the launcher need a JDK")
        return 1
    try:
        jars = classpath()
    except ClasspathError as e:
        print(f"classpath: {e}")
        return 1
    tf_java = runtime.tf_java_version(jars)
    problem = runtime.runtime_problem(runtime.python_tensorflow(), tf_java, jars)
    print(f"tensorflow-java: {tf_java}")
    print(f"jvm: {_mode(runtime, problem)}")
    print(f"javacpp cache: {runtime.javacpp_cache_dir(runtime.tensorflow_wheel_dir() is not None)}")
    for jar in jars + [j for j in extensions.classpath() if j not in jars]:
        print(f"classpath: {jar}")
    return 0


def _java_home_ignored(home: str) -> str:
    """A note when ``JAVA_HOME`` is set but is not the JDK used: JPype passes over a ``JAVA_HOME``
    without a JVM (``mvn`` and ``gradle`` refuse one), so a mistyped one is said here."""
    java_home = os.environ.get("JAVA_HOME")
    if not java_home or os.path.realpath(java_home) == os.path.realpath(home):
        return ""
    return f"; JAVA_HOME={java_home} is not a JDK JPype can use, so it was passed over"


def _mode(runtime: Any, problem: Any) -> str:
    if problem is None and runtime.python_tensorflow() is not None:
        return "JVM sessions and Java hooks, sharing Python TensorFlow's runtime (the build tensorflow-java wraps)"
    if problem is None:
        return "JVM sessions and Java hooks, on tensorflow-java's own runtime (no Python TensorFlow)"
    return f"Java hooks only, no JVM sessions: {problem}"
