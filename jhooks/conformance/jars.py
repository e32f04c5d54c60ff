"""The Java side of the conformance suite on the JVM's classpath: the jhooks-conformance jar
(org.jhooks.conformance, org.jhooks.testing and the scenario data), which the JVM driver and Java
scripted hooks run.

The library's classpath holds the library only (docs/build.md, "Artifacts"). An installed
jhooks-conformance wheel carries the jar in ``jhooks/conformance/_jars/``, which the suite adds when
it starts the JVM (:func:`start_jvm`) and ``python -m jhooks java`` through the entry point
``jhooks.classpath``; a checkout's build/jhooks-classpath.txt lists it with the library.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from jhooks.bridge.backend.choice import embedded
from jhooks.bridge.process import jvm


def jars() -> list[str]:
    """The jars this wheel carries, absolute paths; none in a checkout."""
    return sorted(str(j) for j in (Path(__file__).resolve().parent / "_jars").glob("*.jar"))


def start_jvm(extra_classpath: Sequence[str] = (), *, natives: bool = False) -> None:
    """``jhooks.bridge.process.jvm.start`` with the conformance jar on the classpath (added to a JVM
    that already runs). Embedded in a JVM by jep, this interpreter cannot change that JVM's
    classpath: whoever started it put the jar there (docs/conformance.md, "Runners"), and
    ``jvm.ensure_running`` has nothing to start."""
    if embedded():
        jvm.ensure_running(natives=natives)
        return
    jvm.start([*jars(), *extra_classpath], natives=natives)
