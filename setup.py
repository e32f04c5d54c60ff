"""Puts the Java runtime in the jhooks wheel: the Gradle-built jhooks jar, its dependency jars and the
JNI glue (``gradle wheelJars`` -> build/wheel-jars -> jhooks/_jars/; docs/build.md, "The wheel").
The build itself is shared with the other distributions (distributions/jhooks_build.py)."""

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "distributions"))
from jhooks_build import build_py_with_jars  # noqa: E402

setup(cmdclass={"build_py": build_py_with_jars(["assemble", "wheelJars"], "build/wheel-jars", "jhooks")})
