"""The Java side of the demo on the JVM's classpath: the jhooks-demo jar (org.jhooks.demo and the
example apps, org.jhooks.examples), which the demo's JVM part and JVM cluster tasks run.

The library's classpath holds the library only (docs/build.md, "Artifacts"). An installed
jhooks-demo wheel carries the jar in ``jhooks/demo/_jars/``, which the demo adds when it starts the
JVM (:func:`start_jvm`) and ``python -m jhooks java`` through the entry point ``jhooks.classpath``;
a checkout's build/jhooks-classpath.txt lists it with the library.
"""

from __future__ import annotations

from pathlib import Path

from jhooks.bridge.process import jvm


def jars() -> list[str]:
    """The jars this wheel carries, absolute paths; none in a checkout."""
    return sorted(str(j) for j in (Path(__file__).resolve().parent / "_jars").glob("*.jar"))


def start_jvm(*, natives: bool = False) -> None:
    """``jhooks.bridge.process.jvm.start`` with the demo jar on the classpath (added to a JVM that already runs)."""
    jvm.start(jars(), natives=natives)
