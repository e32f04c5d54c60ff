"""MkDocs hook (``hooks:`` in mkdocs.yml): the Java API reference, Javadoc, in the site under
``reference/javadoc/``, so the site holds both languages' references and its pages link Javadoc
pages like any other (checked by ``mkdocs build --strict``).

The Javadoc is Gradle's (``gradle javadoc`` writes build/docs/javadoc, with doclint; docs/build.md);
this hook runs it when that output is missing or older than a Java source. Without Gradle an
existing build/docs/javadoc is used; with neither the build fails saying what to run.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "java" / "src" / "main" / "java"
JAVADOC = ROOT / "build" / "docs" / "javadoc"
DEST = "reference/javadoc"


def _stale() -> bool:
    index = JAVADOC / "index.html"
    if not index.is_file():
        return True
    built = index.stat().st_mtime
    return any(source.stat().st_mtime > built for source in SOURCES.rglob("*.java"))


def _build() -> None:
    if not _stale():
        return
    gradle = shutil.which("gradle")
    if gradle is None:
        if (JAVADOC / "index.html").is_file():
            return  # older than a source, but the best there is without Gradle
        raise PluginError(f"the Java reference needs the Javadoc: run 'gradle javadoc' in {ROOT} (Gradle and a JDK)")
    done = subprocess.run(
        [gradle, "-q", "--console=plain", "javadoc"], cwd=ROOT, capture_output=True, text=True, timeout=1800
    )
    if done.returncode != 0:
        output = done.stdout[-3000:] + done.stderr[-3000:]
        raise PluginError(f"gradle javadoc failed (exit {done.returncode}):\n{output}")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    _build()
    for path in sorted(p for p in JAVADOC.rglob("*") if p.is_file()):
        files.append(File.generated(config, f"{DEST}/{path.relative_to(JAVADOC).as_posix()}", abs_src_path=str(path)))
    return files
