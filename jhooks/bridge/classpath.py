"""Where the jhooks jar and its dependencies are.

Order: the ``JHOOKS_CLASSPATH`` environment variable (``os.pathsep``-separated jars); a wheel's
``jhooks/_jars/`` (jhooks.jar plus Maven coordinates resolved in ``~/.m2/repository`` or the
Gradle cache); a checkout's Gradle output (``build/jhooks-classpath.txt``, written by
``gradle assemble``).
"""

from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import List

ENV_VAR = "JHOOKS_CLASSPATH"
_PACKAGE = Path(__file__).resolve().parent.parent
_CHECKOUT = _PACKAGE.parent


class ClasspathError(RuntimeError):
    """The jhooks jar or one of its dependencies cannot be found."""


def _from_env(value: str) -> List[str]:
    jars = [p for p in value.split(os.pathsep) if p]
    missing = [p for p in jars if not os.path.exists(p)]
    if missing:
        raise ClasspathError(f"{ENV_VAR} names files that do not exist: {missing}")
    return jars


def _maven_jar(coordinate: str) -> str:
    parts = coordinate.split(":")
    group, artifact, version = parts[:3]
    classifier = parts[3] if len(parts) > 3 else None
    name = f"{artifact}-{version}" + (f"-{classifier}" if classifier else "") + ".jar"
    m2 = Path.home() / ".m2" / "repository" / group.replace(".", "/") / artifact / version / name
    if m2.exists():
        return str(m2)
    gradle_home = Path(os.environ.get("GRADLE_USER_HOME", Path.home() / ".gradle"))
    hits = glob.glob(str(gradle_home / "caches" / "modules-2" / "files-2.1" / group / artifact / version / "*" / name))
    if hits:
        return hits[0]
    raise ClasspathError(
        f"jhooks needs {coordinate}, found neither in ~/.m2 nor the Gradle cache; fetch it with "
        f"'mvn dependency:get -Dartifact={group}:{artifact}:{version}"
        + (f":jar:{classifier}" if classifier else "") + "' or set " + ENV_VAR)


def classpath() -> List[str]:
    """Absolute jar paths, the jhooks jar first. Raises ClasspathError with the fix."""
    env = os.environ.get(ENV_VAR)
    if env:
        return _from_env(env)
    wheel_jar = _PACKAGE / "_jars" / "jhooks.jar"
    if wheel_jar.exists():
        deps = (_PACKAGE / "_jars" / "dependencies.txt").read_text().split()
        return [str(wheel_jar)] + [_maven_jar(c) for c in deps]
    listing = _CHECKOUT / "build" / "jhooks-classpath.txt"
    if listing.exists():
        jars = listing.read_text().split("\n")
        jars = [j for j in jars if j]
        missing = [j for j in jars if not os.path.exists(j)]
        if missing:
            raise ClasspathError(f"{listing} names missing jars {missing}; run 'gradle assemble' again")
        return jars
    raise ClasspathError(
        "the jhooks jar was not found: in a checkout run 'gradle assemble' (scripts/setup does it), "
        f"or set {ENV_VAR} to the jar and its dependencies")
