"""What the three setup.py files share: the version (one source of truth, jhooks/api/version.py) and a
``build_py`` that builds the jars a wheel carries with Gradle and copies them into the wheel
(docs/build.md, "Artifacts").

Gradle runs whenever it is installed (an up-to-date build takes seconds), so a wheel never ships a
stale jar; without Gradle the jars already built are used. An editable install only runs the Gradle
build: a checkout reads build/jhooks-classpath.txt, which lists every jar the checkout builds.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def version() -> str:
    """The jhooks version (the line ``VERSION = "..."`` of jhooks/api/version.py, as build.gradle reads it)."""
    with open(os.path.join(ROOT, "jhooks", "api", "version.py"), encoding="utf-8") as f:
        found = re.search(r'(?m)^VERSION = "([^"]+)"$', f.read())
    if found is None:
        raise RuntimeError('jhooks/api/version.py has no line VERSION = "..."')
    return found.group(1)


def build_py_with_jars(gradle_tasks: list[str], jars: str, package: str) -> type[build_py]:
    """A ``build_py`` that runs ``gradle gradle_tasks`` in the checkout and copies ``jars`` (a path
    relative to the checkout: one jar, or a directory whose files are all copied) into the wheel's
    ``<package>/_jars/``."""
    source = os.path.join(ROOT, jars)

    class BuildPyWithJars(build_py):
        def run(self) -> None:
            if not getattr(self, "editable_mode", False):
                # setuptools reuses build/lib between builds: a module moved or deleted since the last
                # build would stay there and go into the wheel
                shutil.rmtree(os.path.join(self.build_lib, package.split(".")[0]), ignore_errors=True)
            super().run()
            if shutil.which("gradle") and os.path.exists(os.path.join(ROOT, "build.gradle")):
                subprocess.run(["gradle", "-q", "--console=plain", *gradle_tasks], cwd=ROOT, check=True)
            elif not os.path.exists(source):
                raise RuntimeError(f"building this wheel needs Gradle (or a prebuilt {jars}): apt-get install gradle")
            if getattr(self, "editable_mode", False):
                return
            target = os.path.join(self.build_lib, *package.split("."), "_jars")
            if os.path.exists(target):
                shutil.rmtree(target)
            if os.path.isdir(source):
                shutil.copytree(source, target)
            else:
                os.makedirs(target)
                shutil.copy2(source, target)

    return BuildPyWithJars
