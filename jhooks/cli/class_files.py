"""Whether a classpath holds a class file, read from the directories and jars themselves: lets
``python -m jhooks java`` refuse a main class that is on none of them before it imports TensorFlow
and starts the JVM (one line, no TensorFlow start-up lines before it)."""

from __future__ import annotations

import glob
import os
import zipfile
from collections.abc import Iterator, Sequence

# classes the JVM has without a classpath entry: left to it
_PLATFORM = ("java.", "javax.", "jdk.", "sun.", "com.sun.")


def class_file_present(name: str, entries: Sequence[str]) -> bool | None:
    """True when one of ``entries`` (directories, jars, ``dir/*`` as ``java -cp`` expands it, and the
    jars a jar's manifest ``Class-Path`` names, as the JVM follows them) holds the class file of
    ``name`` (``package.Class``, ``Outer$Inner``), also as a multi-release jar's versioned entry;
    False when none does; None when the JVM must decide: a platform class, or an entry that exists
    but cannot be read."""
    if name.startswith(_PLATFORM):
        return None
    path = name.replace(".", "/") + ".class"
    unreadable = False
    for entry in _expanded(entries, set()):
        if os.path.isdir(entry):
            if os.path.isfile(os.path.join(entry, path)):
                return True
            continue
        if not os.path.isfile(entry):
            continue  # the JVM skips a missing entry too
        try:
            with zipfile.ZipFile(entry) as jar:
                names = jar.namelist()
        except (OSError, zipfile.BadZipFile):
            unreadable = True
            continue
        if path in names or any(n.startswith("META-INF/versions/") and n.endswith("/" + path) for n in names):
            return True
    return None if unreadable else False


def _expanded(entries: Sequence[str], seen: set[str]) -> Iterator[str]:
    for entry in entries:
        if os.path.basename(entry) == "*":
            parent = os.path.dirname(entry) or "."
            found = sorted(glob.glob(os.path.join(glob.escape(parent), "*.jar")))
            found += sorted(glob.glob(os.path.join(glob.escape(parent), "*.JAR")))
            yield from _expanded(found, seen)
            continue
        key = os.path.realpath(entry)
        if key in seen:
            continue
        seen.add(key)
        yield entry
        if os.path.isfile(entry):
            yield from _expanded(_manifest_class_path(entry), seen)


def _manifest_class_path(jar: str) -> list[str]:
    """The local jars a jar's manifest ``Class-Path`` names, relative to the jar's directory."""
    try:
        with zipfile.ZipFile(jar) as z:
            text = z.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return []
    value, reading = [], False
    for line in text.replace("\r\n", "\n").split("\n"):
        if reading and line.startswith(" "):
            value.append(line[1:])  # a continuation line
            continue
        reading = line.lower().startswith("class-path:")
        if reading:
            value.append(line.split(":", 1)[1])
    base = os.path.dirname(jar)
    out = []
    for url in "".join(value).split():
        if url.startswith("file:"):
            url = url[len("file:") :]
        elif ":" in url:
            continue  # http: and such, which the JVM's launcher class path ignores too
        out.append(url if os.path.isabs(url) else os.path.join(base, url))
    return out
