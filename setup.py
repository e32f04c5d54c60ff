"""Puts the Gradle-built jhooks jar and its dependency list inside the wheel (jhooks/_jars/)."""

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
        if not (os.path.exists(JAR) and os.path.exists(DEPS)):
            subprocess.run(["gradle", "-q", "assemble"], cwd=HERE, check=True)
        target = os.path.join(self.build_lib, "jhooks", "_jars")
        os.makedirs(target, exist_ok=True)
        shutil.copy2(JAR, os.path.join(target, "jhooks.jar"))
        shutil.copy2(DEPS, os.path.join(target, "dependencies.txt"))


setup(cmdclass={"build_py": BuildPyWithJar})
