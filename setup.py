"""Puts the Gradle-built jhooks jar and its dependency list inside the wheel (jhooks/_jars/).

Gradle runs whenever it is installed (an up-to-date build takes seconds), so a wheel never ships a
stale jar; without Gradle an existing build/libs/jhooks.jar is used.
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
JAR = os.path.join(HERE, "build", "libs", "jhooks.jar")
DEPS = os.path.join(HERE, "build", "jhooks-dependencies.txt")


class BuildPyWithJar(build_py):
    def run(self):
        super().run()
        if shutil.which("gradle") and os.path.exists(os.path.join(HERE, "build.gradle")):
            subprocess.run(["gradle", "-q", "assemble"], cwd=HERE, check=True)
        elif not (os.path.exists(JAR) and os.path.exists(DEPS)):
            raise RuntimeError("building jhooks needs Gradle (or a prebuilt build/libs/jhooks.jar): apt-get install gradle")
        target = os.path.join(self.build_lib, "jhooks", "_jars")
        os.makedirs(target, exist_ok=True)
        shutil.copy2(JAR, os.path.join(target, "jhooks.jar"))
        shutil.copy2(DEPS, os.path.join(target, "dependencies.txt"))


setup(cmdclass={"build_py": BuildPyWithJar})
