"""jhooks-demo: its version and jhooks requirement (both jhooks's version) and its jar, the Java demo
and example apps (``gradle demoJar`` -> jhooks/demo/_jars/)."""

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from jhooks_build import build_py_with_jars, version  # noqa: E402

VERSION = version()
setup(
    version=VERSION,
    # part 1 is a JVM session sharing Python TensorFlow's runtime: the build tensorflow-java wraps
    install_requires=[f"jhooks[tf]=={VERSION}"],
    cmdclass={"build_py": build_py_with_jars(["demoJar"], f"build/libs/jhooks-demo-{VERSION}.jar", "jhooks.demo")},
)
