"""Where the jhooks jar and its dependencies are, and that the jar is this package's version.

Order: the ``JHOOKS_CLASSPATH`` environment variable (``os.pathsep``-separated jars); an installed
wheel's ``jhooks/_jars/`` (the jars it bundles, listed in ``classpath.txt``: jhooks, its
dependencies and tensorflow-java's JNI glue, without TensorFlow's runtime; docs/build.md, "The
wheel"); a checkout's Gradle output (``build/jhooks-classpath.txt``, written by ``gradle
assemble``). Whichever it is, a jhooks jar on it (manifest ``Implementation-Title: jhooks``) must
have this package's version (``jhooks.api.version.VERSION``).
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from jhooks.api.version import VERSION

ENV_VAR = "JHOOKS_CLASSPATH"
_PACKAGE = Path(__file__).resolve().parents[2]  # jhooks/
_CHECKOUT = _PACKAGE.parent
WHEEL_JARS = _PACKAGE / "_jars"


class ClasspathError(RuntimeError):
    """The jhooks jar or one of its dependencies cannot be found, or the jar is another version."""


def _from_env(value: str) -> list[str]:
    jars = [p for p in value.split(os.pathsep) if p]
    missing = [p for p in jars if not os.path.exists(p)]
    if missing:
        raise ClasspathError(f"{ENV_VAR} names files that do not exist: {missing}")
    return jars


def _listed(listing: Path, base: Path | None, fix: str) -> list[str]:
    """The jars named one per line in ``listing`` (relative to ``base`` when given)."""
    names = [line for line in listing.read_text().split("\n") if line]
    jars = [str(base / n) if base is not None else n for n in names]
    missing = [j for j in jars if not os.path.exists(j)]
    if missing:
        raise ClasspathError(f"{listing} names missing jars {missing}; {fix}")
    return jars


def _manifest(jar: str) -> dict[str, str]:
    """The main attributes of ``jar``'s manifest (continuation lines joined); {} when it has none."""
    try:
        with zipfile.ZipFile(jar) as z:
            text = z.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (KeyError, OSError, zipfile.BadZipFile):
        return {}
    attributes: dict[str, str] = {}
    key = None
    for line in text.replace("\r\n", "\n").split("\n"):
        if not line:
            break  # the main section ends at the first blank line
        if line.startswith(" ") and key is not None:
            attributes[key] += line[1:]
        elif ":" in line:
            key, value = line.split(":", 1)
            attributes[key] = value.strip()
    return attributes


def jar_version(jar: str) -> str | None:
    """The version of ``jar`` if it is a jhooks jar (manifest ``Implementation-Title: jhooks``)."""
    attributes = _manifest(jar)
    if attributes.get("Implementation-Title") != "jhooks":
        return None
    return attributes.get("Implementation-Version", "unknown")


def check_jar_version(jars: list[str]) -> None:
    """Raises ClasspathError, naming both versions, when the first jhooks jar on ``jars`` is not
    this package's version; passes when there is no jhooks jar (e.g. a classes directory)."""
    for jar in jars:
        if not (jar.endswith(".jar") and os.path.isfile(jar)):
            continue
        version = jar_version(jar)
        if version is None:
            continue
        if version != VERSION:
            raise ClasspathError(
                f"the jhooks jar {jar} is version {version}, but the Python package jhooks is version {VERSION}; "
                "use the jar built with this package (in a checkout: gradle assemble, which scripts/setup runs; "
                f"installed: reinstall the jhooks {VERSION} wheel, or point {ENV_VAR} at the {VERSION} jar)"
            )
        return


def _find() -> list[str]:
    env = os.environ.get(ENV_VAR)
    if env:
        return _from_env(env)
    listing = WHEEL_JARS / "classpath.txt"
    if listing.exists():
        return _listed(listing, WHEEL_JARS, "the jhooks installation is damaged: reinstall it")
    listing = _CHECKOUT / "build" / "jhooks-classpath.txt"
    if listing.exists():
        return _listed(listing, None, "run 'gradle assemble' again")
    raise ClasspathError(
        "the jhooks jar was not found: in a checkout run 'gradle assemble' (scripts/setup does it), "
        f"or set {ENV_VAR} to the jar and its dependencies"
    )


def classpath() -> list[str]:
    """Absolute jar paths, the jhooks jar first. Raises ClasspathError with the fix."""
    jars = _find()
    check_jar_version(jars)
    return jars
