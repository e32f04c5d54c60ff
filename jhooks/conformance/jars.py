"""The Java side of the conformance suite: the jhooks-conformance jar (org.jhooks.conformance,
org.jhooks.testing and the scenario data), which the JVM driver and Java scripted hooks run.

An installed jhooks-conformance wheel carries it in ``jhooks/conformance/_jars/``; a checkout's
Gradle build writes it to ``build/libs/`` (and lists it in build/jhooks-classpath.txt). The
library's classpath has only the library (docs/build.md, "Artifacts"), so the suite adds this jar
when it starts the JVM (:func:`start_jvm`); ``python -m jhooks java`` adds it through the entry
point ``jhooks.classpath``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from jhooks.api.version import VERSION
from jhooks.bridge import jvm
from jhooks.bridge.backend import current, embedded
from jhooks.bridge.classpath import ClasspathError

JAR = f"jhooks-conformance-{VERSION}.jar"
_PACKAGE = Path(__file__).resolve().parent


def jars() -> list[str]:
    """The jhooks-conformance jar, an absolute path: the installed one, else the checkout's. Raises
    ClasspathError naming both places when neither exists."""
    installed = _PACKAGE / "_jars" / JAR
    built = _PACKAGE.parent.parent / "build" / "libs" / JAR
    for jar in (installed, built):
        if jar.is_file():
            return [str(jar)]
    raise ClasspathError(
        f"the conformance jar {JAR} is neither in {installed.parent} (reinstall jhooks-conformance {VERSION}) "
        f"nor in {built.parent} (in a checkout: gradle assemble, which scripts/setup runs)"
    )


def start_jvm(extra_classpath: Sequence[str] = (), *, natives: bool = False) -> None:
    """``jhooks.bridge.jvm.start`` with the conformance jar on the classpath (added to a JVM that
    already runs). Embedded in a JVM by jep, this interpreter cannot change that JVM's classpath:
    whoever started it put the jar there (docs/conformance.md, "Runners")."""
    if embedded():
        current().start(natives=natives)
        return
    jvm.start([*jars(), *extra_classpath], natives=natives)
