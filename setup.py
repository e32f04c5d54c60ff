"""Puts the Java runtime in the wheel: the Gradle-built jhooks jar, its dependency jars and the JNI
glue (``gradle wheelJars`` -> build/wheel-jars -> jhooks/_jars/; docs/build.md, "The wheel").

Gradle runs whenever it is installed (an up-to-date build takes seconds), so a wheel never ships a
stale jar; without Gradle an existing build/wheel-jars is used. An editable install only runs the
Gradle build: a checkout reads build/jhooks-classpath.txt.
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
WHEEL_JARS = os.path.join(HERE, "build", "wheel-jars")


class BuildPyWithJars(build_py):
    def run(self):
        super().run()
        if shutil.which("gradle") and os.path.exists(os.path.join(HERE, "build.gradle")):
            subprocess.run(["gradle", "-q", "--console=plain", "assemble", "wheelJars"], cwd=HERE, check=True)
        elif not os.path.exists(os.path.join(WHEEL_JARS, "classpath.txt")):
            raise RuntimeError("building jhooks needs Gradle (or a prebuilt build/wheel-jars): apt-get install gradle")
        if getattr(self, "editable_mode", False):
            return
        target = os.path.join(self.build_lib, "jhooks", "_jars")
        if os.path.exists(target):
            shutil.rmtree(target)
        shutil.copytree(WHEEL_JARS, target)


setup(cmdclass={"build_py": BuildPyWithJars})
