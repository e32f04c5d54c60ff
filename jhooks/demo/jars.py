"""The Java side of the demo: the jhooks-demo jar (org.jhooks.demo and the example apps,
org.jhooks.examples), which the demo's JVM part and JVM cluster tasks run.

An installed jhooks-demo wheel carries it in ``jhooks/demo/_jars/``; a checkout's
Gradle build writes it to ``build/libs/`` (and lists it in build/jhooks-classpath.txt). The
library's classpath has only the library (docs/build.md, "Artifacts"), so the demo adds this jar
when it starts the JVM (:func:`start_jvm`); ``python -m jhooks java`` adds it through the entry
point ``jhooks.classpath``.
"""

from __future__ import annotations

from pathlib import Path

from jhooks.api.version import VERSION
from jhooks.bridge import jvm
from jhooks.bridge.classpath import ClasspathError

JAR = f"jhooks-demo-{VERSION}.jar"
_PACKAGE = Path(__file__).resolve().parent


def jars() -> list[str]:
    """The jhooks-demo jar, an absolute path: the installed one, else the checkout's. Raises
    ClasspathError naming both places when neither exists."""
    installed = _PACKAGE / "_jars" / JAR
    built = _PACKAGE.parent.parent / "build" / "libs" / JAR
    for jar in (installed, built):
        if jar.is_file():
            return [str(jar)]
    raise ClasspathError(
        f"the demo jar {JAR} is neither in {installed.parent} (reinstall jhooks-demo {VERSION}) "
        f"nor in {built.parent} (in a checkout: gradle assemble, which scripts/setup runs)"
    )


def start_jvm(*, natives: bool = False) -> None:
    """``jhooks.bridge.jvm.start`` with the demo jar on the classpath (added to a JVM that already
    runs)."""
    jvm.start(jars(), natives=natives)
